/**
 * What a change tells integrations: the webhook event types and their bodies. A change
 * hands its events to the repository that stores it, which writes them in the same
 * transaction (the outbox); the core never sees how.
 */
import { z } from "zod";
import { orderJson, orderJsonSchema } from "../order-json";
import type { Order, OrderStatus } from "../orders";
import type { Tenant } from "../tenants";
import type { ShiftInfo } from "../shifts";

export const WEBHOOK_EVENT_TYPES = ["order.created", "order.ready", "order.collected", "order.cancelled", "order.cleared", "shift.started"] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The "Send test" message: sent to one endpoint whatever it subscribed to, through the same queue. */
export const PING_EVENT = "ping";

/** A ping's body: says where it comes from and which endpoint it was for. */
export const pingEvent = (endpointId: string, now: Date): OutboxEvent => {
  const data: z.output<typeof pingDataSchema> = { endpointId, message: "A test message from Nextup: this endpoint receives webhooks." };
  return { type: PING_EVENT, timestamp: now.toISOString(), data };
};

/** One event of a change, before it is fanned out to the endpoints that subscribed to its type. */
export interface OutboxEvent {
  type: WebhookEventType | typeof PING_EVENT;
  /** When the change happened (ISO 8601). */
  timestamp: string;
  data: unknown;
}

/** The events a stored row emits, built from the row as stored (ids, timestamps). */
export type Emits<Row> = (row: Row) => OutboxEvent[];

/** The body every attempt of a message sends, byte for byte: `{ type, timestamp, data }`. */
export const webhookBody = (e: OutboxEvent): string => JSON.stringify({ type: e.type, timestamp: e.timestamp, data: e.data });

/**
 * `data` of the `order.*` events: the order, and who made the change — a person's name, a
 * shared code's role label ("Kitchen"), an API key's label; null when no one is named (the
 * 12-hour sweep, a tool).
 */
export const orderEventDataSchema = orderJsonSchema
  .extend({
    by: z.string().nullable().meta({
      description:
        "Who made the change: the person's name, the shared code's role (\"Kitchen\") or the API key's label; null when no one is named (an order open 12 h cleared by itself).",
    }),
  })
  .meta({ id: "OrderEventData" });
export type OrderEventData = z.output<typeof orderEventDataSchema>;

const orderData = (order: Order, tenant: Pick<Tenant, "slug">, by: string | null): OrderEventData => ({ ...orderJson(order, tenant), by });

/** `by`: who took it, as stored with the order (`placedBy`). */
export const orderCreated =
  (tenant: Pick<Tenant, "slug">): Emits<Order> =>
  (order) => [{ type: "order.created", timestamp: order.createdAt.toISOString(), data: orderData(order, tenant, order.placedBy) }];

/** The event of a move to `status`: ready, collected, cancelled; an undo back to PLACED has none. */
const STATUS_EVENT: Partial<Record<OrderStatus, { type: WebhookEventType; at: (o: Order) => Date | null }>> = {
  READY: { type: "order.ready", at: (o) => o.readyAt },
  COLLECTED: { type: "order.collected", at: (o) => o.collectedAt },
  CANCELLED: { type: "order.cancelled", at: (o) => o.cancelledAt },
};

/** `by`: who moved it. */
export const orderMoved =
  (tenant: Pick<Tenant, "slug">, by: string | null): Emits<Order> =>
  (order) => {
    const e = STATUS_EVENT[order.status];
    if (!e) return [];
    return [{ type: e.type, timestamp: (e.at(order) ?? new Date()).toISOString(), data: orderData(order, tenant, by) }];
  };

/**
 * An open order taken off the floor (a new shift that cleared, or forgotten for 12 h): one
 * event per order, its status unchanged, `cleared: true` and `clearedAt` the timestamp.
 * `by`: who started the shift that cleared it; null for the 12-hour sweep.
 */
export const orderCleared =
  (tenant: Pick<Tenant, "slug">, by: string | null = null): Emits<Order> =>
  (order) =>
    order.clearedAt ? [{ type: "order.cleared", timestamp: order.clearedAt.toISOString(), data: orderData(order, tenant, by) }] : [];

/** `data` of `shift.started` (the OpenAPI contract's `ShiftStartedEvent` data). */
export const shiftStartedDataSchema = z
  .strictObject({
    businessDay: z.iso.date(),
    shift: z.int().min(1),
    firstNumber: z.int().min(1),
    startedAt: z.iso.datetime(),
    startedBy: z.string(),
    reason: z.string().nullable(),
  })
  .meta({ id: "ShiftStarted" });

/** `data` of `ping`. */
export const pingDataSchema = z.strictObject({ endpointId: z.string(), message: z.string() }).meta({ id: "PingData" });

export const shiftStarted: Emits<ShiftInfo> = (s) => {
  const data: z.output<typeof shiftStartedDataSchema> = {
    businessDay: s.businessDay,
    shift: s.shift,
    firstNumber: s.firstNumber,
    startedAt: s.startedAt.toISOString(),
    startedBy: s.startedBy,
    reason: s.reason,
  };
  return [{ type: "shift.started", timestamp: s.startedAt.toISOString(), data }];
};
