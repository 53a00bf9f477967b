"use client";

import type { ReactNode } from "react";
import { useTranslations } from "next-intl";

const KEY =
  "inline-flex h-6 min-w-6 items-center justify-center rounded border border-b-2 border-slate-500 bg-white px-1 font-mono text-sm font-bold text-slate-900";

/** A key as printed on a keycap; `hidden` when a control's own name or aria-keyshortcuts says it. */
export function Kbd({ children, hidden = false }: { children: ReactNode; hidden?: boolean }) {
  return (
    <kbd aria-hidden={hidden || undefined} className={KEY}>
      {children}
    </kbd>
  );
}

/** The keyboard as a bump bar, said on screen: a cook learns it by looking, not from a manual. `station`: Enter marks the station's part done. */
export function KeyLegend({ station = false }: { station?: boolean }) {
  const t = useTranslations("kitchen.keys");
  const rows: [string[], string][] = [
    [["12", "⏎"], t("typed")],
    [["←", "→", "↑", "↓"], t("select")],
    [["⏎"], station ? t("done") : t("bump")],
    [["Esc"], t("clear")],
  ];
  return (
    <section aria-label={t("title")} data-testid="key-legend" className="text-sm text-slate-700">
      <ul className="flex flex-wrap items-center justify-end gap-x-3 gap-y-0.5">
        {rows.map(([keys, what]) => (
          <li key={what} className="flex items-center gap-1.5">
            <span className="flex gap-0.5">
              {keys.map((k) => (
                <Kbd key={k}>{k}</Kbd>
              ))}
            </span>
            <span>{what}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
