/**
 * The outbox: a change's webhook events become one delivery row per subscribed endpoint,
 * each with its first queued attempt, inside the change's own transaction — an event is
 * stored exactly when its change is.
 */
import { randomUUID } from "node:crypto";
import { webhookBody, type OutboxEvent } from "@/lib/core/webhooks/events";
import type { Db, Tx } from "./prisma.server";
import type { WebhookQueue } from "./webhook-queue.server";

/** How long "has endpoints" is trusted without an invalidation (endpoints change through the bus). */
export const OUTBOX_CACHE_MS = 5_000;

export class WebhookOutbox {
  private hasEndpoints = new Map<string, { active: boolean; at: number }>();
  private epoch = 0;

  constructor(
    private readonly queue: WebhookQueue,
    /** How long a cached answer is trusted right now (shorter while invalidations may be missed). */
    private readonly ttlMs: () => number = () => OUTBOX_CACHE_MS,
  ) {}

  /**
   * Whether `tenantId` has any endpoint, cached per node: the changes of a restaurant
   * without webhooks skip the transaction. An endpoint created while such a change commits,
   * or before its invalidation reached this node, may miss that change's event.
   */
  async active(db: Db, tenantId: string): Promise<boolean> {
    const hit = this.hasEndpoints.get(tenantId);
    if (hit && Date.now() - hit.at < Math.min(this.ttlMs(), OUTBOX_CACHE_MS)) return hit.active;
    const epoch = this.epoch;
    const active = (await db.webhookEndpoint.findFirst({ where: { tenantId }, select: { id: true } })) !== null;
    if (epoch !== this.epoch) return active;
    if (this.hasEndpoints.size > 100_000) this.hasEndpoints.clear();
    this.hasEndpoints.set(tenantId, { active, at: Date.now() });
    return active;
  }

  /** Endpoints of `tenantId` were created or deleted. */
  forget(tenantId: string): void {
    this.hasEndpoints.delete(tenantId);
    this.epoch++;
  }

  clear(): void {
    this.hasEndpoints.clear();
    this.epoch++;
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
