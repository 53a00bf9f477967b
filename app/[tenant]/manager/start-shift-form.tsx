"use client";

import { startTransition, useActionState, useState, type FormEvent } from "react";
import { callAction } from "@/app/_lib/client-action";
import { startShift } from "./actions";
import { FormError } from "@/app/_components/form-error";

type Result = Awaited<ReturnType<typeof startShift>>;

const BUTTON = "rounded-xl px-6 py-3 text-xl font-bold focus:outline-none focus-visible:ring-4 disabled:cursor-wait disabled:opacity-60";

/** Two steps: fill in, then confirm. The shift shown is sent along so a double start cannot happen. */
export function StartShiftForm({ slug, currentShift }: { slug: string; currentShift: number }) {
  const [confirming, setConfirming] = useState(false);
  const [firstNumber, setFirstNumber] = useState("1");
  const [reason, setReason] = useState("");
  const [state, dispatch, pending] = useActionState<Result, FormData>(async (prev, form) => {
    const result = await callAction(startShift, prev, form);
    if (result?.ok) {
      setReason("");
      setFirstNumber("1");
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

  const first = firstNumber.trim() === "" ? "1" : firstNumber.trim();

  return (
    <div className="space-y-4">
      {state?.ok ? (
        <p role="status" className={`rounded-lg border-2 px-4 py-3 text-lg font-medium ${state.data.created ? "border-emerald-700 bg-emerald-50 text-emerald-900" : "border-amber-600 bg-amber-50 text-amber-950"}`}>
          {state.data.created
            ? `Shift ${state.data.shift} started — next number is ${state.data.firstNumber}.`
            : `Shift ${state.data.shift} was already started by ${state.data.startedBy} at ${state.data.startedAt}. Nothing else was changed.`}
        </p>
      ) : null}
      <FormError message={state && !state.ok ? state.error : null} />

      <form onSubmit={submit} className="space-y-4">
        <input type="hidden" name="tenant" value={slug} />
        <input type="hidden" name="ifCurrentShift" value={currentShift} />
        <div className="grid gap-4 sm:grid-cols-[1fr_12rem]">
          <div>
            <label htmlFor="shift-reason" className="mb-1 block text-lg font-semibold">
              Reason <span className="font-normal text-slate-600">(optional)</span>
            </label>
            <input
              id="shift-reason"
              name="reason"
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              maxLength={200}
              readOnly={confirming}
              placeholder="e.g. Evening service"
              className="w-full rounded-lg border-2 border-slate-400 px-4 py-3 text-xl focus:border-blue-700 focus:outline-none focus:ring-4 focus:ring-blue-200 read-only:bg-slate-100"
            />
          </div>
          <div>
            <label htmlFor="shift-first" className="mb-1 block text-lg font-semibold">
              First number
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
              className="w-full rounded-lg border-2 border-slate-400 px-4 py-3 text-xl tabular-nums focus:border-blue-700 focus:outline-none focus:ring-4 focus:ring-blue-200 read-only:bg-slate-100"
            />
          </div>
        </div>
        {confirming ? (
          <div role="group" aria-labelledby="confirm-shift" className="rounded-xl border-2 border-amber-600 bg-amber-50 p-4">
            <p id="confirm-shift" className="text-lg font-semibold text-amber-950">
              Start shift {currentShift + 1}? Numbers restart at {first}. The board will show only the new shift; orders still open stay on the kitchen screen.
            </p>
            <div className="mt-3 flex flex-wrap gap-3">
              <button type="submit" autoFocus disabled={pending} className={`${BUTTON} bg-amber-600 text-white hover:bg-amber-700 focus-visible:ring-amber-300`}>
                Yes, start shift {currentShift + 1}
              </button>
              <button type="button" onClick={() => setConfirming(false)} className={`${BUTTON} border-2 border-slate-400 bg-white text-slate-900 hover:bg-slate-100 focus-visible:ring-blue-300`}>
                Go back
              </button>
            </div>
          </div>
        ) : (
          <button type="submit" disabled={pending} className={`${BUTTON} bg-slate-900 text-white hover:bg-slate-700 focus-visible:ring-blue-300`}>
            {pending ? "Starting shift…" : "Start new shift…"}
          </button>
        )}
      </form>
    </div>
  );
}
