/**
 * The kitchen's "All day": how many of each dish the open orders still need, summed over
 * the orders to prepare (ready ones are cooked). Names are matched as a cook reads them:
 * spaces trimmed and squeezed, case ignored; the first spelling is shown. Pure.
 */
import type { OrderItem, OrderStatus } from "./orders";

export interface AllDayLine {
  name: string;
  qty: number;
}

const keyOf = (name: string) => name.trim().replace(/\s+/g, " ").toLocaleLowerCase();

/** Most needed first; equal counts by name, so the list does not jump between reads. */
export function allDay(orders: readonly { status: OrderStatus; items: readonly OrderItem[] }[]): AllDayLine[] {
  const lines = new Map<string, AllDayLine>();
  for (const order of orders) {
    if (order.status !== "PLACED") continue;
    for (const item of order.items) {
      const key = keyOf(item.name);
      if (!key) continue;
      const line = lines.get(key);
      if (line) line.qty += item.qty;
      else lines.set(key, { name: item.name.trim().replace(/\s+/g, " "), qty: item.qty });
    }
  }
  return [...lines.values()].sort((a, b) => b.qty - a.qty || a.name.localeCompare(b.name));
}
