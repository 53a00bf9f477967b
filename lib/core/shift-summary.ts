/** What the manager sees of a shift: orders per status and the last number issued in each series. Pure. */
import { ORDER_STATUSES, type Order, type OrderStatus } from "./orders";
import { displayNumber } from "./series";

export interface ShiftSummary {
  total: number;
  byStatus: Record<OrderStatus, number>;
  /**
   * The last number each series issued, as shown ("57", "K40"): the default series first,
   * then by prefix. A series' last is its highest ticket (its numbers come round); the
   * default series has no ticket, its number is one.
   */
  last: string[];
}

type Summarized = Pick<Order, "status" | "number" | "prefix" | "seriesId" | "ticket">;

export function summarizeShift(orders: readonly Summarized[]): ShiftSummary {
  const byStatus = Object.fromEntries(ORDER_STATUSES.map((s) => [s, 0])) as Record<OrderStatus, number>;
  const last = new Map<string, Summarized>();
  for (const o of orders) {
    byStatus[o.status]++;
    const series = o.seriesId ?? "";
    const before = last.get(series);
    if (!before || (o.ticket ?? o.number) > (before.ticket ?? before.number)) last.set(series, o);
  }
  const lasts = [...last.values()].sort((a, b) => Number(a.seriesId !== null) - Number(b.seriesId !== null) || a.prefix.localeCompare(b.prefix, "en"));
  return { total: orders.length, byStatus, last: lasts.map((o) => displayNumber(o.prefix, o.number)) };
}
