/**
 * The webhook attempts' queue: pg-boss on our PostgreSQL (docs/decisions/0013). A job is
 * inserted in the caller's transaction (the outbox row and its job commit together), any
 * node's worker fetches it with SKIP LOCKED (one node per job), and a job whose node died
 * mid-attempt expires and is run again.
 */
import PgBoss from "pg-boss";
import pg from "pg";
import type { Logger } from "@/lib/core/ports";
import type { Tx } from "./prisma.server";

export const WEBHOOK_QUEUE = "webhook-attempt";

/** One node at a time installs pg-boss's schema and the queue: done at once by several nodes, PostgreSQL saw deadlocks. */
const START_LOCK = "nextup:webhook-queue:start";

export interface QueuedAttempt {
  /** The job's id, stored on the delivery row as its owner. */
  id: string;
  deliveryId: string;
  /** Not before; now when null. */
  startAfter: Date | null;
}

/** Runs pg-boss's SQL inside a Prisma interactive transaction. */
export const inTx = (tx: Tx): PgBoss.Db => ({
  executeSql: async (text, values) => ({ rows: await tx.$queryRawUnsafe<unknown[]>(text, ...values.map((v: unknown) => (v === undefined ? null : v))) }),
});

/** Another queue on the same pg-boss (the print queue): created with the webhooks' under the start lock. */
export interface QueueSpec {
  name: string;
  options: Omit<PgBoss.Queue, "name">;
}

export class WebhookQueue {
  /** Shared with the print queue (one pg-boss, one schema, one maintenance). */
  readonly boss: PgBoss;
  private readonly others: QueueSpec[] = [];
  private readonly workers: string[] = [];
  private readonly expireSeconds: number;

  constructor(
    private readonly connectionString: string,
    private readonly opts: { attemptTimeoutMs: number; pollMs: number; log: Logger },
  ) {
    // An attempt's job expires (and is run again) a little after the attempt's own timeout.
    this.expireSeconds = Math.ceil(opts.attemptTimeoutMs / 1000) + 5;
    this.boss = new PgBoss({
      connectionString,
      max: 3,
      schedule: false,
      // Expired jobs (a node killed mid-attempt) are looked for this often, by one node at a time.
      maintenanceIntervalSeconds: Math.max(1, Math.ceil(this.expireSeconds / 2)),
    });
    this.boss.on("error", (e: Error) => opts.log.warn({ err: e.message }, "webhook queue error"));
  }

  /** A queue `start()` creates too. */
  alsoCreate(spec: QueueSpec): void {
    this.others.push(spec);
  }

  /** Installs or upgrades pg-boss's schema (under its own lock) and the queues; before any order is taken. */
  async start(): Promise<void> {
    const lock = new pg.Client({ connectionString: this.connectionString });
    await lock.connect();
    try {
      await lock.query("SELECT pg_advisory_lock(hashtextextended($1, 0))", [START_LOCK]);
      await this.install();
    } finally {
      // Closing the session releases its advisory lock.
      await lock.end().catch(() => {});
    }
  }

  private async install(): Promise<void> {
    await this.boss.start();
    // Retries here only re-run a job that failed inside Nextup (a crash, the database); an
    // endpoint's failures are scheduled by the dispatcher as new jobs (lib/core/webhooks/retry.ts).
    await this.boss.createQueue(WEBHOOK_QUEUE, { name: WEBHOOK_QUEUE, retryLimit: 12, retryDelay: 1, retryBackoff: true, expireInSeconds: this.expireSeconds });
    for (const q of this.others) await this.boss.createQueue(q.name, { name: q.name, ...q.options });
  }

  /** Queues attempts in `tx`: they exist exactly when `tx` commits. */
  async enqueue(tx: Tx, jobs: QueuedAttempt[]): Promise<void> {
    if (jobs.length === 0) return;
    await this.boss.insert(
      jobs.map((j) => ({ id: j.id, name: WEBHOOK_QUEUE, data: { deliveryId: j.deliveryId }, ...(j.startAfter ? { startAfter: j.startAfter } : {}) })),
      { db: inTx(tx) },
    );
  }

  /**
   * `concurrency` polling workers on this node, each running one attempt at a time. A worker
   * that made an attempt fetches again at once (pg-boss would wait out the poll interval after
   * each job: 4 workers made 2 attempts a second, and 300 cleared orders took minutes).
   */
  async work(concurrency: number, attempt: (deliveryId: string, jobId: string) => Promise<void>): Promise<void> {
    for (let i = 0; i < concurrency; i++) {
      let id: string | null = null;
      id = await this.boss.work<{ deliveryId: string }>(
        WEBHOOK_QUEUE,
        { batchSize: 1, pollingIntervalSeconds: Math.max(0.5, this.opts.pollMs / 1000) },
        async ([job]) => {
          if (!job) return;
          await attempt(job.data.deliveryId, job.id);
          // A failed attempt (the database?) waits for the next poll instead.
          if (id) this.boss.notifyWorker(id);
        },
      );
      this.workers.push(id);
    }
  }

  /** Fetch now instead of at the next poll (after a commit that queued attempts). */
  wake(): void {
    for (const id of this.workers) this.boss.notifyWorker(id);
  }

  /** Lets attempts in flight finish (at most `timeoutMs`); the others are run again by another node or after a restart. */
  async stop(timeoutMs = 3_000): Promise<void> {
    await this.boss.stop({ graceful: true, timeout: timeoutMs, wait: true });
  }
}
