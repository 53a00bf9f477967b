/**
 * Prints one printer's waiting tickets, oldest first, one node at a time (decision 0029):
 * a ticket older than the restaurant's give-up age is given up; the printer is asked for
 * its status before each ticket, and a printer that is off, out of paper or open keeps
 * its tickets waiting, in order, until it is back.
 */
import type { Clock, Logger, PrinterLink, PrintLedger, PrintMetrics, PrintTarget, WaitingJob } from "../ports";
import type { EventPublisher } from "../ports/realtime";
import type { PrinterStatus } from "./printers";

/** A printer that says nothing of itself (unknown) may still print: only what it reports stops it. */
export const canPrint = (s: PrinterStatus): boolean => s === "ok" || s === "unknown";

/** How long one drain runs before handing over to a fresh queue job (bounded by the queue's lease). */
export const DRAIN_SLICE_MS = 20_000;

/** What the queue does next: nothing (empty), drain again now (more waiting), or later (the printer cannot print). */
export type DrainNext = "idle" | "now" | "later";

export interface PrintDrainerDeps {
  ledger: PrintLedger;
  link: PrinterLink;
  events: Pick<EventPublisher, "printersChanged">;
  metrics: PrintMetrics;
  log: Logger;
  clock: Clock;
}

const giveUpReason = (minutes: number) => `not printed within ${minutes} minute${minutes === 1 ? "" : "s"}`;

export class PrintDrainer {
  constructor(private readonly deps: PrintDrainerDeps) {}

  /** Drains `printerId` as `owner` (the queue job); another holder means another node is at it. */
  async drain(printerId: string, owner: string): Promise<DrainNext> {
    const { ledger } = this.deps;
    const target = await ledger.target(printerId);
    if (!target) return "idle";
    if (!(await ledger.hold(printerId, owner))) return "later";
    try {
      return await this.run(target, printerId, owner);
    } finally {
      await ledger.release(printerId, owner);
    }
  }

  private async run(target: PrintTarget, printerId: string, owner: string): Promise<DrainNext> {
    const { ledger, link, events, metrics, log, clock } = this.deps;
    const started = clock.now().getTime();
    let changed = false;
    try {
      for (;;) {
        // Renewed before each ticket; lost (this node stalled past it), another drain has the printer now.
        if (!(await ledger.hold(printerId, owner))) return "later";
        const job = await ledger.next(printerId);
        const now = clock.now();
        if (!job) {
          // After the last ticket: what the printer says now (paper may have run out on it).
          if (await this.checkStatus(target)) changed = true;
          return "idle";
        }
        if (now.getTime() - job.createdAt.getTime() > target.giveUpMinutes * 60_000) {
          await ledger.gaveUp(job.id, now, giveUpReason(target.giveUpMinutes));
          metrics.job("gave_up");
          log.warn({ tenantId: target.tenantId, printer: target.name, job: job.id }, "print job given up");
          changed = true;
          continue;
        }
        if (now.getTime() - started > DRAIN_SLICE_MS) return "now";
        const status = await link.status(target);
        if (await ledger.setStatus(printerId, status.status, status.error, clock.now())) changed = true;
        if (!canPrint(status.status)) {
          await this.wait(job, status.error ?? status.status);
          return "later";
        }
        await ledger.sending(job.id);
        const sent = await link.print(target, job);
        if (!sent.ok) {
          await this.wait(job, sent.error);
          if (await ledger.setStatus(printerId, "offline", sent.error, clock.now())) changed = true;
          return "later";
        }
        await ledger.printed(job.id, clock.now());
        metrics.job("printed");
        changed = true;
      }
    } finally {
      if (changed) events.printersChanged({ id: target.tenantId });
    }
  }

  private async wait(job: WaitingJob, why: string): Promise<void> {
    await this.deps.ledger.notPrinted(job.id, why);
    this.deps.metrics.job("retried");
  }

  /** Asks an idle printer how it is; true when that changed. */
  async checkStatus(target: PrintTarget): Promise<boolean> {
    const status = await this.deps.link.status(target);
    return this.deps.ledger.setStatus(target.id, status.status, status.error, this.deps.clock.now());
  }
}
