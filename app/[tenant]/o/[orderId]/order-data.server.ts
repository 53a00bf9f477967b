/** What the customer's page shows of one order: read by the page and, live, by `readOrder`. */
import { toBoardOrder, type BoardOrder, type OrderItem } from "@/lib/core/orders";
import type { Tenant } from "@/lib/core/tenants";
import type { App } from "@/lib/server/app.server";

export interface CustomerOrder {
  self: BoardOrder;
  items: OrderItem[];
  note: string | null;
  /** Keys of the orders still being prepared ahead of this one (the board shows their numbers anyway). */
  ahead: string[];
}

/** Throws AppError NOT_FOUND for an unknown order. */
export async function customerOrder(app: App, tenant: Tenant, orderId: string): Promise<CustomerOrder> {
  const { order, aheadKeys } = await app.orders.track(tenant, orderId);
  return { self: toBoardOrder(order), items: order.items, note: order.note, ahead: aheadKeys };
}
