"use client";

import { ConfirmButtons } from "./_components/confirm-buttons";
import { startTransition, useActionState, useState, type FormEvent } from "react";
import { useTranslations } from "next-intl";
import { callAction } from "@/app/_lib/client-action";
import { startShift } from "./actions";
import { FormError } from "@/app/_components/form-error";
import type { SeriesOpenNumbers } from "@/lib/core/shift-skips";
import { ShiftSkips } from "./shift-skips";

type Result = Awaited<ReturnType<typeof startShift>>;

const BUTTON = "rounded-xl px-6 py-3 text-xl font-bold focus:outline-none focus-visible:ring-4 disabled:cursor-wait disabled:opacity-60";
const INPUT =
  "w-full rounded-lg border-2 border-slate-400 px-4 py-3 text-xl focus:border-blue-700 focus:outline-none focus:ring-4 focus:ring-blue-200 read-only:bg-slate-100";

/**
 * Two steps: fill in, then confirm. Both say which open numbers the new numbering will
 * skip; the confirmation says how many orders are still open and keeps them unless the
 * manager chooses to clear them. The shift shown is sent along so a double start cannot happen.
 */
export function StartShiftForm({
  slug,
  currentShift,
  openCount,
  openBySeries,
}: {
  slug: string;
  currentShift: number;
  openCount: number;
  openBySeries: SeriesOpenNumbers[];
}) {
  const t = useTranslations("manager.newShift");
  const tc = useTranslations("common.errors");
  const [confirming, setConfirming] = useState(false);
  const [firstNumber, setFirstNumber] = useState("1");
  const [reason, setReason] = useState("");
  const [openOrders, setOpenOrders] = useState<"keep" | "clear">("keep");
  const [state, dispatch, pending] = useActionState<Result, FormData>(async (prev, form) => {
    const result = await callAction(startShift, prev, form, tc("connectionLost"), tc("newBuild"));
    if (result?.ok) {
      setReason("");
      setFirstNumber("1");
      setOpenOrders("keep");
    }
    return result;
  }, null);

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!confirming) {
      if (e.currentTarget.reportValidity()) setConfirming(true);
      return;
    }
    const form = new FormData(e.currentTarget);
    setConfirming(false);
    startTransition(() => dispatch(form));
  }

  // What the server takes: a blank field is 1; a number out of bounds is refused there, and shown as typed here.
  const typed = Number.parseInt(firstNumber.trim(), 10);
  const first = Number.isFinite(typed) && typed >= 1 ? typed : 1;
  const next = currentShift + 1;

  return (
    <div className="space-y-4">
      {state?.ok ? (
        <p
          role="status"
          className={`rounded-lg border-2 px-4 py-3 text-lg font-medium ${state.data.created ? "border-emerald-700 bg-emerald-50 text-emerald-900" : "border-amber-600 bg-amber-50 text-amber-950"}`}
        >
          {!state.data.created
            ? t("already", { shift: state.data.shift, by: state.data.startedBy, at: state.data.startedAt })
            : state.data.cleared > 0
              ? t("startedCleared", { shift: state.data.shift, first: state.data.nextNumber, count: state.data.cleared })
              : t("started", { shift: state.data.shift, first: state.data.nextNumber })}
        </p>
      ) : null}
      <FormError message={state && !state.ok ? state.error : null} />

      <form onSubmit={submit} className="space-y-4">
        <input type="hidden" name="tenant" value={slug} />
        <input type="hidden" name="ifCurrentShift" value={currentShift} />
        <div className="grid gap-4 sm:grid-cols-[1fr_12rem]">
          <div>
            <label htmlFor="shift-reason" className="mb-1 block text-lg font-semibold">
              {t("reason")} <span className="font-normal text-slate-600">{t("optional")}</span>
            </label>
            <input
              id="shift-reason"
              name="reason"
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              maxLength={200}
              readOnly={confirming}
              placeholder={t("reasonPlaceholder")}
              className={INPUT}
            />
          </div>
          <div>
            <label htmlFor="shift-first" className="mb-1 block text-lg font-semibold">
              {t("firstNumber")}
            </label>
            <input
              id="shift-first"
              name="firstNumber"
              type="number"
              inputMode="numeric"
              min={1}
              max={9999}
              step={1}
              value={firstNumber}
              onChange={(e) => setFirstNumber(e.target.value)}
              readOnly={confirming}
              className={`${INPUT} tabular-nums`}
            />
          </div>
        </div>
        {confirming ? (
          <div role="group" aria-labelledby="confirm-shift" className="space-y-3 rounded-xl border-2 border-amber-600 bg-amber-50 p-4">
            <p id="confirm-shift" className="text-lg font-semibold text-amber-950">
              {t("confirm", { shift: next })} <span data-testid="open-count">{openCount === 0 ? t("openNone") : t("openSome", { count: openCount })}</span>
            </p>
            <ShiftSkips series={openBySeries} firstNumber={first} clearing={openOrders === "clear"} className="text-lg text-amber-950" />
            {openCount > 0 ? (
              <fieldset className="space-y-2">
                <legend className="sr-only">{t("openLegend")}</legend>
                {(["keep", "clear"] as const).map((choice) => (
                  <label
                    key={choice}
                    className="flex cursor-pointer items-start gap-3 rounded-lg border-2 border-amber-300 bg-white p-3 text-lg has-checked:border-amber-700"
                  >
                    <input
                      type="radio"
                      name="openOrders"
                      value={choice}
                      checked={openOrders === choice}
                      onChange={() => setOpenOrders(choice)}
                      className="mt-1 size-5 accent-amber-700"
                    />
                    <span>{t(choice)}</span>
                  </label>
                ))}
              </fieldset>
            ) : (
              <input type="hidden" name="openOrders" value="keep" />
            )}
            <ConfirmButtons yes={t("yes", { shift: next })} back={t("back")} onBack={() => setConfirming(false)} pending={pending} />
          </div>
        ) : (
          <>
            {openBySeries.length > 0 ? (
              <div className="rounded-lg bg-slate-50 px-4 py-3 text-lg text-slate-800">
                <p className="font-semibold">{t("nowPlan")}</p>
                <ShiftSkips series={openBySeries} firstNumber={first} clearing={false} />
              </div>
            ) : null}
            <button type="submit" disabled={pending} className={`${BUTTON} bg-slate-900 text-white hover:bg-slate-700 focus-visible:ring-blue-300`}>
              {pending ? t("starting") : t("start")}
            </button>
          </>
        )}
      </form>
    </div>
  );
}
