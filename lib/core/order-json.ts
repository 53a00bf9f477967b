/** The public JSON form of an order: REST answers and webhook payloads share it. */
import type { Order } from "./orders";
import type { Tenant } from "./tenants";
import { displayNumber, seriesNameOf } from "./series";

/** Where the customer follows an order (the ticket's link and QR code), from the site's root. */
export const trackPath = (tenant: Pick<Tenant, "slug">, orderId: string): string => `/${tenant.slug}/o/${orderId}`;

export function orderJson(order: Order, tenant: Pick<Tenant, "slug">) {
  return {
    id: order.id,
    number: order.number,
    series: seriesNameOf(order),
    prefix: order.prefix,
    /** What the ticket, the board and the kitchen show ("K12"). */
    display: displayNumber(order.prefix, order.number),
    businessDay: order.businessDay,
    shift: order.shift,
    status: order.status,
    items: order.items,
    note: order.note,
    channel: order.channel,
    createdAt: order.createdAt.toISOString(),
    readyAt: order.readyAt?.toISOString() ?? null,
    collectedAt: order.collectedAt?.toISOString() ?? null,
    cancelledAt: order.cancelledAt?.toISOString() ?? null,
    /** Taken off the floor (a new shift that cleared, or forgotten for 12 h) while still open: it can no longer move. */
    cleared: order.clearedAt !== null,
    clearedAt: order.clearedAt?.toISOString() ?? null,
    trackPath: trackPath(tenant, order.id),
  };
}
