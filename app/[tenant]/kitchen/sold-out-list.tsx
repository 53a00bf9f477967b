"use client";

import { useTranslations } from "next-intl";
import { Icon } from "@/app/_components/icon";
import type { SoldOutCategory, SoldOutDish } from "./sold-out-actions";

const DISH =
  "flex min-h-11 w-full items-center justify-between gap-2 rounded-lg border-2 px-2 py-1 text-left focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-500 focus-visible:ring-offset-1 aria-busy:cursor-wait aria-busy:opacity-60";
const AVAILABLE = `${DISH} border-slate-300 bg-white text-slate-900 hover:border-slate-500 hover:bg-slate-50`;
const SOLD_OUT = `${DISH} border-red-700 bg-red-50 text-red-950 hover:bg-red-100`;

/**
 * The menu in newspaper columns, category by category: a 40-dish menu fits a 1280×800
 * kitchen screen without scrolling. Each dish is a toggle button (pressed: sold out) whose
 * name says its state too ("Dumplings Sold out").
 */
export function SoldOutList({ menu, busy, onFlip }: { menu: SoldOutCategory[]; busy: ReadonlySet<string>; onFlip: (d: SoldOutDish) => void }) {
  const t = useTranslations("kitchen.soldOut");
  return (
    <div className="min-h-0 flex-1 overflow-y-auto p-3">
      <div className="columns-[14rem] gap-4">
        {menu.map((c) => (
          <section key={c.id} aria-labelledby={`sold-out-cat-${c.id}`} className="mb-3">
            <h3 id={`sold-out-cat-${c.id}`} className="mb-1 break-after-avoid text-base font-bold tracking-wide text-slate-700 uppercase">
              {c.name}
            </h3>
            <ul className="space-y-1.5">
              {c.dishes.map((d) => (
                <li key={d.id} className="break-inside-avoid">
                  <button
                    type="button"
                    aria-pressed={!d.available}
                    aria-busy={busy.has(d.id)}
                    data-testid="sold-out-dish"
                    data-available={d.available}
                    onClick={() => onFlip(d)}
                    className={d.available ? AVAILABLE : SOLD_OUT}
                  >
                    <span className="min-w-0 text-base leading-tight font-semibold break-words">{d.name}</span>
                    {d.available ? (
                      <span className="shrink-0 rounded-md border border-emerald-700 px-1.5 text-sm font-semibold text-emerald-800">{t("available")}</span>
                    ) : (
                      <span className="inline-flex shrink-0 items-center gap-1 rounded-md bg-red-700 px-1.5 text-sm font-bold text-white">
                        <Icon name="ban" />
                        {t("soldOut")}
                      </span>
                    )}
                  </button>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </div>
  );
}
