/**
 * Prints one printer's waiting tickets, oldest first, one node at a time (decision 0029):
 * a ticket older than the restaurant's give-up age is given up; the printer is asked for
 * its status before each ticket, and a printer that is off, out of paper or open keeps
 * its tickets waiting, in order, until it is back. Each job is fenced by the drain holding it
 * (decision 0033): a drain that was taken over sends nothing more.
 */
import type { Clock, Logger, PrinterLink, PrintLedger, PrintMetrics, PrintTarget, WaitingJob } from "../ports";
import type { EventPublisher } from "../ports/realtime";
import type { PrinterStatus } from "./printers";

/** A printer that says nothing of itself (unknown) may still print: only what it reports stops it. */
export const canPrint = (s: PrinterStatus): boolean => s === "ok" || s === "unknown";

/** How long one drain runs before handing over to a fresh queue job (bounded by the queue's lease). */
export const DRAIN_SLICE_MS = 20_000;

/**
 * What the queue does next: nothing (empty), drain again now (more waiting), later (the printer
 * cannot print), or deferred (its restaurant already has its share of this node's drains).
 */
export type DrainNext = "idle" | "now" | "later" | "deferred";

export interface PrintDrainerDeps {
  ledger: PrintLedger;
  link: PrinterLink;
  events: Pick<EventPublisher, "printersChanged">;
  metrics: PrintMetrics;
  log: Logger;
  clock: Clock;
  /** Drains of one restaurant at once on this node (tenantShare in ../fair-share); unset: no limit. */
  perTenant?: number;
}

export const giveUpReason = (minutes: number) => `not printed within ${minutes} minute${minutes === 1 ? "" : "s"}`;

/** A job taken over mid-send: its bytes may have printed, and a ticket prints at most once (decision 0033). */
export const MAYBE_PRINTED = "may have printed: the node sending it stopped; print it again if the customer has no ticket";

export class PrintDrainer {
  /** This node's drains in flight, per restaurant. */
  private readonly running = new Map<string, number>();

  constructor(
    private readonly deps: PrintDrainerDeps,
    /** A fresh token per drain: a queue job run again (its lease expired) is another drain. */
    private readonly newHolder: () => string = () => crypto.randomUUID(),
  ) {}

  /** Drains `printerId` under a token of its own; another holder means another node is at it. */
  async drain(printerId: string): Promise<DrainNext> {
    const { ledger } = this.deps;
    const target = await ledger.target(printerId);
    if (!target) return "idle";
    // Taken before the printer is held: a restaurant whose printers never answer holds at most its share of the workers.
    const tenant = target.tenantId;
    const running = this.running.get(tenant) ?? 0;
    if (running >= (this.deps.perTenant ?? Infinity)) return "deferred";
    this.running.set(tenant, running + 1);
    try {
      const holder = this.newHolder();
      if (!(await ledger.hold(printerId, holder))) return "later";
      try {
        return await this.run(target, printerId, holder);
      } finally {
        await ledger.release(printerId, holder);
      }
    } finally {
      const left = (this.running.get(tenant) ?? 1) - 1;
      if (left > 0) this.running.set(tenant, left);
      else this.running.delete(tenant);
    }
  }

  /** Every ledger write is conditional on `holder`: one that finds another holder stops the drain before another byte is sent. */
  private async run(target: PrintTarget, printerId: string, holder: string): Promise<DrainNext> {
    const { ledger, link, events, metrics, log, clock } = this.deps;
    const started = clock.now().getTime();
    let changed = false;
    const lost = (job: WaitingJob): DrainNext => {
      log.warn({ tenantId: target.tenantId, printer: target.name, job: job.id }, "print job taken over by another drain");
      return "later";
    };
    try {
      for (;;) {
        if (clock.now().getTime() - started > DRAIN_SLICE_MS) return "now";
        // Renewed before each ticket; lost (this node stalled past it), another drain has the printer now.
        if (!(await ledger.hold(printerId, holder))) return "later";
        const job = await ledger.claim(printerId, holder);
        const now = clock.now();
        if (!job) {
          // After the last ticket: what the printer says now (paper may have run out on it).
          if (await this.checkStatus(target)) changed = true;
          return "idle";
        }
        const tooOld = now.getTime() - job.createdAt.getTime() > target.giveUpMinutes * 60_000;
        if (job.state === "sending" || tooOld) {
          const why = job.state === "sending" ? MAYBE_PRINTED : giveUpReason(target.giveUpMinutes);
          if (!(await ledger.gaveUp(job.id, holder, now, why))) return lost(job);
          metrics.job("gave_up");
          log.warn({ tenantId: target.tenantId, printer: target.name, job: job.id, why }, "print job given up");
          changed = true;
          continue;
        }
        // One lookup for the step: the status query and the ticket go to the same checked address.
        const reached = await link.reach(target);
        const status = reached.ok ? await reached.printer.status() : { status: "offline" as const, error: reached.error };
        if (await ledger.setStatus(printerId, status.status, status.error, clock.now())) changed = true;
        if (!reached.ok || !canPrint(status.status)) {
          if (!(await this.wait(job, holder, status.error ?? status.status))) return lost(job);
          // Out of paper or open, it answered: a person is at it. Off or unreachable: it backs off.
          if (status.status === "offline") await ledger.unanswered(printerId);
          return "later";
        }
        // The fence before the bytes: what the printer printed cannot be taken back.
        if (!(await ledger.sending(job.id, holder))) return lost(job);
        const sent = await reached.printer.print(job);
        if (!sent.ok) {
          const kept = await this.wait(job, holder, sent.error);
          // Not taken: the printer is offline for the cashier (its ticket waits), in the one sentence of decision 0040; it backs off (0039).
          if (await ledger.setStatus(printerId, "offline", sent.error, clock.now())) changed = true;
          if (!kept) return lost(job);
          await ledger.unanswered(printerId);
          return "later";
        }
        if (!(await ledger.printed(job.id, holder, clock.now()))) return lost(job);
        metrics.job("printed");
        changed = true;
      }
    } finally {
      if (changed) events.printersChanged({ id: target.tenantId });
    }
  }

  private async wait(job: WaitingJob, holder: string, why: string): Promise<boolean> {
    if (!(await this.deps.ledger.notPrinted(job.id, holder, why))) return false;
    this.deps.metrics.job("retried");
    return true;
  }

  /** Asks an idle printer how it is; true when that changed. */
  async checkStatus(target: PrintTarget): Promise<boolean> {
    const reached = await this.deps.link.reach(target);
    const status = reached.ok ? await reached.printer.status() : { status: "offline" as const, error: reached.error };
    return this.deps.ledger.setStatus(target.id, status.status, status.error, this.deps.clock.now());
  }
}
