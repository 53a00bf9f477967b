/**
 * What the dining-room board shows, computed the same way on the server (first render,
 * GET …/board) and in the browser (live events, the clock moving on). Pure.
 *
 * Every open order is on the board, whatever shift or business day it was taken in: a new
 * shift, a new day or a changed day rule never hides an order a customer is still waiting for.
 * A ready number leaves the board `readyClearMinutes` after it became ready (the kitchen
 * then lists it as not collected).
 */
import type { BusinessDay } from "./business-day";
import type { BoardOrder } from "./orders";

export interface BoardView {
  businessDay: BusinessDay;
  /** The current shift: orders of earlier shifts (and days) are marked on screen. */
  shift: number;
  readyClearMinutes: number;
  /** Oldest first (the order the kitchen works in). */
  preparing: BoardOrder[];
  /** Most recently ready first. */
  ready: BoardOrder[];
}

/** True while a ready order is recent enough to stay on the board. */
export function isFreshReady(order: Pick<BoardOrder, "status" | "readyAt">, nowMs: number, readyClearMinutes: number): boolean {
  if (order.status !== "READY") return false;
  if (!order.readyAt) return true;
  return nowMs - Date.parse(order.readyAt) < readyClearMinutes * 60_000;
}

const byAge = (a: BoardOrder, b: BoardOrder) => a.createdAt.localeCompare(b.createdAt) || a.shift - b.shift || a.number - b.number;
const byReadyDesc = (a: BoardOrder, b: BoardOrder) => (b.readyAt ?? "").localeCompare(a.readyAt ?? "") || b.number - a.number;

/** Sorts open orders into the two columns; orders that are not on the board are left out. */
export function boardView(
  base: { businessDay: BusinessDay; shift: number; readyClearMinutes: number },
  orders: readonly BoardOrder[],
  nowMs: number,
): BoardView {
  const live = orders.filter((o) => !o.cleared);
  return {
    ...base,
    preparing: live.filter((o) => o.status === "PLACED").sort(byAge),
    ready: live.filter((o) => isFreshReady(o, nowMs, base.readyClearMinutes)).sort(byReadyDesc),
  };
}

/** The board after one live event: the order moves column, arrives or leaves. */
export function applyToBoard(board: BoardView, order: BoardOrder, nowMs: number): BoardView {
  const others = [...board.preparing, ...board.ready].filter((o) => o.key !== order.key);
  return boardView(board, [...others, order], nowMs);
}

/** The board with ready numbers that are past their time removed (call it as the clock moves). */
export function expireReady(board: BoardView, nowMs: number): BoardView {
  const ready = board.ready.filter((o) => isFreshReady(o, nowMs, board.readyClearMinutes));
  return ready.length === board.ready.length ? board : { ...board, ready };
}

/** Keys that are ready on `next` but were not on `prev`: the numbers to call. */
export function newlyReady(prev: BoardView, next: BoardView): BoardOrder[] {
  const before = new Set(prev.ready.map((o) => o.key));
  return next.ready.filter((o) => !before.has(o.key));
}

/**
 * How an order stands to the board's current shift: of an earlier day, of an earlier shift
 * of today, or current. Earlier ones are marked so "3" of lunch and "3" of dinner differ.
 */
export function earlierThan(order: Pick<BoardOrder, "businessDay" | "shift">, board: Pick<BoardView, "businessDay" | "shift">): "day" | "shift" | null {
  if (order.businessDay < board.businessDay) return "day";
  if (order.businessDay === board.businessDay && order.shift < board.shift) return "shift";
  return null;
}
