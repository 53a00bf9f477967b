/**
 * The kitchen screen's three piles of open orders, recomputed as the clock moves: a ready
 * order that has left the board (after `readyClearMinutes`) is "not collected". Pure.
 */
import { isFreshReady } from "./board";
import type { BoardOrder } from "./orders";

type Sortable = Pick<BoardOrder, "status" | "readyAt" | "createdAt">;

export interface KitchenSections<T> {
  /** PLACED, oldest first (the order the kitchen works in). */
  toPrepare: T[];
  /** READY and still on the board, longest waiting for pickup first. */
  ready: T[];
  /** READY but off the board: the customer has not come; longest waiting first. */
  notCollected: T[];
}

const byReadyAt = (a: Sortable, b: Sortable) => (a.readyAt ?? "").localeCompare(b.readyAt ?? "") || a.createdAt.localeCompare(b.createdAt);

export function kitchenSections<T extends Sortable>(open: readonly T[], nowMs: number, readyClearMinutes: number): KitchenSections<T> {
  const toPrepare = open.filter((o) => o.status === "PLACED").sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  const readyAll = open.filter((o) => o.status === "READY").sort(byReadyAt);
  return {
    toPrepare,
    ready: readyAll.filter((o) => isFreshReady(o, nowMs, readyClearMinutes)),
    notCollected: readyAll.filter((o) => !isFreshReady(o, nowMs, readyClearMinutes)),
  };
}
