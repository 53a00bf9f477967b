"use client";

import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { useTranslations } from "next-intl";
import { ORDER_LIMITS } from "@/lib/core/orders";

export interface Row {
  id: number;
  name: string;
  qty: string;
  /** The cook's note for this line; "" for none. */
  note: string;
}

/**
 * The free-text lines: a name and a quantity each, and a note behind a small "Note" button.
 * Enter in a name adds a line after it (or moves to the next empty one) and puts the cursor
 * there: Enter never takes the order.
 */
export function ItemRows({
  rows,
  onChange,
  newRow,
  legend,
  wide,
  example,
}: {
  rows: Row[];
  onChange: (next: Row[]) => void;
  newRow: () => Row;
  legend: string;
  /** No menu beside the lines: a row fits on one line. */
  wide: boolean;
  /** A dish of the restaurant's own menu the name field suggests; null: no suggestion. */
  example: string | null;
}) {
  const t = useTranslations("kiosk");
  const ref = useRef<HTMLFieldSetElement>(null);
  const focusRow = useRef<number | null>(null);
  // Rows whose note field is open: those with a note, and those whose "Note" was just pressed.
  const [noting, setNoting] = useState<ReadonlySet<number>>(new Set());
  const focusNote = useRef<number | null>(null);
  useEffect(() => {
    if (focusNote.current == null) return;
    ref.current?.querySelector<HTMLInputElement>(`#item-note-${focusNote.current}`)?.focus();
    focusNote.current = null;
  }, [noting]);

  useEffect(() => {
    if (focusRow.current == null) return;
    ref.current?.querySelector<HTMLInputElement>(`#item-name-${focusRow.current}`)?.focus();
    focusRow.current = null;
  }, [rows]);

  const update = (id: number, patch: Partial<Row>) => onChange(rows.map((r) => (r.id === id ? { ...r, ...patch } : r)));
  const addAfter = (index: number) => {
    const next = rows[index + 1];
    if (next && !next.name.trim()) {
      ref.current?.querySelector<HTMLInputElement>(`#item-name-${next.id}`)?.focus();
      return;
    }
    const row = newRow();
    focusRow.current = row.id;
    onChange([...rows.slice(0, index + 1), row, ...rows.slice(index + 1)]);
  };
  const remove = (id: number) => onChange(rows.length === 1 ? [newRow()] : rows.filter((r) => r.id !== id));
  const stepQty = (row: Row, delta: number) => {
    const current = Number.parseInt(row.qty, 10);
    const next = Math.min(ORDER_LIMITS.qty, Math.max(1, (Number.isFinite(current) ? current : 1) + delta));
    update(row.id, { qty: String(next) });
  };
  const onNameKey = (e: KeyboardEvent<HTMLInputElement>, index: number) => {
    // Enter that confirms an input method's candidate (Chinese, Japanese) is not ours.
    if (e.key !== "Enter" || e.ctrlKey || e.metaKey || e.nativeEvent.isComposing) return;
    e.preventDefault();
    if (e.currentTarget.value.trim()) addAfter(index);
  };

  return (
    <fieldset ref={ref} className="space-y-2">
      <legend className="mb-1 text-2xl font-bold">{legend}</legend>
      {rows.map((row, i) => {
        const noteOpen = row.note !== "" || noting.has(row.id);
        return (
          <div key={row.id} className="rounded-xl border border-slate-200 bg-white p-2">
            <div className={`flex flex-wrap items-end gap-2 ${wide ? "sm:flex-nowrap" : ""}`}>
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
                  onKeyDown={(e) => onNameKey(e, i)}
                  enterKeyHint="next"
                  maxLength={ORDER_LIMITS.itemName}
                  autoComplete="off"
                  placeholder={example === null ? undefined : t("itemPlaceholder", { name: example })}
                  className="w-full rounded-lg border-2 border-slate-400 px-3 py-2 text-2xl focus:border-blue-700 focus:ring-4 focus:ring-blue-200 focus:outline-none"
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
                    className="w-20 border-2 border-slate-400 px-2 py-2 text-center text-2xl tabular-nums focus:border-blue-700 focus:ring-4 focus:ring-blue-200 focus:outline-none"
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
                onClick={() => remove(row.id)}
                aria-label={t("removeLabel", { n: i + 1 })}
                className="rounded-lg border-2 border-slate-300 px-4 py-2 text-lg font-semibold text-slate-700 hover:border-red-600 hover:text-red-700"
              >
                {t("remove")}
              </button>
            </div>
            {noteOpen ? (
              <div className="mt-2 flex items-center gap-2">
                <label htmlFor={`item-note-${row.id}`} className="shrink-0 text-base font-semibold text-slate-700">
                  {t("rowNote", { n: i + 1 })}
                </label>
                <input
                  id={`item-note-${row.id}`}
                  name="itemNote"
                  value={row.note}
                  onChange={(e) => update(row.id, { note: e.target.value })}
                  maxLength={ORDER_LIMITS.lineNote}
                  autoComplete="off"
                  placeholder={t("rowNotePlaceholder")}
                  className="min-w-0 flex-1 rounded-lg border-2 border-slate-300 px-3 py-1.5 text-lg focus:border-blue-700 focus:ring-4 focus:ring-blue-200 focus:outline-none"
                />
              </div>
            ) : (
              <>
                <input type="hidden" name="itemNote" value="" />
                <button
                  type="button"
                  onClick={() => {
                    focusNote.current = row.id;
                    setNoting((now) => new Set(now).add(row.id));
                  }}
                  className="mt-1 rounded-lg px-1 text-base font-semibold text-blue-800 underline underline-offset-4 hover:text-blue-950 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-300"
                >
                  {t("addRowNote")}
                </button>
              </>
            )}
          </div>
        );
      })}
      <button
        type="button"
        onClick={() => addAfter(rows.length - 1)}
        className="rounded-xl border-2 border-dashed border-blue-700 px-5 py-2 text-xl font-semibold text-blue-800 hover:bg-blue-50"
      >
        {t("addItem")}
      </button>
    </fieldset>
  );
}
