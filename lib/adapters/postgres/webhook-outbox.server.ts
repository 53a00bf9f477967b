/**
 * The outbox: a change's webhook events become one delivery row per subscribed endpoint,
 * each with its first queued attempt, inside the change's own transaction — an event is
 * stored exactly when its change is.
 */
import { randomUUID } from "node:crypto";
import { webhookBody, type OutboxEvent } from "@/lib/core/webhooks/events";
import type { Db, Tx } from "./prisma.server";
import type { WebhookQueue } from "./webhook-queue.server";

export class WebhookOutbox {
  constructor(private readonly queue: WebhookQueue) {}

  /**
   * Whether `tenantId` has any endpoint: the changes of a restaurant without webhooks skip
   * the transaction (an endpoint created while such a change commits may miss its event).
   */
  async active(db: Db, tenantId: string): Promise<boolean> {
    return (await db.webhookEndpoint.findFirst({ where: { tenantId }, select: { id: true } })) !== null;
  }

  /** Writes `events` of `tenantId` in `tx`; returns how many deliveries were queued. */
  async write(tx: Tx, tenantId: string, events: OutboxEvent[]): Promise<number> {
    if (events.length === 0) return 0;
    const types = [...new Set(events.map((e) => e.type))];
    const endpoints = await tx.webhookEndpoint.findMany({ where: { tenantId, events: { hasSome: types } }, select: { id: true, events: true } });
    if (endpoints.length === 0) return 0;
    const now = new Date();
    const rows = events.flatMap((e) =>
      endpoints
        .filter((ep) => ep.events.includes(e.type))
        .map((ep) => ({ id: randomUUID(), jobId: randomUUID(), tenantId, endpointId: ep.id, type: e.type, body: webhookBody(e), nextAttemptAt: now })),
    );
    await tx.webhookDelivery.createMany({ data: rows });
    await this.queue.enqueue(
      tx,
      rows.map((r) => ({ id: r.jobId, deliveryId: r.id, startAfter: null })),
    );
    return rows.length;
  }

  /** Call once the transaction has committed: this node's workers fetch at once. */
  committed(queued: number): void {
    if (queued > 0) this.queue.wake();
  }
}
