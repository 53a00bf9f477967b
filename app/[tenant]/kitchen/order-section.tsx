"use client";

import type { ReactNode } from "react";

/**
 * One pile of orders on the kitchen screen: a heading with its count, the tickets or rows,
 * or a calm "nothing here". The pile scrolls inside itself: the page never does.
 */
export function OrderSection({
  id,
  title,
  count,
  empty,
  hint,
  action,
  children,
  layout,
  tone = "default",
  className = "",
}: {
  id: string;
  title: string;
  count: number;
  empty: string;
  hint?: string;
  /** A control beside the heading (the grid's "All day"). */
  action?: ReactNode;
  children: ReactNode;
  layout: "grid" | "rows";
  tone?: "default" | "muted";
  className?: string;
}) {
  const grid = layout === "grid";
  return (
    <section aria-labelledby={id} data-testid={id} className={`flex min-h-0 flex-col ${className}`}>
      <div className="mb-0.5 flex flex-wrap items-center gap-x-3">
        <h2 id={id} className={`${grid ? "text-xl" : "text-lg leading-tight"} font-bold ${tone === "muted" ? "text-slate-700" : ""}`}>
          {title} <span className="text-slate-600">({count})</span>
        </h2>
        {hint ? <p className="text-sm leading-tight text-slate-600">{hint}</p> : null}
        {action ? <div className="ml-auto">{action}</div> : null}
      </div>
      {count === 0 ? (
        <p className={`rounded-xl border-2 border-dashed border-slate-300 px-3 py-2 text-slate-600 ${grid ? "text-lg" : "text-base"}`}>{empty}</p>
      ) : (
        <div
          data-scroll
          className={
            grid
              ? // Room around each ticket for the selection outline. Rows as tall as their tallest ticket
                // (max-content): a ticket a long note made taller pushes the row below down, never over it.
                "grid min-h-0 auto-rows-max grid-cols-[repeat(auto-fill,minmax(10.5rem,1fr))] content-start 2xl:grid-cols-[repeat(auto-fill,minmax(12.5rem,1fr))] gap-2 overflow-y-auto p-1.5"
              : "min-h-0 space-y-1.5 overflow-y-auto p-1"
          }
        >
          {children}
        </div>
      )}
    </section>
  );
}
