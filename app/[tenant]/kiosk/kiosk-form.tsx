"use client";

import { startTransition, useActionState, useEffect, useRef, useState, type FormEvent } from "react";
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { callAction } from "@/app/_lib/client-action";
import { ORDER_LIMITS } from "@/lib/core/orders";
import type { MenuSection } from "@/lib/core/menu";
import { MenuPad, PickedList, type Picked } from "./menu-pad";
import { placeOrder, type IssuedTicket } from "./actions";
import { Ticket } from "./ticket";
import type { Paper } from "./use-kiosk-device";
import { FormError } from "@/app/_components/form-error";

interface Row {
  id: number;
  name: string;
  qty: string;
}

/** A fresh idempotency key. crypto.randomUUID needs a secure context; tablets on plain http get the fallback. */
function newKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

type PlaceResult = Awaited<ReturnType<typeof placeOrder>>;

export interface KioskFormProps {
  slug: string;
  /** The restaurant's menu (categories with at least one item); empty: free-text items only. */
  menu: MenuSection[];
  paper: Paper;
  /** The last ticket this device issued (kept across reloads), for "Reprint last ticket". */
  lastTicket: IssuedTicket | null;
  onIssued: (ticket: IssuedTicket) => void;
}

export function KioskForm({ slug, menu, paper, lastTicket, onIssued }: KioskFormProps) {
  const t = useTranslations("kiosk");
  const router = useRouter();
  const [picked, setPicked] = useState<Picked[]>([]);
  const hasMenu = menu.length > 0;
  // Row ids only need to be unique within this form; the first is 0 on server and client alike.
  const rowIds = useRef(1);
  const emptyRow = (): Row => ({ id: rowIds.current++, name: "", qty: "1" });
  const [rows, setRows] = useState<Row[]>([{ id: 0, name: "", qty: "1" }]);
  const [note, setNote] = useState("");
  // One key per order form: a double tap or a retry after a lost answer gets the same number.
  // Set after mount so the server-rendered HTML and the browser agree.
  const [idempotencyKey, setIdempotencyKey] = useState("");
  const [dismissed, setDismissed] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const focusRow = useRef<number | null>(null);
  const nextOrderRef = useRef<HTMLButtonElement>(null);
  // Set synchronously on submit: a double tap lands before `pending` re-renders.
  const submitting = useRef(false);

  useEffect(() => setIdempotencyKey(newKey()), []);

  const [state, dispatch, pending] = useActionState<PlaceResult, FormData>(async (prev, form) => {
    const result = await callAction(placeOrder, prev, form, t("offline"));
    submitting.current = false;
    if (result?.ok) {
      onIssued(result.data);
      // This order is taken: the next one starts empty with a new key.
      setRows([emptyRow()]);
      setPicked([]);
      setNote("");
      setIdempotencyKey(newKey());
    }
    // The menu may have changed (an item sold out meanwhile): read it again for the next order.
    if (hasMenu && (result?.ok || result?.code === "CONFLICT" || result?.code === "BAD_INPUT")) router.refresh();
    return result;
  }, null);

  const ticket = state?.ok && state.data.orderId !== dismissed ? state.data : null;

  useEffect(() => {
    if (ticket) nextOrderRef.current?.focus();
  }, [ticket]);

  useEffect(() => {
    if (focusRow.current == null) return;
    formRef.current?.querySelector<HTMLInputElement>(`#item-name-${focusRow.current}`)?.focus();
    focusRow.current = null;
  }, [rows]);

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (pending || submitting.current) return;
    submitting.current = true;
    const form = new FormData(e.currentTarget);
    if (!form.get("idempotencyKey")) form.set("idempotencyKey", idempotencyKey || newKey());
    startTransition(() => dispatch(form));
  }

  const update = (id: number, patch: Partial<Row>) => setRows((rs) => rs.map((r) => (r.id === id ? { ...r, ...patch } : r)));
  const addRow = () => {
    const row = emptyRow();
    focusRow.current = row.id;
    setRows((rs) => [...rs, row]);
  };
  const removeRow = (id: number) => setRows((rs) => (rs.length === 1 ? [emptyRow()] : rs.filter((r) => r.id !== id)));
  const stepQty = (row: Row, delta: number) => {
    const current = Number.parseInt(row.qty, 10);
    const next = Math.min(ORDER_LIMITS.qty, Math.max(1, (Number.isFinite(current) ? current : 1) + delta));
    update(row.id, { qty: String(next) });
  };

  if (ticket) {
    return (
      <section aria-labelledby="issued-heading" className="grid items-start gap-8 lg:grid-cols-[1fr_auto]">
        <div className="rounded-2xl border-4 border-emerald-600 bg-emerald-50 p-8 text-center">
          <h2 id="issued-heading" className="text-2xl font-bold text-emerald-900">
            {t("issuedHeading")}
          </h2>
          <p role="status" aria-live="polite" className="sr-only">
            {t("issuedStatus", { number: ticket.number })}
          </p>
          <p data-testid="issued-number" className="my-4 text-[clamp(7rem,22vw,16rem)] leading-none font-black tabular-nums text-emerald-950">
            {ticket.number}
          </p>
          {!ticket.created ? <p className="text-lg font-medium text-emerald-900">{t("sameOrder")}</p> : null}
          <div className="mt-8 flex flex-wrap justify-center gap-4 print:hidden">
            <button
              type="button"
              onClick={() => window.print()}
              className="rounded-xl border-2 border-slate-800 bg-white px-8 py-4 text-2xl font-bold text-slate-900 hover:bg-slate-100 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-300"
            >
              {t("print")}
            </button>
            <button
              ref={nextOrderRef}
              type="button"
              onClick={() => setDismissed(ticket.orderId)}
              className="rounded-xl bg-blue-700 px-8 py-4 text-2xl font-bold text-white hover:bg-blue-800 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-300"
            >
              {t("nextOrder")}
            </button>
          </div>
        </div>
        <div className="mx-auto rounded-md shadow-lg ring-1 ring-slate-300 print:hidden">
          <Ticket ticket={ticket} paper={paper} />
        </div>
      </section>
    );
  }

  const error = state && !state.ok ? state.error : null;

  return (
    <form
      ref={formRef}
      onSubmit={submit}
      className={hasMenu ? "grid items-start gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]" : ""}
      aria-describedby={error ? "order-error" : undefined}
    >
      <input type="hidden" name="tenant" value={slug} />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      {hasMenu ? <MenuPad menu={menu} picked={picked} onPick={setPicked} /> : null}

      <div className="space-y-6">
        {hasMenu ? <PickedList menu={menu} picked={picked} onChange={setPicked} /> : null}
        <fieldset className="space-y-3">
          <legend className="mb-2 text-2xl font-bold">{hasMenu ? t("otherItems") : t("items")}</legend>
          {rows.map((row, i) => (
            <div key={row.id} className={`flex flex-wrap items-end gap-3 rounded-xl border border-slate-200 bg-white p-3 ${hasMenu ? "" : "sm:flex-nowrap"}`}>
              <div className="min-w-0 flex-1 basis-full sm:basis-auto">
                <label htmlFor={`item-name-${row.id}`} className="mb-1 block text-base font-semibold text-slate-700">
                  {t("item", { n: i + 1 })}
                </label>
                <input
                  id={`item-name-${row.id}`}
                  name="itemName"
                  data-testid={`item-name-${i}`}
                  // The cashier types the next order at once: on opening the kiosk and after "Next order".
                  autoFocus={i === 0}
                  value={row.name}
                  onChange={(e) => update(row.id, { name: e.target.value })}
                  maxLength={ORDER_LIMITS.itemName}
                  autoComplete="off"
                  placeholder={t("itemPlaceholder")}
                  className="w-full rounded-lg border-2 border-slate-400 px-4 py-3 text-2xl focus:border-blue-700 focus:outline-none focus:ring-4 focus:ring-blue-200"
                />
              </div>
              <div>
                <label htmlFor={`item-qty-${row.id}`} className="mb-1 block text-base font-semibold text-slate-700">
                  {t("quantity")}
                </label>
                <div className="flex items-stretch">
                  <button
                    type="button"
                    onClick={() => stepQty(row, -1)}
                    aria-label={t("less", { n: i + 1 })}
                    className="rounded-l-lg border-2 border-r-0 border-slate-400 bg-slate-100 px-4 text-2xl font-bold hover:bg-slate-200"
                  >
                    −
                  </button>
                  <input
                    id={`item-qty-${row.id}`}
                    name="itemQty"
                    type="number"
                    inputMode="numeric"
                    min={1}
                    max={ORDER_LIMITS.qty}
                    step={1}
                    value={row.qty}
                    onChange={(e) => update(row.id, { qty: e.target.value })}
                    className="w-20 border-2 border-slate-400 px-2 py-3 text-center text-2xl tabular-nums focus:border-blue-700 focus:outline-none focus:ring-4 focus:ring-blue-200"
                  />
                  <button
                    type="button"
                    onClick={() => stepQty(row, 1)}
                    aria-label={t("more", { n: i + 1 })}
                    className="rounded-r-lg border-2 border-l-0 border-slate-400 bg-slate-100 px-4 text-2xl font-bold hover:bg-slate-200"
                  >
                    +
                  </button>
                </div>
              </div>
              <button
                type="button"
                onClick={() => removeRow(row.id)}
                aria-label={t("removeLabel", { n: i + 1 })}
                className="rounded-lg border-2 border-slate-300 px-4 py-3 text-lg font-semibold text-slate-700 hover:border-red-600 hover:text-red-700"
              >
                {t("remove")}
              </button>
            </div>
          ))}
          <button
            type="button"
            onClick={addRow}
            className="rounded-xl border-2 border-dashed border-blue-700 px-6 py-3 text-xl font-semibold text-blue-800 hover:bg-blue-50"
          >
            {t("addItem")}
          </button>
        </fieldset>

        <div>
          <label htmlFor="order-note" className="mb-1 block text-xl font-bold">
            {t("note")} <span className="font-normal text-slate-600">{t("optional")}</span>
          </label>
          <textarea
            id="order-note"
            name="note"
            rows={2}
            maxLength={ORDER_LIMITS.note}
            value={note}
            onChange={(e) => setNote(e.target.value)}
            placeholder={t("notePlaceholder")}
            className="w-full rounded-lg border-2 border-slate-400 px-4 py-3 text-xl focus:border-blue-700 focus:outline-none focus:ring-4 focus:ring-blue-200"
          />
        </div>

        <FormError id="order-error" message={error} className="px-4 py-3 text-xl" />

        {/* With the menu beside it the column is long: the button stays in view at the bottom. */}
        <div className={hasMenu ? "sticky bottom-0 bg-slate-50 pt-2 pb-3" : ""}>
          <button
            type="submit"
            disabled={pending}
            className="w-full rounded-2xl bg-emerald-700 px-8 py-6 text-3xl font-extrabold text-white hover:bg-emerald-800 focus:outline-none focus-visible:ring-4 focus-visible:ring-emerald-300 disabled:cursor-wait disabled:bg-emerald-600/70"
          >
            {pending ? t("taking") : t("takeOrder")}
          </button>
        </div>

        {lastTicket ? (
          <div className="flex flex-wrap items-center gap-4 border-t border-slate-200 pt-4">
            <button
              type="button"
              onClick={() => window.print()}
              data-testid="reprint"
              className="rounded-xl border-2 border-slate-700 bg-white px-6 py-3 text-xl font-bold text-slate-900 hover:bg-slate-100 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-300"
            >
              {t("reprint")}
            </button>
            <span className="text-lg text-slate-700">{t("reprintHint", { number: lastTicket.number, time: lastTicket.time })}</span>
          </div>
        ) : null}
      </div>
    </form>
  );
}
