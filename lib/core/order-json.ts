/** The public JSON form of an order: REST answers and webhook payloads share it. */
import { z } from "zod";
import { CHANNELS, ORDER_STATUSES, SERVICES, type Order, type OrderMove } from "./orders";
import type { Tenant } from "./tenants";
import { displayNumber, seriesNameOf } from "./series";
import { partJson } from "./stations";

/** Where the customer follows an order (the ticket's link and QR code), from the site's root. */
export const trackPath = (tenant: Pick<Tenant, "slug">, orderId: string): string => `/${tenant.slug}/o/${orderId}`;

const timestamp = z.iso.datetime();

/**
 * The wire form, the OpenAPI contract's `Order` (lib/edges/http/openapi): orderJson returns
 * its type, so the contract and the answers cannot drift apart. Strict: webhook payloads
 * (requests to the receiver) and answers then render as one component.
 */
export const orderJsonSchema = z
  .strictObject({
    id: z.string(),
    number: z.int().min(1),
    series: z.string().meta({ description: "The series it was numbered in, as named then (`Default` for the default series)." }),
    prefix: z.string().meta({ description: 'The series\' letters ("" for none).' }),
    display: z.string().meta({ description: 'What the ticket, the board and the kitchen show ("K12").' }),
    businessDay: z.iso.date(),
    shift: z.int().min(1),
    status: z.enum(ORDER_STATUSES),
    items: z.array(
      z
        .strictObject({
          name: z.string(),
          qty: z.int(),
          menuItemId: z.string().optional().meta({ description: "Set when the line came from the menu." }),
          priceCents: z.int().optional().meta({ description: "One unit's price when ordered, its options included; absent when the dish had none." }),
          stationId: z.string().optional().meta({ description: "The kitchen station that makes it; absent while the restaurant has no stations." }),
          options: z
            .array(
              z
                .strictObject({
                  group: z.string().meta({ description: 'The option group\'s name when ordered ("Size").' }),
                  name: z.string().meta({ description: 'The option\'s name when ordered ("Large").' }),
                  priceCents: z.int().min(0).meta({ description: "What it added to the unit price." }),
                })
                .meta({ id: "OrderItemOption" }),
            )
            .optional()
            .meta({ description: "The dish's options as chosen, in menu order; absent when none." }),
          note: z.string().optional().meta({ description: 'The note for this line ("no coriander").' }),
          soldOut: z.literal(true).optional().meta({
            description: "Taken although the dish was sold out, from a channel the restaurant accepts such orders from (`soldOutAcceptedFrom`).",
          }),
        })
        .meta({ id: "OrderItem" }),
    ),
    note: z.string().nullable(),
    channel: z.string().meta({ description: `Where it was taken: ${CHANNELS.join(", ")}.` }),
    service: z
      .enum(SERVICES)
      .nullable()
      .meta({ description: "Eat in or take away; null: not stated (the restaurant does not ask, or a release before took it)." }),
    createdAt: timestamp,
    readyAt: timestamp.nullable(),
    collectedAt: timestamp.nullable(),
    cancelledAt: timestamp.nullable(),
    cleared: z.boolean().meta({ description: "Taken off the floor while still open: it can no longer move." }),
    clearedAt: timestamp.nullable(),
    trackPath: z.string().meta({ description: "The customer's page, from the site's root (the ticket's QR code)." }),
    stations: z
      .array(
        z
          .strictObject({
            id: z.string(),
            name: z.string().meta({ description: "The station's name when the order was taken." }),
            done: z.boolean(),
            doneAt: timestamp.nullable(),
          })
          .meta({ id: "OrderPart" }),
      )
      .meta({ description: "One part per kitchen station with lines of the order, in station order; [] when the restaurant has no stations." }),
  })
  .meta({ id: "Order" });
export type OrderJson = z.output<typeof orderJsonSchema>;

export function orderJson(order: Order, tenant: Pick<Tenant, "slug">): OrderJson {
  return {
    id: order.id,
    number: order.number,
    series: seriesNameOf(order),
    prefix: order.prefix,
    display: displayNumber(order.prefix, order.number),
    businessDay: order.businessDay,
    shift: order.shift,
    status: order.status,
    items: order.items,
    note: order.note,
    channel: order.channel,
    service: order.service,
    createdAt: order.createdAt.toISOString(),
    readyAt: order.readyAt?.toISOString() ?? null,
    collectedAt: order.collectedAt?.toISOString() ?? null,
    cancelledAt: order.cancelledAt?.toISOString() ?? null,
    cleared: order.clearedAt !== null,
    clearedAt: order.clearedAt?.toISOString() ?? null,
    trackPath: trackPath(tenant, order.id),
    stations: order.stations.map(partJson),
  };
}

/** One entry of an order's history on the wire. */
export const orderMoveJsonSchema = z
  .strictObject({
    status: z.enum(ORDER_STATUSES).meta({ description: "The status it moved to (`PLACED` first: taken; `PLACED` later: an Undo of Ready)." }),
    at: timestamp,
    by: z.string().nullable().meta({
      description: "Who: the person's name, the shared code's role (\"Kitchen\") or the API key's label; null when no one was named (a release before people).",
    }),
  })
  .meta({ id: "OrderHistoryEntry" });

/** "About 6–9 min" (decision 0052). */
export const waitEstimateJsonSchema = z
  .strictObject({
    low: z.int().min(0).meta({ description: "The range's low end: whole minutes still to wait, likely (the recent median)." }),
    high: z.int().min(0).meta({ description: "The range's high end: very likely ready by then (the recent 80th percentile); low ≤ high." }),
    late: z.boolean().meta({
      description:
        'Older than the restaurant\'s usual (its recent 80th percentile, and a minute old): say "taking longer than usual", never a countdown; low = high = 0.',
    }),
  })
  .meta({
    id: "WaitEstimate",
    description:
      "How long an order still being prepared will likely take, from the restaurant's orders made ready in the last hour (recency-weighted p50–p80 of time to ready) and the orders ahead of it. An order further back is never told a shorter wait.",
  });
export type WaitEstimateJson = z.output<typeof waitEstimateJsonSchema>;

/** `GET …/orders/{id}`: the order and its history. */
export const orderWithHistoryJsonSchema = orderJsonSchema
  .extend({
    estimate: waitEstimateJsonSchema.nullable().meta({
      description:
        "null: not being prepared (ready, collected, cancelled, cleared), or fewer than ten orders made ready in the last hour (no made-up default).",
    }),
    history: z.array(orderMoveJsonSchema).meta({
      description:
        "Oldest first: taken (`createdAt`, who took it), then every status change and who made it. Changes made by a node of the release before people are missing.",
    }),
  })
  .meta({ id: "OrderWithHistory" });
export type OrderWithHistoryJson = z.output<typeof orderWithHistoryJsonSchema>;

export function orderWithHistoryJson(
  order: Order,
  history: readonly OrderMove[],
  tenant: Pick<Tenant, "slug">,
  estimate: WaitEstimateJson | null = null,
): OrderWithHistoryJson {
  return { ...orderJson(order, tenant), estimate, history: history.map((m) => ({ status: m.status, at: m.at.toISOString(), by: m.by })) };
}
