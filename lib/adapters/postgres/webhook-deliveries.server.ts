/** The deliveries' side the worker needs: which attempt is due, and what it answered. */
import { randomUUID } from "node:crypto";
import type { SecretCipher } from "@/lib/auth/webhook-secrets.server";
import type { Db } from "./prisma.server";
import type { WebhookQueue } from "./webhook-queue.server";
import type { DeliveryLedger, DueDelivery } from "@/lib/core/ports";

const MAX_ERROR = 500;

export class PrismaDeliveryLedger implements DeliveryLedger {
  constructor(
    private readonly db: Db,
    private readonly queue: WebhookQueue,
    private readonly cipher: SecretCipher,
  ) {}

  async due(deliveryId: string, jobId: string): Promise<DueDelivery | null> {
    const row = await this.db.webhookDelivery.findFirst({
      where: { id: deliveryId, jobId, deliveredAt: null, gaveUpAt: null },
      include: { endpoint: { select: { id: true, url: true, secretEnc: true } } },
    });
    if (!row) return null;
    return {
      id: row.id,
      tenantId: row.tenantId,
      type: row.type,
      body: row.body,
      attempts: row.attempts,
      url: row.endpoint.url,
      secret: this.cipher.open(row.endpoint.secretEnc, row.endpoint.id),
    };
  }

  async record(deliveryId: string, jobId: string, r: Parameters<DeliveryLedger["record"]>[2]): Promise<void> {
    const nextJob = r.nextAttemptAt ? randomUUID() : null;
    await this.db.$transaction(async (tx) => {
      // Only the job that owns the row records: a stale duplicate (expired, re-run) writes nothing.
      const { count } = await tx.webhookDelivery.updateMany({
        where: { id: deliveryId, jobId },
        data: {
          attempts: r.attempts,
          lastStatus: r.result.status,
          lastError: r.result.error?.slice(0, MAX_ERROR) ?? null,
          nextAttemptAt: r.nextAttemptAt,
          deliveredAt: r.delivered ? r.at : null,
          gaveUpAt: !r.delivered && !r.nextAttemptAt ? r.at : null,
          jobId: nextJob,
        },
      });
      if (count === 1 && nextJob) await this.queue.enqueue(tx, [{ id: nextJob, deliveryId, startAfter: r.nextAttemptAt }]);
    });
  }

  async defer(deliveryId: string, jobId: string, until: Date): Promise<void> {
    const nextJob = randomUUID();
    await this.db.$transaction(async (tx) => {
      // The new job owns the row only if the old one still did: a stale duplicate defers nothing.
      const { count } = await tx.webhookDelivery.updateMany({
        where: { id: deliveryId, jobId, deliveredAt: null, gaveUpAt: null },
        data: { jobId: nextJob, nextAttemptAt: until },
      });
      if (count === 1) await this.queue.enqueue(tx, [{ id: nextJob, deliveryId, startAfter: until }]);
    });
  }

  /** Messages not yet delivered nor given up, every tenant (the queue-depth gauge). */
  pending(): Promise<number> {
    return this.db.webhookDelivery.count({ where: { nextAttemptAt: { not: null } } });
  }
}
