/**
 * The print queue (decision 0029): a pg-boss job says "drain printer P". It is inserted in
 * the transaction that writes a print job (the order's own), at most one waits per printer
 * (policy `short`, keyed by printer), and whichever node fetches it prints that printer's
 * tickets in order while it holds the printer (PrintLedger.hold). A sweep re-queues
 * printers whose tickets wait with no queue job (a node killed mid-drain, a lost wake-up).
 */
import type PgBoss from "pg-boss";
import type { Logger } from "@/lib/core/ports";
import type { DrainNext } from "@/lib/core/printing/print-drainer";
import { inTx, type QueueSpec } from "./webhook-queue.server";
import type { Db, Tx } from "./prisma.server";

export const PRINT_QUEUE = "print-drain";

/** While a printer cannot print, its queue job comes back this often; one that does not answer, after twice as long each time up to PRINT_BACKOFF_MAX_MS (decision 0039). */
export const PRINT_RETRY_MS = 3_000;
export const PRINT_BACKOFF_MAX_MS = 60_000;

/** A drain taken beyond its restaurant's share of a node's workers comes back after this (decision 0039). */
export const PRINT_DEFER_MS = 2_000;

/** A node that died mid-drain: its queue job is run again after this. */
export const PRINT_EXPIRE_SECONDS = 40;

/**
 * A drain holds its printer this long, renewed before each ticket: a node that died holding
 * it lets go within this. Every wait of a step is bounded well inside it (PRINTER_STEP_MAX_MS,
 * tcp-printer.server.ts); a node that stalls past it anyway is fenced by the job's holder
 * (decision 0033), not by this timer.
 */
export const PRINT_HOLD_SECONDS = 20;

/** How often each node looks for printers whose tickets wait without a queue job, and checks idle printers. */
export const PRINT_SWEEP_MS = 15_000;

/** Printed and given-up jobs are kept this long (the console's recent jobs, a reprint's history), then deleted. */
export const PRINT_JOBS_KEPT_DAYS = 7;

/** Every this many sweeps a node deletes a batch of jobs past PRINT_JOBS_KEPT_DAYS (about every 10 minutes). */
const PRUNE_EVERY_SWEEPS = 40;
const PRUNE_BATCH = 5_000;

export const PRINT_QUEUE_SPEC: QueueSpec = {
  name: PRINT_QUEUE,
  options: { policy: "short", retryLimit: 1_000, retryDelay: PRINT_RETRY_MS / 1000, expireInSeconds: PRINT_EXPIRE_SECONDS },
};

const drainJob = (printerId: string, startAfter?: Date) => ({
  name: PRINT_QUEUE,
  data: { printerId },
  singletonKey: printerId,
  ...(startAfter ? { startAfter } : {}),
});

export class PrintQueue {
  private readonly workers: string[] = [];
  private sweep: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly boss: PgBoss,
    private readonly db: Db,
    private readonly log: Logger,
  ) {}

  /** Queues a drain of `printerId` in `tx` (a drain already waiting makes this one redundant). */
  async wakeIn(tx: Tx, printerId: string): Promise<void> {
    await this.boss.insert([drainJob(printerId)], { db: inTx(tx) });
  }

  /** Queues a drain of `printerId` now, or at `after`. */
  async wake(printerId: string, after?: Date): Promise<void> {
    await this.boss.insert([drainJob(printerId, after)]);
  }

  /** After a commit that queued a drain: this node's workers fetch at once. */
  poke(): void {
    for (const id of this.workers) this.boss.notifyWorker(id);
  }

  /**
   * `concurrency` workers on this node; each drain says what comes next. `idle`: each sweep
   * also asks idle printers how they are (`checkIdle`).
   */
  async work(concurrency: number, drain: (printerId: string) => Promise<DrainNext>, checkIdle: () => Promise<void>): Promise<void> {
    for (let i = 0; i < concurrency; i++) {
      const id = await this.boss.work<{ printerId: string }>(PRINT_QUEUE, { batchSize: 1, pollingIntervalSeconds: 1 }, async ([job]) => {
        if (!job) return;
        const next = await drain(job.data.printerId);
        if (next === "now") await this.wake(job.data.printerId);
        else if (next === "later") await this.wake(job.data.printerId, await this.retryAt(job.data.printerId));
        else if (next === "deferred") await this.wake(job.data.printerId, new Date(Date.now() + PRINT_DEFER_MS));
      });
      this.workers.push(id);
    }
    // One sweep at a time: printers that never answer make one last longer than the interval.
    let sweeping = false;
    let sweeps = 0;
    const tick = () => {
      if (sweeping) return;
      sweeping = true;
      const prune = sweeps++ % PRUNE_EVERY_SWEEPS === 0;
      this.requeueWaiting()
        .then(checkIdle)
        .then(() => (prune ? pruneOldPrintJobs(this.db, PRINT_JOBS_KEPT_DAYS) : 0))
        .catch((e: unknown) => this.log.warn({ err: e instanceof Error ? e.message : String(e) }, "print sweep failed"))
        .finally(() => (sweeping = false));
    };
    tick();
    this.sweep = setInterval(tick, PRINT_SWEEP_MS);
    this.sweep.unref();
  }

  /** When a printer that could not print is tried again: after PRINT_RETRY_MS, or its backoff's `retryAt` if later. */
  private async retryAt(printerId: string): Promise<Date> {
    const [row] = await this.db.$queryRaw<{ at: Date }[]>`
      SELECT GREATEST("retryAt", now() + make_interval(secs => ${PRINT_RETRY_MS / 1000})) AS "at" FROM "Printer" WHERE "id" = ${printerId}::uuid`;
    return row?.at ?? new Date(Date.now() + PRINT_RETRY_MS);
  }

  /** Every printer with a waiting ticket and no one printing it gets a drain (deduplicated by the queue), once its backoff is over. */
  private async requeueWaiting(): Promise<void> {
    const rows = await this.db.$queryRaw<{ printerId: string }[]>`
      SELECT DISTINCT j."printerId"::text AS "printerId" FROM "PrintJob" j JOIN "Printer" p ON p.id = j."printerId"
      WHERE j.state IN ('queued', 'printing') AND (p."drainingUntil" IS NULL OR p."drainingUntil" < now())
        AND (p."retryAt" IS NULL OR p."retryAt" <= now())`;
    if (rows.length > 0) await this.boss.insert(rows.map((r) => drainJob(r.printerId)));
  }

  stop(): void {
    clearInterval(this.sweep);
  }
}

/** Deletes up to a batch of printed or given-up jobs older than `days` (the database's clock); returns how many. Waiting jobs are never deleted. */
export function pruneOldPrintJobs(db: Db, days: number): Promise<number> {
  return db.$executeRaw`
    DELETE FROM "PrintJob" WHERE "id" IN (
      SELECT "id" FROM "PrintJob" WHERE "state" IN ('printed', 'gaveUp') AND "createdAt" < now() - make_interval(days => ${days}) LIMIT ${PRUNE_BATCH})`;
}
