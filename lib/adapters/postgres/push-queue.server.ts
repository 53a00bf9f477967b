/**
 * The push queue (decision 0053). A PushDelivery row is written by the statement that made
 * the order ready (or called it again); this relay queues it: right after that commit on the
 * node that made it (`kick`), and every PUSH_SWEEP_MS on every node for rows still unqueued
 * (a node killed -9 between commit and queueing). Queueing is one transaction: set jobId
 * where it is still null, and insert that job — so each row is queued by exactly one node.
 */
import type PgBoss from "pg-boss";
import type { Logger } from "@/lib/core/ports";
import { inTx, type QueueSpec } from "./webhook-queue.server";
import type { Db, Tx } from "./prisma.server";

export const PUSH_QUEUE = "push-send";

/** A node that died mid-send: its job is run again after this (the send's own timeout is shorter). */
export const PUSH_EXPIRE_SECONDS = 20;

/** How often each node queues deliveries left unqueued and prunes finished ones. */
export const PUSH_SWEEP_MS = 3_000;

const QUEUE_BATCH = 200;
/** Subscriptions of orders finished (collected, cancelled, cleared) more than this long ago are deleted, with their deliveries. */
const KEEP_FINISHED_HOURS = 24;
const PRUNE_EVERY_SWEEPS = 200;

export const PUSH_QUEUE_SPEC: QueueSpec = {
  name: PUSH_QUEUE,
  // Retries here only re-run a job that failed inside Nextup (the database); a push service's failures are new jobs (push-retry.ts).
  options: { retryLimit: 20, retryDelay: 1, retryBackoff: true, expireInSeconds: PUSH_EXPIRE_SECONDS },
};

export const pushJob = (jobId: string, deliveryId: string, startAfter?: Date | null) => ({
  id: jobId,
  name: PUSH_QUEUE,
  data: { deliveryId },
  ...(startAfter ? { startAfter } : {}),
});

export class PushQueue {
  private readonly workers: string[] = [];
  private sweep: ReturnType<typeof setInterval> | undefined;
  private running = false;
  private stopped = false;
  private asked = { sweep: false, prune: false, any: false };
  private sweeps = 0;

  constructor(
    private readonly boss: PgBoss,
    private readonly db: Db,
    private readonly log: Logger,
  ) {}

  /** Inserts jobs in `tx`: they exist exactly when `tx` commits. */
  async enqueue(tx: Tx, jobs: ReturnType<typeof pushJob>[]): Promise<void> {
    if (jobs.length > 0) await this.boss.insert(jobs, { db: inTx(tx) });
  }

  /** Queues every delivery not yet queued; returns how many this node queued. */
  async queueWaiting(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.db.$transaction(async (tx) => {
        const rows = await tx.$queryRaw<{ id: string; jobId: string }[]>`
          UPDATE "PushDelivery" d SET "jobId" = gen_random_uuid()
          WHERE d.id IN (
            SELECT id FROM "PushDelivery" WHERE "jobId" IS NULL AND outcome IS NULL ORDER BY "createdAt" LIMIT ${QUEUE_BATCH} FOR UPDATE SKIP LOCKED
          ) AND d."jobId" IS NULL
          RETURNING d.id::text AS id, d."jobId"::text AS "jobId"`;
        await this.enqueue(
          tx,
          rows.map((r) => pushJob(r.jobId, r.id)),
        );
        return rows.length;
      });
      total += n;
      if (n < QUEUE_BATCH) break;
    }
    if (total > 0) for (const id of this.workers) this.boss.notifyWorker(id);
    return total;
  }

  /** After a commit that may have written deliveries: queue them now, not at the next sweep. */
  kick(): void {
    this.run({ sweep: false });
  }

  /**
   * One run at a time on a node; what is asked meanwhile is done once after it (a burst of
   * ready orders makes one more run, not one each). A sweep also backfills and, now and then, prunes.
   */
  private run(ask: { sweep: boolean; prune?: boolean }): void {
    if (this.stopped) return;
    this.asked = { sweep: this.asked.sweep || ask.sweep, prune: this.asked.prune || !!ask.prune, any: true };
    if (this.running) return;
    this.running = true;
    void (async () => {
      while (this.asked.any) {
        const { sweep, prune } = this.asked;
        this.asked = { sweep: false, prune: false, any: false };
        try {
          if (sweep) await backfillReady(this.db);
          await this.queueWaiting();
          if (prune) await prunePush(this.db);
        } catch (e) {
          this.log.warn({ err: e instanceof Error ? e.message : String(e) }, "push sweep failed");
        }
      }
      this.running = false;
    })();
  }

  /** `concurrency` workers on this node, and the sweep. */
  async work(concurrency: number, attempt: (deliveryId: string, jobId: string) => Promise<void>): Promise<void> {
    for (let i = 0; i < concurrency; i++) {
      let id: string | null = null;
      id = await this.boss.work<{ deliveryId: string }>(PUSH_QUEUE, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async ([job]) => {
        if (!job) return;
        await attempt(job.data.deliveryId, job.id);
        if (id) this.boss.notifyWorker(id);
      });
      this.workers.push(id);
    }
    const tick = () => this.run({ sweep: true, prune: this.sweeps++ % PRUNE_EVERY_SWEEPS === 0 });
    tick();
    this.sweep = setInterval(tick, PUSH_SWEEP_MS);
    this.sweep.unref();
  }

  /** Fetch now (a retry or deferral queued a job). */
  wake(): void {
    for (const id of this.workers) this.boss.notifyWorker(id);
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.sweep);
  }
}

/** Deletes subscriptions (and so their deliveries) of orders finished over a day ago. */
export function prunePush(db: Db): Promise<number> {
  return db.$executeRaw`
    DELETE FROM "PushSubscription" WHERE id IN (
      SELECT s.id FROM "PushSubscription" s JOIN "Order" o ON o.id = s."orderId"
      WHERE (o.status IN ('COLLECTED', 'CANCELLED') OR o."clearedAt" IS NOT NULL)
        AND GREATEST(o."collectedAt", o."cancelledAt", o."clearedAt") < now() - make_interval(hours => ${KEEP_FINISHED_HOURS})
      LIMIT 5000)`;
}

/**
 * Every subscription of a ready order has its "ready" push: one made while the order was
 * ready (or whose subscribe raced the move's statement) gets it here, from the sweep.
 */
export function backfillReady(db: Db): Promise<number> {
  return db.$executeRaw`
    INSERT INTO "PushDelivery" (id, "tenantId", "subscriptionId", "orderId", kind, since)
    SELECT gen_random_uuid(), s."tenantId", s.id, s."orderId", 'ready', o."readyAt"
    FROM "PushSubscription" s JOIN "Order" o ON o.id = s."orderId"
    WHERE o.status = 'READY' AND o."clearedAt" IS NULL AND o."readyAt" IS NOT NULL
      AND s."createdAt" < now() - interval '1 second'
      AND o."readyAt" > now() - interval '30 minutes'
      AND NOT EXISTS (SELECT 1 FROM "PushDelivery" d WHERE d."subscriptionId" = s.id)
    ON CONFLICT DO NOTHING`;
}
