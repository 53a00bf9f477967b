/** What Nextup POSTs to a restaurant's webhook endpoints (Standard Webhooks), as OpenAPI 3.1 `webhooks`. */
import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import {
  orderEventDataSchema,
  pingDataSchema,
  PING_EVENT,
  shiftStartedDataSchema,
  WEBHOOK_EVENT_TYPES,
  type WebhookEventType,
} from "@/lib/core/webhooks/events";

/** The Standard Webhooks headers every attempt carries. */
const webhookHeaders = z.object({
  "webhook-id": z.string().meta({ description: "The message's id: the same on every attempt (ignore ids already processed)." }),
  "webhook-timestamp": z.string().regex(/^\d+$/).meta({ description: "Unix seconds of this attempt; refuse ones more than 5 minutes off." }),
  "webhook-signature": z
    .string()
    .meta({ description: 'v1,base64(HMAC-SHA256(secret after `whsec_`, base64-decoded; "{webhook-id}.{webhook-timestamp}.{raw body}"))' }),
  "user-agent": z.string().meta({ example: "Nextup-Webhooks/1" }),
});

const envelope = (type: string, data: z.ZodType, id: string) =>
  z.strictObject({ type: z.literal(type), timestamp: z.iso.datetime().meta({ description: "When the change happened." }), data }).meta({ id });

const DESCRIPTIONS: Record<WebhookEventType, string> = {
  "order.created": "An order was taken. `data`: the order, and `by` who took it.",
  "order.ready": "An order is ready (also after an undo of its collection). `data`: the order, and `by` who marked it ready.",
  "order.collected": "An order was collected. `data`: the order, and `by` who marked it collected.",
  "order.cancelled": "An order was cancelled. `data`: the order, and `by` who cancelled it.",
  "order.cleared":
    "An open order was taken off the floor (a new shift that cleared, or 12 h open); `timestamp` = `clearedAt`. `data`: the order, `cleared: true`, and `by` who started the shift (null: open 12 h).",
  "shift.started": "A new shift started (by hand, by the schedule). `data`: the shift.",
};

const idOf = (type: string) =>
  `${type
    .split(".")
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join("")}Event`;

function delivery(type: string, summary: string, payload: z.ZodType) {
  return {
    post: {
      operationId: `webhook${idOf(type)}`,
      tags: ["Webhooks"],
      summary,
      description:
        "Signed per Standard Webhooks; answer 2xx within 10 s once stored. Anything else is retried (15 attempts over about a day); at least once, in any order.",
      requestParams: { header: webhookHeaders },
      requestBody: { required: true, content: { "application/json": { schema: payload } } },
      responses: { "2XX": { description: "Stored: not sent again." }, default: { description: "Retried later (redirects are not followed)." } },
    },
  };
}

export const webhookEvents: ZodOpenApiPathsObject = {
  ...Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => [
      type,
      delivery(type, DESCRIPTIONS[type], envelope(type, type === "shift.started" ? shiftStartedDataSchema : orderEventDataSchema, idOf(type))),
    ]),
  ),
  [PING_EVENT]: delivery(
    PING_EVENT,
    "A test message (`POST …/webhooks/{id}/ping`), whatever events the endpoint receives.",
    envelope(PING_EVENT, pingDataSchema, "PingEvent"),
  ),
};
