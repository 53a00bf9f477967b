import { z } from "zod";
import { PING_EVENT, WEBHOOK_EVENT_TYPES } from "@/lib/core/webhooks/events";
import type { WebhookDeliveryInfo, WebhookEndpoint } from "@/lib/core/ports";

const timestamp = z.iso.datetime();

/** A webhook endpoint on the wire (the OpenAPI contract's `Webhook`): never its secret. */
export const webhookJsonSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    createdAt: timestamp,
    createdBy: z.string().nullable(),
  })
  .meta({ id: "Webhook" });

/** An endpoint with its signing secret: in the answers that create or rotate it only. */
export const webhookWithSecretSchema = webhookJsonSchema
  .extend({ secret: z.string().meta({ description: "`whsec_…`: in this answer only." }) })
  .meta({ id: "WebhookWithSecret" });

/** One delivery (message) on the wire (the contract's `WebhookDelivery`). */
export const deliveryJsonSchema = z
  .object({
    id: z.string().meta({ description: "The message's `webhook-id`." }),
    type: z.enum([...WEBHOOK_EVENT_TYPES, PING_EVENT]),
    createdAt: timestamp,
    attempts: z.int().min(0),
    lastStatus: z.int().nullable().meta({ description: "The HTTP status of the last attempt; null when none came (`lastError` says why)." }),
    lastError: z.string().nullable(),
    nextAttemptAt: timestamp.nullable(),
    deliveredAt: timestamp.nullable(),
    gaveUpAt: timestamp.nullable(),
  })
  .meta({ id: "WebhookDelivery" });

/** The public JSON form of a webhook endpoint: never its secret. */
export function webhookJson(e: WebhookEndpoint): z.output<typeof webhookJsonSchema> {
  return { id: e.id, url: e.url, events: e.events, createdAt: e.createdAt.toISOString(), createdBy: e.createdBy };
}

/** One delivery (message) and how its attempts went. */
export function deliveryJson(d: WebhookDeliveryInfo): z.output<typeof deliveryJsonSchema> {
  return {
    id: d.id,
    type: d.type as z.output<typeof deliveryJsonSchema>["type"],
    createdAt: d.createdAt.toISOString(),
    attempts: d.attempts,
    lastStatus: d.lastStatus,
    lastError: d.lastError,
    nextAttemptAt: d.nextAttemptAt?.toISOString() ?? null,
    deliveredAt: d.deliveredAt?.toISOString() ?? null,
    gaveUpAt: d.gaveUpAt?.toISOString() ?? null,
  };
}
