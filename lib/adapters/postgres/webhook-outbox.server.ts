/**
 * The outbox: a change's webhook events become one delivery row per subscribed endpoint,
 * each with its first queued attempt, inside the change's own transaction — an event is
 * stored exactly when its change is.
 */
import { randomUUID } from "node:crypto";
import { webhookBody, type OutboxEvent } from "@/lib/core/webhooks/events";
import type { Db, Tx } from "./prisma.server";
import type { WebhookQueue } from "./webhook-queue.server";
import { ReadThroughCache } from "@/lib/core/read-through-cache";

/** How long "has endpoints" is trusted without an invalidation (endpoints change through the bus). */
export const OUTBOX_CACHE_MS = 5_000;

export class WebhookOutbox {
  private readonly hasEndpoints: ReadThroughCache<string, boolean>;

  constructor(
    private readonly queue: WebhookQueue,
    db: Db,
    /** How long a cached answer is trusted right now (shorter while invalidations may be missed). */
    ttlMs: () => number = () => OUTBOX_CACHE_MS,
  ) {
    const load = async (tenantId: string) => (await db.webhookEndpoint.findFirst({ where: { tenantId }, select: { id: true } })) !== null;
    this.hasEndpoints = new ReadThroughCache(load, () => Math.min(ttlMs(), OUTBOX_CACHE_MS), 100_000);
  }

  /**
   * Whether `tenantId` has any endpoint, cached per node: the changes of a restaurant
   * without webhooks skip the transaction. An endpoint created while such a change commits,
   * or before its invalidation reached this node, may miss that change's event.
   */
  active(tenantId: string): Promise<boolean> {
    return this.hasEndpoints.get(tenantId);
  }

  /** Endpoints of `tenantId` were created or deleted. */
  forget(tenantId: string): void {
    this.hasEndpoints.forget(tenantId);
  }

  clear(): void {
    this.hasEndpoints.clear();
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

  /** Writes `event` for the one endpoint `endpointId` in `tx` (a ping: whatever it subscribed to); returns the delivery's id. */
  async writeTo(tx: Tx, tenantId: string, endpointId: string, event: OutboxEvent): Promise<string> {
    const row = { id: randomUUID(), jobId: randomUUID(), tenantId, endpointId, type: event.type, body: webhookBody(event), nextAttemptAt: new Date() };
    await tx.webhookDelivery.create({ data: row });
    await this.queue.enqueue(tx, [{ id: row.jobId, deliveryId: row.id, startAfter: null }]);
    return row.id;
  }

  /** Call once the transaction has committed: this node's workers fetch at once. */
  committed(queued: number): void {
    if (queued > 0) this.queue.wake();
  }
}
