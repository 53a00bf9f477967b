"use client";

import { useTranslations } from "next-intl";
import { displayNumber } from "@/lib/core/series";
import { skipList, skipPlan, type SeriesOpenNumbers } from "@/lib/core/shift-skips";

/**
 * Where the numbers go after a new shift: per series, the next number and the open ones it
 * will skip ("Next number 2; 1, 3–5 are still open and will be skipped"), or that numbering
 * starts again from the first. `clearing`: the open orders go, so nothing is skipped.
 */
export function ShiftSkips({
  series,
  firstNumber,
  clearing,
  className,
}: {
  series: SeriesOpenNumbers[];
  firstNumber: number;
  clearing: boolean;
  className?: string;
}) {
  const t = useTranslations("manager.newShift");
  const lines = series.map((s) => {
    const start = s.isDefault ? firstNumber : s.first;
    const plan = skipPlan(s, start, new Set(clearing ? [] : s.open));
    const show = (n: number) => displayNumber(s.prefix, n);
    let text: string;
    if (plan.next === null) text = t("skipsFull", { first: show(s.first), last: show(s.last ?? s.first) });
    else if (plan.skipped.length === 0) text = t("skipsNone", { first: show(start) });
    else {
      const { list, more, count } = skipList(s.prefix, plan.skipped, { separator: t("listSeparator") });
      text = t("skipsSome", { next: show(plan.next), list: more > 0 ? t("skipListMore", { list, more }) : list, count });
    }
    return { key: s.name, text: series.length > 1 ? t("skipsSeries", { series: s.name, text }) : text };
  });
  if (lines.length === 0) return null;
  if (lines.length === 1) {
    return (
      <p data-testid="shift-skips" className={className}>
        {lines[0]!.text}
      </p>
    );
  }
  return (
    <ul data-testid="shift-skips" className={`list-disc pl-6 ${className ?? ""}`}>
      {lines.map((l) => (
        <li key={l.key}>{l.text}</li>
      ))}
    </ul>
  );
}
