"use client";

import { useLocale, useTranslations } from "next-intl";
import type { MenuItem, MenuSection } from "@/lib/core/menu";
import { formatMoney } from "@/lib/core/money";
import { ORDER_LIMITS } from "@/lib/core/orders";

/** A menu line of the order being taken: the item's id, its name when tapped, how many. */
export interface Picked {
  id: string;
  name: string;
  qty: number;
}

/** Adds one of `item` (a new line, or one more on its line). */
export function addOne(picked: readonly Picked[], item: Pick<MenuItem, "id" | "name">): Picked[] {
  const line = picked.find((p) => p.id === item.id);
  if (!line) return [...picked, { id: item.id, name: item.name, qty: 1 }];
  return picked.map((p) => (p.id === item.id ? { ...p, qty: Math.min(ORDER_LIMITS.qty, p.qty + 1) } : p));
}

/**
 * The menu as big buttons, by category: a tap adds one. Sold-out items stay in place,
 * disabled and marked, so the cashier can tell a customer at once.
 */
export function MenuPad({
  menu,
  currency,
  picked,
  onPick,
}: {
  menu: MenuSection[];
  /** The restaurant's currency (ISO 4217); null: prices without a symbol. */
  currency: string | null;
  picked: Picked[];
  onPick: (next: Picked[]) => void;
}) {
  const t = useTranslations("kiosk");
  const locale = useLocale();
  const count = new Map(picked.map((p) => [p.id, p.qty]));
  return (
    <section aria-labelledby="menu-heading" data-testid="menu-pad" className="space-y-4">
      <h2 id="menu-heading" className="text-2xl font-bold">
        {t("menu")} <span className="text-lg font-normal text-slate-600">· {t("menuHint")}</span>
      </h2>
      {menu.map((section) => (
        <div key={section.id} role="group" aria-labelledby={`menu-cat-${section.id}`}>
          <h3 id={`menu-cat-${section.id}`} className="mb-2 text-lg font-bold text-slate-700 uppercase">
            {section.name}
          </h3>
          <ul className="grid grid-cols-[repeat(auto-fill,minmax(8.5rem,1fr))] gap-2">
            {section.items.map((item) => {
              const n = count.get(item.id) ?? 0;
              return (
                <li key={item.id}>
                  <button
                    type="button"
                    data-testid="menu-button"
                    disabled={!item.available}
                    onClick={() => onPick(addOne(picked, item))}
                    className="flex min-h-[4.75rem] w-full flex-col items-start justify-center rounded-xl border-2 border-blue-700 bg-blue-50 px-3 py-2 text-left hover:bg-blue-100 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-300 active:bg-blue-200 disabled:cursor-not-allowed disabled:border-slate-300 disabled:bg-slate-100 disabled:text-slate-500"
                  >
                    <span className="text-lg leading-tight font-bold break-words">{item.name}</span>
                    {/* Price (or Sold out) and how many are in the order share the bottom line, under the name. */}
                    <span className="flex w-full items-center justify-between gap-1">
                      {item.available ? (
                        <span className="text-base text-slate-700 tabular-nums">
                          {item.priceCents !== null ? formatMoney(item.priceCents, locale, currency) : ""}
                        </span>
                      ) : (
                        <span className="text-base font-semibold text-slate-700">{t("soldOut")}</span>
                      )}
                      {n > 0 ? (
                        <span className="rounded-full bg-blue-700 px-2 text-base font-bold text-white tabular-nums">
                          <span aria-hidden>×{n}</span>
                          <span className="sr-only">{t("inOrder", { count: n })}</span>
                        </span>
                      ) : null}
                    </span>
                  </button>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </section>
  );
}

/** The menu lines of this order, each with − / + and its quantity; sent as menuItemId/menuQty. */
export function PickedList({ menu, picked, onChange }: { menu: MenuSection[]; picked: Picked[]; onChange: (next: Picked[]) => void }) {
  const t = useTranslations("kiosk");
  const items = new Map(menu.flatMap((s) => s.items.map((i) => [i.id, i] as const)));
  const step = (id: string, delta: number) =>
    onChange(picked.flatMap((p) => (p.id !== id ? [p] : p.qty + delta < 1 ? [] : [{ ...p, qty: Math.min(ORDER_LIMITS.qty, p.qty + delta) }])));
  return (
    <section aria-labelledby="order-list-heading" data-testid="order-list">
      <h2 id="order-list-heading" className="mb-2 text-2xl font-bold">
        {t("orderList")}
      </h2>
      {picked.length === 0 ? (
        <p className="text-lg text-slate-600">{t("orderEmpty")}</p>
      ) : (
        <ul className="space-y-2">
          {picked.map((p) => {
            const now = items.get(p.id);
            const gone = !now || !now.available;
            return (
              <li
                key={p.id}
                data-testid="order-line"
                className={`flex items-center gap-2 rounded-xl border-2 bg-white p-2 ${gone ? "border-red-700" : "border-slate-200"}`}
              >
                <input type="hidden" name="menuItemId" value={p.id} />
                <input type="hidden" name="menuQty" value={p.qty} />
                <span className="min-w-0 flex-1 text-xl font-semibold break-words">
                  {now?.name ?? p.name}
                  {gone ? <span className="ml-2 text-base font-bold text-red-800">{t("soldOut")}</span> : null}
                </span>
                <button
                  type="button"
                  onClick={() => step(p.id, -1)}
                  aria-label={t("lessOf", { name: p.name })}
                  className="size-12 rounded-lg border-2 border-slate-400 bg-slate-100 text-2xl font-bold hover:bg-slate-200 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-300"
                >
                  −
                </button>
                <output aria-label={t("qtyOf", { name: p.name })} data-testid="order-line-qty" className="w-10 text-center text-2xl font-bold tabular-nums">
                  {p.qty}
                </output>
                <button
                  type="button"
                  onClick={() => step(p.id, 1)}
                  aria-label={t("moreOf", { name: p.name })}
                  className="size-12 rounded-lg border-2 border-slate-400 bg-slate-100 text-2xl font-bold hover:bg-slate-200 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-300"
                >
                  +
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
