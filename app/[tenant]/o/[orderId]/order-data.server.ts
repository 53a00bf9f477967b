/** What the customer's page shows of one order: read by the page and, live, by `readOrder`. */
import { toBoardOrder, type BoardOrder, type OrderItem } from "@/lib/core/orders";
import type { Tenant } from "@/lib/core/tenants";
import type { WaitSummary } from "@/lib/core/wait-estimate";
import { estimable } from "@/lib/core/wait-service";
import type { App } from "@/lib/server/app.server";

export interface CustomerOrder {
  self: BoardOrder;
  items: OrderItem[];
  note: string | null;
  /** Keys of the orders still being prepared ahead of this one (the board shows their numbers anyway). */
  ahead: string[];
  /**
   * The restaurant's recent times to ready (decision 0052), while this order is being
   * prepared: the page applies the rule itself with the live count ahead and its clock, so
   * the estimate counts down between reads. null: not being prepared, or too little history.
   */
  wait: WaitSummary | null;
  /** The server's clock at this read (ms since epoch): the page's clock may be off. */
  readAt: number;
}

/** Throws AppError NOT_FOUND for an unknown order. */
export async function customerOrder(app: App, tenant: Tenant, orderId: string): Promise<CustomerOrder> {
  const { order, aheadKeys } = await app.orders.track(tenant, orderId);
  const wait = estimable(order) ? await app.waits.summary(tenant) : null;
  return { self: toBoardOrder(order), items: order.items, note: order.note, ahead: aheadKeys, wait, readAt: Date.now() };
}
