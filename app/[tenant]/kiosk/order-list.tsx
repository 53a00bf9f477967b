"use client";

import { useLocale, useTranslations } from "next-intl";
import { lineLabel } from "@/lib/core/menu-options";
import { formatMoney } from "@/lib/core/money";
import { dishesById, lineKey, lineState, stepLine, type KioskSection, type Picked } from "./kiosk-lines";

const stepClass =
  "size-12 rounded-lg border-2 border-slate-400 bg-slate-100 text-2xl font-bold hover:bg-slate-200 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-300";

/**
 * The menu lines of this order: each as the kitchen reads it ("Beef noodles · Large"), its
 * note and price, Edit (options, note, quantity) and − / +. Sent as menuItemId, menuQty,
 * menuOptions (the options' ids) and menuNote, one each per line.
 */
export function OrderList({
  menu,
  currency,
  picked,
  onChange,
  onEdit,
}: {
  menu: KioskSection[];
  currency: string | null;
  picked: Picked[];
  onChange: (next: Picked[]) => void;
  /** Opens line `index` in the options dialog. */
  onEdit: (index: number) => void;
}) {
  const t = useTranslations("kiosk");
  const locale = useLocale();
  const dishes = dishesById(menu);
  return (
    <section aria-labelledby="order-list-heading" data-testid="order-list">
      <h2 id="order-list-heading" className="mb-2 text-2xl font-bold">
        {t("orderList")}
      </h2>
      {picked.length === 0 ? (
        <p className="text-lg text-slate-600">{t("orderEmpty")}</p>
      ) : (
        <ul className="space-y-2">
          {picked.map((p, index) => {
            const dish = dishes.get(p.id);
            const state = lineState(dish, p);
            const label = lineLabel({ name: dish?.name ?? p.name, options: state.options });
            return (
              <li
                key={lineKey(p)}
                data-testid="order-line"
                className={`rounded-xl border-2 bg-white p-2 ${state.problem ? "border-red-700" : "border-slate-200"}`}
              >
                <input type="hidden" name="menuItemId" value={p.id} />
                <input type="hidden" name="menuQty" value={p.qty} />
                <input type="hidden" name="menuOptions" value={p.options.length ? JSON.stringify(p.options.map((o) => o.id)) : ""} />
                <input type="hidden" name="menuNote" value={p.note} />
                <div className="flex items-start gap-2">
                  <div className="min-w-0 flex-1">
                    <p data-testid="order-line-label" className="text-xl leading-tight font-semibold break-words">
                      {label}
                    </p>
                    {p.note ? (
                      <p data-testid="order-line-note" className="text-lg break-words text-slate-700">
                        {t("lineNote", { note: p.note })}
                      </p>
                    ) : null}
                    {state.problem ? (
                      <p className="text-base font-bold text-red-800">{state.problem === "soldOut" ? t("soldOut") : t("optionsChanged")}</p>
                    ) : null}
                  </div>
                  {state.unitCents !== null ? (
                    <span data-testid="order-line-price" className="text-lg font-semibold tabular-nums">
                      {formatMoney(state.unitCents * p.qty, locale, currency)}
                    </span>
                  ) : null}
                </div>
                <div className="mt-1 flex items-center justify-between gap-2">
                  {state.problem === "soldOut" ? (
                    <span />
                  ) : (
                    <button
                      type="button"
                      onClick={() => onEdit(index)}
                      aria-haspopup="dialog"
                      aria-label={t("editLabel", { name: label })}
                      className="h-12 rounded-lg border-2 border-blue-700 px-4 text-lg font-semibold text-blue-900 hover:bg-blue-50 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-300"
                    >
                      {t("edit")}
                    </button>
                  )}
                  <div className="flex items-center gap-2">
                    <button type="button" onClick={() => onChange(stepLine(picked, index, -1))} aria-label={t("lessOf", { name: label })} className={stepClass}>
                      −
                    </button>
                    <output aria-label={t("qtyOf", { name: label })} data-testid="order-line-qty" className="w-10 text-center text-2xl font-bold tabular-nums">
                      {p.qty}
                    </output>
                    <button type="button" onClick={() => onChange(stepLine(picked, index, 1))} aria-label={t("moreOf", { name: label })} className={stepClass}>
                      +
                    </button>
                  </div>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
