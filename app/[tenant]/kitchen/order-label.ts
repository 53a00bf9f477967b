import type { TicketMarks } from "@/lib/core/ticket";
import type { KitchenOrder } from "./types";

type T = (key: "order" | "orderOfShift" | "orderOfDay", values: Record<string, string | number>) => string;

/** How an order is named aloud (its heading's label), and its test id: numbers restart each shift and each day. */
export function orderName(t: T, order: KitchenOrder, marks: TicketMarks): string {
  if (marks.earlierDay) return t("orderOfDay", { number: order.display });
  return marks.earlierShift ? t("orderOfShift", { number: order.display, shift: order.shift }) : t("order", { number: order.display });
}

/** By the displayed number ("order-K12", "order-12"): a prefix tells two series' 12 apart. */
export function orderTestId(order: KitchenOrder, marks: TicketMarks): string {
  if (marks.earlierDay) return `order-d${order.businessDay}-s${order.shift}-${order.display}`;
  return marks.earlierShift ? `order-s${order.shift}-${order.display}` : `order-${order.display}`;
}

/** The id of an order's heading, which its ticket or row is labelled by. */
export const orderHeadingId = (order: KitchenOrder): string => `order-${order.id}`;

/** What a ticket and a pickup row both say of their order on their <article>: ids for tests and the keyboard, its label and state. */
export function orderArticleProps(order: KitchenOrder, marks: TicketMarks, state: { selected: boolean; pending: boolean }) {
  return {
    "data-testid": orderTestId(order, marks),
    "data-order-id": order.id,
    "data-business-day": order.businessDay,
    "aria-labelledby": orderHeadingId(order),
    "aria-current": state.selected || undefined,
    "aria-busy": state.pending || undefined,
  };
}
