"use client";

/**
 * One column of the board (Preparing or Ready): its heading in words, and its numbers in
 * the largest grid that fits. Ready numbers stand in a bold outlined box, so the two
 * columns differ by shape and words, not by colour alone; a number of an earlier shift
 * carries its shift ("S1" / "班1"), one of an earlier day its date ("24 Nov" / "11月24日"),
 * a take-away order a bag in the opposite corner (its customer looks for a bag at the counter).
 */
import { useEffect, useRef, useState, type CSSProperties } from "react";
import { useLocale, useTranslations } from "next-intl";
import { earlierThan } from "@/lib/core/board";
import { formatShortDay } from "@/app/_lib/format";
import type { BoardOrder } from "@/lib/core/orders";
import { Icon } from "@/app/_components/icon";
import { capacityFor, CELL, fallbackSize, fitGrid, textWidth } from "./fit-grid";

export interface ColumnProps {
  kind: "preparing" | "ready";
  orders: BoardOrder[];
  /** The board's business day and shift: orders of earlier ones are marked. */
  current: { businessDay: string; shift: number };
  /** key → how many times it was called: a new value restarts the highlight. */
  highlighted: ReadonlyMap<string, number>;
}

/** Ready numbers are boxed by a border (not a ring: the highlight animates box-shadow). */
const STYLE = {
  preparing: { section: "border-r-4 border-slate-600 bg-slate-900", heading: "bg-slate-800 text-amber-300", number: "text-slate-100" },
  ready: {
    section: "bg-emerald-950",
    heading: "bg-emerald-700 text-white",
    number: "text-white bg-emerald-800 border-[0.06em] border-solid border-white",
  },
} as const;

function useBox() {
  const ref = useRef<HTMLDivElement>(null);
  const [box, setBox] = useState<{ width: number; height: number } | null>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      const cs = getComputedStyle(el);
      const width = el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
      const height = el.clientHeight - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom);
      setBox((b) => (b && b.width === width && b.height === height ? b : { width, height }));
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [ref, box] as const;
}

export function BoardColumn({ kind, orders, current, highlighted }: ColumnProps) {
  const t = useTranslations("board");
  const locale = useLocale();
  const [area, box] = useBox();
  const style = STYLE[kind];
  const headingId = `${kind}-heading`;
  // Every cell as wide as the widest number shown ("K123" with a series' prefix, decision 0027).
  const text = Math.max(...orders.map((o) => textWidth(o.display)), textWidth(""));
  // Ready numbers may grow to about half the column's height; preparing ones stay smaller.
  const grid = box ? fitGrid(box.width, box.height, capacityFor(orders.length), text, box.height * (kind === "ready" ? 0.45 : 0.28)) : null;
  // A fixed box per number (border included), so the grid fitGrid computed is the grid drawn.
  const cellSize: CSSProperties = { width: `${text + CELL.padX}em`, height: `${CELL.line}em`, boxSizing: "border-box" };
  const gap = { columnGap: `${CELL.gapX}em`, rowGap: `${CELL.gapY}em` };
  const listStyle: CSSProperties = grid
    ? { fontSize: `${grid.fontSize}px`, display: "grid", gridTemplateColumns: `repeat(${grid.cols}, ${text + CELL.padX}em)`, ...gap }
    : // Until the column is measured (the server's render, the first frame): laid out but not
      // shown, so the switch to the fitted grid moves nothing anyone saw (no layout shift).
      { fontSize: fallbackSize(orders.length, kind), display: "flex", flexWrap: "wrap", visibility: "hidden", ...gap };
  return (
    <section aria-labelledby={headingId} data-testid={kind} className={`flex min-h-0 flex-col ${style.section}`}>
      <h2 id={headingId} className={`px-[2vw] py-[1.5vh] text-[min(4.5vw,7.5vh)] leading-tight font-extrabold tracking-wide uppercase ${style.heading}`}>
        {t(kind)}
        <span className="sr-only"> ({t("count", { count: orders.length })})</span>
      </h2>
      <div ref={area} aria-live="polite" aria-atomic="false" aria-relevant="additions text" className="min-h-0 flex-1 overflow-hidden p-[1.5vw]">
        {orders.length === 0 ? (
          <p className="pt-[4vh] text-center text-[min(2.4vw,4vh)] text-slate-300">{t(kind === "ready" ? "emptyReady" : "emptyPreparing")}</p>
        ) : (
          <ul className="content-start" style={listStyle}>
            {orders.map((o) => {
              const calls = highlighted.get(o.key);
              const earlier = earlierThan(o, current);
              const date = earlier === "day" ? formatShortDay(o.businessDay, locale) : "";
              return (
                <li
                  key={calls ? `${o.key}#${calls}` : o.key}
                  data-testid="board-number"
                  data-number={o.number}
                  data-display={o.display}
                  data-shift={o.shift}
                  data-service={o.service ?? undefined}
                  style={cellSize}
                  className={`relative flex items-center justify-center rounded-[0.12em] leading-none font-black tabular-nums ${style.number} ${calls ? "animate-ready-flash" : ""}`}
                >
                  {o.display}
                  {earlier && (
                    <span
                      data-testid="shift-tag"
                      // A date is wider than "S1": smaller, so it stays in the corner and off the digits.
                      className={`absolute top-[0.06em] right-[0.08em] rounded-[0.15em] border-[0.04em] border-black bg-amber-300 px-[0.25em] leading-[1.35] font-extrabold whitespace-nowrap text-black ${earlier === "day" ? "text-[0.13em]" : "text-[0.2em]"}`}
                    >
                      <span aria-hidden="true">{earlier === "day" ? date : t("shiftTag", { shift: o.shift })}</span>
                      <span className="sr-only">, {earlier === "day" ? t("dayLabel", { date }) : t("shiftLabel", { shift: o.shift })}</span>
                    </span>
                  )}
                  {o.service === "takeAway" ? (
                    <span
                      data-testid="take-away-tag"
                      className="absolute bottom-[0.06em] left-[0.06em] flex rounded-[0.15em] border-[0.03em] border-black bg-orange-500 p-[0.03em] text-black"
                    >
                      <Icon name="takeAway" className="size-[0.24em]" />
                      <span className="sr-only">, {t("takeAwayLabel")}</span>
                    </span>
                  ) : null}
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </section>
  );
}
