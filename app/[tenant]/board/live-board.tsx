"use client";

import { useCallback, useEffect, useRef, useState, type CSSProperties } from "react";
import type { BoardOrder } from "@/lib/core/orders";
import { useBoardSocket } from "@/app/_components/use-board-socket";
import { ConnectionBadge } from "@/app/_components/connection-badge";

export interface BoardData {
  businessDay: string;
  shift: number;
  preparing: BoardOrder[];
  ready: BoardOrder[];
}

/** How long a number that just became ready stays highlighted. */
const HIGHLIGHT_MS = 10_000;
const RESYNC_RETRY_MS = 5_000;
/** A safety net for a TV left on for days: e.g. the business day rolls over with no event. */
const RESYNC_EVERY_MS = 60_000;

/** <0: the event is of an older shift or day; 0: this board's; >0: newer (the board is behind). */
function compareShift(o: { businessDay: string; shift: number }, board: { businessDay: string; shift: number }): number {
  return o.businessDay === board.businessDay ? o.shift - board.shift : o.businessDay < board.businessDay ? -1 : 1;
}

/** Puts `order` in the column its status says (or takes it off the board). */
function applyOrder(board: BoardData, order: BoardOrder): BoardData {
  const preparing = board.preparing.filter((o) => o.id !== order.id);
  const ready = board.ready.filter((o) => o.id !== order.id);
  if (order.status === "PLACED") {
    preparing.push(order);
    preparing.sort((a, b) => a.number - b.number);
  } else if (order.status === "READY") {
    ready.push(order);
    ready.sort((a, b) => (b.readyAt ?? "").localeCompare(a.readyAt ?? "") || b.number - a.number);
  }
  return { ...board, preparing, ready };
}

/** Before the column is measured (server render): size by count, so a busy lunch still fits. */
function fallbackSize(count: number, column: "preparing" | "ready"): string {
  const [vw, vh] = count <= 4 ? [9, 15] : count <= 9 ? [6.5, 11] : count <= 16 ? [5, 8.5] : count <= 30 ? [3.8, 6.5] : [2.8, 4.8];
  const scale = column === "ready" ? 1 : 0.72;
  return `min(${(vw * scale).toFixed(2)}vw, ${(vh * scale).toFixed(2)}vh)`;
}

/** Layout of a number cell, in em of the number's font size: shared by fitGrid and the list's style. */
const CELL = { digit: 0.7, padX: 0.4, gapX: 0.35, line: 1.1, gapY: 0.15 };

/**
 * The largest font size (px) at which `count` numbers of up to `digits` digits fit a box
 * of `width` × `height` as a grid, never above `max`; and how many columns that grid has.
 */
function fitGrid(width: number, height: number, count: number, digits: number, max: number): { fontSize: number; cols: number } {
  const layout = (f: number) => {
    const itemW = f * (digits * CELL.digit + CELL.padX);
    const gapX = f * CELL.gapX;
    const cols = Math.max(1, Math.floor((width + gapX) / (itemW + gapX)));
    const rows = Math.ceil(Math.max(count, 1) / cols);
    return { cols, fits: itemW <= width && rows * f * CELL.line + (rows - 1) * f * CELL.gapY <= height };
  };
  let lo = 6;
  let hi = Math.max(lo, max);
  if (!layout(hi).fits) {
    for (let i = 0; i < 18; i++) {
      const mid = (lo + hi) / 2;
      if (layout(mid).fits) lo = mid;
      else hi = mid;
    }
    hi = lo;
  }
  const fontSize = Math.floor(hi);
  return { fontSize, cols: layout(fontSize).cols };
}

export function LiveBoard({ slug, name, initial }: { slug: string; name: string; initial: BoardData }) {
  const [board, setBoard] = useState<BoardData>(initial);
  const [highlighted, setHighlighted] = useState<ReadonlySet<string>>(() => new Set());
  const [resyncFailed, setResyncFailed] = useState(false);
  const boardRef = useRef(board);
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  const inflight = useRef(false);
  const dirty = useRef(false);
  const retryPending = useRef(false);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    const pending = timers.current;
    return () => {
      mounted.current = false;
      for (const t of pending) clearTimeout(t);
    };
  }, []);

  const later = useCallback((fn: () => void, ms: number) => {
    const t = setTimeout(() => {
      timers.current.delete(t);
      if (mounted.current) fn();
    }, ms);
    timers.current.add(t);
  }, []);

  /** Replaces the board, highlighting numbers that were not ready before. */
  const commit = useCallback(
    (next: BoardData) => {
      const wasReady = new Set(boardRef.current.ready.map((o) => o.id));
      const fresh = next.ready.filter((o) => !wasReady.has(o.id)).map((o) => o.id);
      boardRef.current = next;
      setBoard(next);
      if (fresh.length) {
        setHighlighted((h) => new Set([...h, ...fresh]));
        later(() => {
          setHighlighted((h) => {
            const rest = new Set(h);
            for (const id of fresh) rest.delete(id);
            return rest;
          });
        }, HIGHLIGHT_MS);
      }
    },
    [later],
  );

  /**
   * Fetches the whole board. Events that arrive while a fetch is under way mark it dirty
   * and trigger one more fetch, so the last snapshot always includes them.
   */
  const resync = useCallback(async () => {
    if (inflight.current) {
      dirty.current = true;
      return;
    }
    inflight.current = true;
    try {
      do {
        dirty.current = false;
        const res = await fetch(`/api/v1/orgs/${encodeURIComponent(slug)}/board`, { cache: "no-store", headers: { accept: "application/json" } });
        if (!res.ok) throw new Error(`Board request failed with ${res.status}`);
        const data = (await res.json()) as BoardData;
        if (!mounted.current) return;
        commit(data);
      } while (dirty.current);
      setResyncFailed(false);
    } catch {
      if (!mounted.current) return;
      setResyncFailed(true);
      if (!retryPending.current) {
        retryPending.current = true;
        later(() => {
          retryPending.current = false;
          void resync();
        }, RESYNC_RETRY_MS);
      }
    } finally {
      inflight.current = false;
    }
  }, [slug, commit, later]);

  const onOrder = useCallback(
    (order: BoardOrder) => {
      if (inflight.current) dirty.current = true;
      const cmp = compareShift(order, boardRef.current);
      if (cmp < 0) return; // an order of an earlier shift: not on this board
      if (cmp > 0) {
        void resync(); // a shift we have not seen yet: catch up
        return;
      }
      commit(applyOrder(boardRef.current, order));
    },
    [commit, resync],
  );

  const connection = useBoardSocket(slug, {
    onConnect: () => void resync(),
    onOrderCreated: onOrder,
    onOrderUpdated: onOrder,
    onShiftStarted: () => void resync(),
  });

  useEffect(() => {
    const t = setInterval(() => void resync(), RESYNC_EVERY_MS);
    return () => clearInterval(t);
  }, [resync]);

  return (
    <div className="flex h-dvh flex-col overflow-hidden bg-black text-white">
      <header className="flex items-center justify-between gap-4 border-b border-slate-800 bg-slate-950 px-[2vw] py-[1.2vh]">
        <h1 className="truncate text-[min(3vw,5vh)] font-bold tracking-tight">{name}</h1>
        <div className="flex items-center gap-4">
          <p className="hidden text-[min(1.6vw,2.6vh)] text-slate-300 md:block">Wait for your number under “Ready”</p>
          <ConnectionBadge state={resyncFailed && connection === "live" ? "reconnecting" : connection} tone="dark" />
        </div>
      </header>

      <main className="grid min-h-0 flex-1 grid-cols-[2fr_3fr]">
        <Column
          testId="preparing"
          title="Preparing"
          empty="No orders being prepared"
          orders={board.preparing}
          kind="preparing"
          highlighted={highlighted}
          className="border-r-4 border-slate-700 bg-slate-900"
          titleClass="bg-slate-800 text-amber-300"
          numberClass="text-slate-100"
        />
        <Column
          testId="ready"
          title="Ready"
          empty="Nothing ready yet"
          orders={board.ready}
          kind="ready"
          highlighted={highlighted}
          className="bg-emerald-950"
          titleClass="bg-emerald-800 text-white"
          numberClass="text-white"
        />
      </main>
    </div>
  );
}

function Column(props: {
  testId: string;
  title: string;
  empty: string;
  orders: BoardOrder[];
  kind: "preparing" | "ready";
  highlighted: ReadonlySet<string>;
  className: string;
  titleClass: string;
  numberClass: string;
}) {
  const headingId = `${props.testId}-heading`;
  const area = useRef<HTMLDivElement>(null);
  const [box, setBox] = useState<{ width: number; height: number } | null>(null);
  useEffect(() => {
    const el = area.current;
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
  const digits = Math.max(2, ...props.orders.map((o) => String(o.number).length));
  // Ready numbers may grow to about half the column's height; preparing ones stay smaller.
  const grid = box ? fitGrid(box.width, box.height, props.orders.length, digits, box.height * (props.kind === "ready" ? 0.45 : 0.28)) : null;
  const listStyle: CSSProperties = grid
    ? {
        fontSize: `${grid.fontSize}px`,
        display: "grid",
        gridTemplateColumns: `repeat(${grid.cols}, ${digits * CELL.digit + CELL.padX}em)`,
        columnGap: `${CELL.gapX}em`,
        rowGap: `${CELL.gapY}em`,
      }
    : { fontSize: fallbackSize(props.orders.length, props.kind), display: "flex", flexWrap: "wrap", columnGap: `${CELL.gapX}em`, rowGap: `${CELL.gapY}em` };
  return (
    <section aria-labelledby={headingId} data-testid={props.testId} className={`flex min-h-0 flex-col ${props.className}`}>
      <h2 id={headingId} className={`px-[2vw] py-[1.5vh] text-[min(4.5vw,7.5vh)] font-extrabold uppercase tracking-wide ${props.titleClass}`}>
        {props.title}
        <span className="sr-only"> ({props.orders.length})</span>
      </h2>
      <div ref={area} aria-live="polite" aria-atomic="false" aria-relevant="additions text" className="min-h-0 flex-1 overflow-hidden p-[1.5vw]">
        {props.orders.length === 0 ? (
          <p className="pt-[4vh] text-center text-[min(2.2vw,3.6vh)] text-slate-400">{props.empty}</p>
        ) : (
          <ul className="content-start" style={listStyle}>
            {props.orders.map((o) => (
              <li
                key={o.id}
                data-testid="board-number"
                className={`rounded-[0.12em] px-[0.2em] text-center font-black leading-[1.1] tabular-nums ${props.numberClass} ${props.highlighted.has(o.id) ? "animate-ready-flash" : ""}`}
              >
                {o.number}
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
