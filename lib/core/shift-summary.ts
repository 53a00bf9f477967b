/** What the manager sees of a shift: orders per status and the last number issued. Pure. */
import { ORDER_STATUSES, type Order, type OrderStatus } from "./orders";

export interface ShiftSummary {
  total: number;
  byStatus: Record<OrderStatus, number>;
  lastNumber: number | null;
}

export function summarizeShift(orders: readonly Pick<Order, "status" | "number">[]): ShiftSummary {
  const byStatus = Object.fromEntries(ORDER_STATUSES.map((s) => [s, 0])) as Record<OrderStatus, number>;
  let lastNumber: number | null = null;
  for (const o of orders) {
    byStatus[o.status]++;
    if (lastNumber === null || o.number > lastNumber) lastNumber = o.number;
  }
  return { total: orders.length, byStatus, lastNumber };
}
