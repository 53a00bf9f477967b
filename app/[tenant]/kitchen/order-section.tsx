"use client";

import type { ReactNode } from "react";

/** One pile of orders on the kitchen screen: a heading with its count, the cards, or a calm "nothing here". */
export function OrderSection({
  id,
  title,
  count,
  empty,
  hint,
  children,
  layout,
  tone = "default",
}: {
  id: string;
  title: string;
  count: number;
  empty: string;
  hint?: string;
  children: ReactNode;
  layout: "grid" | "rows";
  tone?: "default" | "muted";
}) {
  return (
    <section aria-labelledby={id} data-testid={id}>
      <div className="mb-1.5 flex flex-wrap items-baseline gap-x-3">
        <h2 id={id} className={`text-xl font-bold ${tone === "muted" ? "text-slate-700" : ""}`}>
          {title} <span className="text-slate-600">({count})</span>
        </h2>
        {hint ? <p className="text-base text-slate-600">{hint}</p> : null}
      </div>
      {count === 0 ? (
        <p className="rounded-xl border-2 border-dashed border-slate-300 px-4 py-3 text-lg text-slate-600">{empty}</p>
      ) : (
        <div className={layout === "grid" ? "grid grid-cols-4 gap-3" : "space-y-2"}>{children}</div>
      )}
    </section>
  );
}
