"use client";

import { useLocale, useTranslations } from "next-intl";
import { formatMoney } from "@/lib/core/money";
import type { KioskDish, KioskSection, Picked } from "./kiosk-lines";

/**
 * The menu as big buttons, by category: a tap adds one, or opens the dish's options when it
 * has some. Sold-out items stay in place, disabled and marked, so the cashier can tell a
 * customer at once.
 */
export function MenuPad({
  menu,
  currency,
  picked,
  onTap,
}: {
  menu: KioskSection[];
  /** The restaurant's currency (ISO 4217); null: prices without a symbol. */
  currency: string | null;
  picked: Picked[];
  onTap: (dish: KioskDish) => void;
}) {
  const t = useTranslations("kiosk");
  const locale = useLocale();
  // How many of a dish the order has, whatever its options.
  const count = new Map<string, number>();
  for (const p of picked) count.set(p.id, (count.get(p.id) ?? 0) + p.qty);
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
                    aria-haspopup={item.groups.length > 0 ? "dialog" : undefined}
                    onClick={() => onTap(item)}
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
