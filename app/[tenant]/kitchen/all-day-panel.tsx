"use client";

import { useTranslations } from "next-intl";
import type { AllDayLine } from "@/lib/core/all-day";

/** "All day" as on a KDS: each dish still to prepare, summed over every open order. */
export function AllDayPanel({ id, lines }: { id: string; lines: AllDayLine[] }) {
  const t = useTranslations("kitchen.allDay");
  return (
    <section id={id} aria-labelledby={`${id}-title`} data-testid="all-day" className="flex min-h-0 flex-col rounded-xl border-2 border-slate-800 bg-white">
      <div className="border-b-2 border-slate-200 px-2 py-1">
        <h2 id={`${id}-title`} className="text-lg leading-tight font-bold">
          {t("title")}
        </h2>
        <p className="text-sm text-slate-600">{t("hint")}</p>
      </div>
      {lines.length === 0 ? (
        <p className="p-2 text-base text-slate-600">{t("empty")}</p>
      ) : (
        <ul className="min-h-0 divide-y divide-slate-200 overflow-y-auto">
          {lines.map((line) => (
            <li key={line.name} data-testid="all-day-line" className="flex items-baseline gap-2 px-2 py-1 text-base font-semibold">
              <span data-testid="all-day-qty" className="w-10 shrink-0 text-right text-2xl font-black tabular-nums">
                {line.qty}
              </span>
              <span className="min-w-0 break-words break-keep">{line.name}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
