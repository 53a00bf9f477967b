/**
 * The kitchen's "All day": how many of each dish the open orders still need, summed over
 * the orders to prepare (ready ones are cooked). A dish counts apart per set of options
 * (a Large and a Small bowl are cooked differently), as its line label reads; a line's note
 * does not split it. Labels are matched as a cook reads them: spaces trimmed and squeezed,
 * case ignored; the first spelling is shown. Pure.
 */
import { lineLabel } from "./menu-options";
import type { OrderItem, OrderStatus } from "./orders";

export interface AllDayLine {
  /** The dish with its options: "Beef noodles · Large". */
  name: string;
  qty: number;
}

const tidy = (text: string) => text.trim().replace(/\s+/g, " ");

/** Most needed first; equal counts by name, so the list does not jump between reads. */
export function allDay(orders: readonly { status: OrderStatus; items: readonly OrderItem[] }[]): AllDayLine[] {
  const lines = new Map<string, AllDayLine>();
  for (const order of orders) {
    if (order.status !== "PLACED") continue;
    for (const item of order.items) {
      if (!tidy(item.name)) continue;
      const name = tidy(lineLabel({ name: tidy(item.name), options: item.options }));
      const key = name.toLocaleLowerCase();
      const line = lines.get(key);
      if (line) line.qty += item.qty;
      else lines.set(key, { name, qty: item.qty });
    }
  }
  return [...lines.values()].sort((a, b) => b.qty - a.qty || a.name.localeCompare(b.name));
}
