/**
 * The scheduler (docs/decisions/0010): on every app node, a loop that, while this node
 * leads, starts each tenant's scheduled shifts. Leading takes a lock (Redis) and a term
 * (PostgreSQL, only ever raised); a start carries the term, and PostgreSQL refuses it when
 * a newer leader was elected since, so a leader that was paused past its lock never starts
 * a slot a second time.
 */
import { StaleLeaderError, type Clock, type LeaderLock, type Logger, type SchedulerStore } from "./ports";
import { pastSlots, type ScheduledSlot } from "./schedule";
import type { ShiftService } from "./shift-service";
import type { Tenant } from "./tenants";

export interface SchedulerDeps {
  lock: LeaderLock;
  store: SchedulerStore;
  shifts: Pick<ShiftService, "startScheduled" | "recordSkip">;
  log: Logger;
  clock: Clock;
  /** A clock that never jumps (performance.now): the lease is timed with it. */
  monotonic: () => number;
  graceMs: number;
}

export class Scheduler {
  /** The term this node leads under; null while it does not lead. */
  private term: number | null = null;
  /** Until when (monotonic ms) the lock surely still is ours: measured from before the last extend. */
  private leaseUntil = 0;
  /** Slots already dealt with by this leader: (tenant, day, slot). */
  private readonly handled = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private acting: Promise<void> | null = null;
  private leadError: string | null = null;
  private stopped = false;
  readonly intervalMs: number;
  private readonly marginMs: number;

  constructor(private readonly deps: SchedulerDeps) {
    // Several extends per time to live; the margin covers the extend's round trip and timer lag.
    this.intervalMs = Math.min(1_000, Math.floor(deps.lock.ttlMs / 4));
    this.marginMs = Math.floor(deps.lock.ttlMs / 5);
  }

  /** True while this node leads and its lease has not run out (what health reports). */
  isLeader(): boolean {
    return this.term !== null && this.deps.monotonic() < this.leaseUntil;
  }

  currentTerm(): number | null {
    return this.term;
  }

  /**
   * Every interval: keep or take the lead; then, while the lease holds and no earlier round
   * is still starting shifts, start what is due. Renewing never waits for the starts, so a
   * slow round (many tenants, a slow database) does not cost the lead.
   */
  start(): void {
    if (this.timer || this.stopped) return;
    const loop = () => {
      this.ticking = this.tick().finally(() => {
        this.ticking = null;
        if (!this.stopped) this.timer = setTimeout(loop, this.intervalMs);
      });
    };
    this.timer = setTimeout(loop, 0);
  }

  /** Stops the loop and releases the lock, so another node leads at once instead of after its expiry. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.ticking;
    await this.acting;
    if (this.term !== null) await this.stepDown("shutting down");
  }

  /** Resolves when the round of starts in progress, if any, is done. */
  async idle(): Promise<void> {
    await this.acting;
  }

  /** One round (see start()); resolves once the lead is settled, not when the starts are done (see idle()). */
  async tick(): Promise<void> {
    try {
      await this.lead();
      this.leadError = null;
    } catch (e) {
      // Once per outage, not every tick while Redis or PostgreSQL is down.
      const err = e instanceof Error ? e.message : String(e);
      if (err !== this.leadError) this.deps.log.error({ err }, "scheduler: could not renew or take the lead");
      this.leadError = err;
      return;
    }
    if (!this.isLeader() || this.acting || this.stopped) return;
    this.acting = this.act()
      .catch((e: unknown) => this.deps.log.error({ err: e instanceof Error ? e.message : String(e) }, "scheduler round failed"))
      .finally(() => {
        this.acting = null;
      });
  }

  private async lead(): Promise<void> {
    const { lock, store, monotonic, log } = this.deps;
    const t0 = monotonic();
    if (this.term !== null) {
      if (await lock.extend()) {
        this.leaseUntil = t0 + lock.ttlMs - this.marginMs;
        return;
      }
      // Expired (a pause, a lost Redis) and maybe taken by another node.
      log.warn({ term: this.term }, "scheduler: lost the leader lock");
      this.term = null;
    }
    if (!(await lock.acquire())) return;
    try {
      this.term = await store.nextTerm();
    } catch (e) {
      await lock.release().catch(() => {});
      throw e;
    }
    this.leaseUntil = t0 + lock.ttlMs - this.marginMs;
    this.handled.clear();
    log.info({ term: this.term }, "scheduler: this node leads");
  }

  private async stepDown(why: string): Promise<void> {
    this.deps.log.warn({ term: this.term, why }, "scheduler: stepping down");
    this.term = null;
    this.leaseUntil = 0;
    await this.deps.lock.release().catch(() => {});
  }

  private async act(): Promise<void> {
    const now = this.deps.clock.now();
    const tenants = await this.deps.store.scheduledTenants();
    if (this.handled.size > 10_000) this.handled.clear();
    for (const tenant of tenants) {
      const slots = pastSlots(tenant, now);
      for (const [i, slot] of slots.entries()) {
        const key = `${tenant.id}|${slot.day}|${slot.slot}`;
        if (this.handled.has(key)) continue;
        // The lease is checked before every write; the term in PostgreSQL covers the rest.
        if (!this.isLeader() || this.term === null) return;
        try {
          await this.handle(tenant, slot, i === 0, now);
          this.handled.add(key);
        } catch (e) {
          if (e instanceof StaleLeaderError) {
            await this.stepDown(`term ${e.term} is stale (current ${e.currentTerm})`);
            return;
          }
          this.deps.log.error({ tenant: tenant.slug, slot: slot.slot, err: e instanceof Error ? e.message : String(e) }, "scheduled shift failed; retrying");
          // Never fall back to an earlier slot while the latest one is failing.
          break;
        }
      }
    }
  }

  /**
   * Only the latest slot reached may start a shift, and only within the grace period;
   * every earlier slot left over is recorded as skipped (once; not when it did start).
   */
  private async handle(tenant: Tenant, slot: ScheduledSlot, latest: boolean, now: Date): Promise<void> {
    const s = { day: slot.day, slot: slot.slot, slotAt: slot.at, term: this.term! };
    const inGrace = now.getTime() - slot.at.getTime() <= this.deps.graceMs;
    if (latest && inGrace) {
      const r = await this.deps.shifts.startScheduled(tenant, s);
      if (r.created) this.deps.log.info({ tenant: tenant.slug, slot: slot.slot, shift: r.shift?.shift, term: s.term }, "scheduled shift started");
      return;
    }
    await this.deps.shifts.recordSkip(tenant, s, inGrace ? "superseded" : "pastGrace");
  }
}
