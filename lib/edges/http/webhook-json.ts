import type { WebhookDeliveryInfo, WebhookEndpoint } from "@/lib/core/ports";

/** The public JSON form of a webhook endpoint: never its secret. */
export function webhookJson(e: WebhookEndpoint) {
  return { id: e.id, url: e.url, events: e.events, createdAt: e.createdAt.toISOString(), createdBy: e.createdBy };
}

/** One delivery (message) and how its attempts went. */
export function deliveryJson(d: WebhookDeliveryInfo) {
  return {
    id: d.id,
    type: d.type,
    createdAt: d.createdAt.toISOString(),
    attempts: d.attempts,
    lastStatus: d.lastStatus,
    lastError: d.lastError,
    nextAttemptAt: d.nextAttemptAt?.toISOString() ?? null,
    deliveredAt: d.deliveredAt?.toISOString() ?? null,
    gaveUpAt: d.gaveUpAt?.toISOString() ?? null,
  };
}
