/**
 * Issuing queue numbers: the rules, independent of where the counter lives (its two sides,
 * FastCounter and CounterLedger, are ports: lib/core/ports/counter.ts).
 * Design and reasoning: docs/decisions/0028-numbers-across-a-database-failover.md.
 *
 * A tenant's numbers live in (business day, shift). PostgreSQL holds the durable
 * **ceiling** of each (tenant, day, shift): every number at or below it has been handed
 * out, either in a block reserved for Redis or directly by the database fallback. Nobody
 * ever hands out a number at or below a ceiling twice, so:
 *  - Redis issues from its reserved block in one atomic script (the fast path);
 *  - a counter Redis has lost (restart, eviction, failover) restarts above the ceiling;
 *  - while Redis is unreachable, the database issues `ceiling + 1` itself;
 *  - Redis coming back with a stale block only issues numbers of that block, which the
 *    database never handed out again.
 *  - a database that forgot its last ceilings (a failover to a standby that missed writes)
 *    reserves above the end of Redis's block (the floor), and jumps when its timeline changes.
 * What a fault costs is the unused rest of the reserved blocks: at most
 * BLOCK_SIZE + LOW_WATER = 50 numbers per fault, and none without one.
 */
import { businessDayAt, expiryFor, type BusinessDay } from "./business-day";
import {
  CounterUnavailableError,
  counterName,
  type Clock,
  type CounterId,
  type CounterLedger,
  type FastCounter,
  type IssuedNumber,
  type Logger,
} from "./ports";
import type { Tenant } from "./tenants";

/** Numbers reserved per block. */
export const BLOCK_SIZE = 40;
/** Reserve the next block when fewer than this many numbers are left in the current one. */
export const LOW_WATER = 10;
/** Upper bound of numbers one fault can skip: a block in reserve plus the rest of the current one. */
export const MAX_SKIPPED_PER_FAULT = BLOCK_SIZE + LOW_WATER;
/**
 * How long one node may hold the right to reserve the next block before another may. Long
 * enough that a slow reservation is never duplicated (a duplicate block arriving first
 * would make the other one unusable: a gap); a node that dies holding it delays the next
 * block by this much, during which callers take numbers from the database.
 */
export const REFILL_LEASE_MS = 3_000;
/** How many blocks one caller may bring (restore or refill) before it takes its number from the database. */
const MAX_OWN_REFILLS = 3;
/** How long a caller waits for a block someone else is reserving before it takes a number from the database. */
export const REFILL_WAIT_MS = 1_000;

export const systemClock: Clock = { now: () => new Date() };

/** Spread of key expiry across tenants: 1 to 4 hours after the earliest safe moment. */
export function expiryJitterMs(tenantId: string): number {
  let h = 0;
  for (let i = 0; i < tenantId.length; i++) h = (h * 31 + tenantId.charCodeAt(i)) >>> 0;
  return 3_600_000 + (h % (3 * 3_600_000));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What the issuer tells, and waits for, around the ledger (decision 0028). */
export interface IssuerHooks {
  /** A reservation found the ledger below what Redis handed out, by `by` numbers (the metrics count it). */
  ceilingBehind?(tenant: Tenant, by: number): void;
  /**
   * Awaited before numbers come from the ledger alone (Redis down or emptied): nothing else
   * then knows how far numbering went, so a database failover must be found first. Throws
   * (an UnavailableError: 503) when one cannot be ruled out, and no number is drawn (decision 0032).
   */
  beforeLedgerNumbers?(): Promise<void>;
}

export class NumberIssuer {
  constructor(
    private readonly fast: FastCounter,
    private readonly ledger: CounterLedger,
    private readonly clock: Clock = systemClock,
    private readonly log: Pick<Logger, "warn"> = { warn: () => {} },
    private readonly refillWaitMs: number = REFILL_WAIT_MS,
    private readonly hooks: IssuerHooks = {},
  ) {}

  today(tenant: Tenant): BusinessDay {
    return businessDayAt(this.clock.now(), tenant);
  }

  /** The latest expiry computed per tenant: the hot path asks for the same one all day. */
  private expiries = new Map<string, { day: BusinessDay; at: number }>();

  expiry(tenant: Tenant, day: BusinessDay): number {
    const known = this.expiries.get(tenant.id);
    if (known?.day === day) return known.at;
    const at = expiryFor(day, expiryJitterMs(tenant.id));
    this.expiries.set(tenant.id, { day, at });
    return at;
  }

  /** Where numbers come from right now on this node. */
  source(): "redis" | "database" {
    return this.fast.available() ? "redis" : "database";
  }

  /**
   * A number for an order of `tenant` — of its default series, or a ticket of series
   * `seriesId` (decision 0027) — and where it came from (for the metrics).
   */
  async issue(tenant: Tenant, seriesId: string | null = null): Promise<IssuedNumber & { source: "redis" | "database" }> {
    const today = this.today(tenant);
    const counter: CounterId = seriesId === null ? tenant.id : { tenantId: tenant.id, seriesId };
    if (this.fast.available()) {
      try {
        return { ...(await this.issueFast(tenant, counter, today)), source: "redis" };
      } catch (e) {
        if (!(e instanceof CounterUnavailableError)) throw e;
        // fall through: Redis failed during this call
      }
    }
    await this.hooks.beforeLedgerNumbers?.();
    return { ...(await this.ledger.issueDirect(counter, today)), source: "database" };
  }

  private async issueFast(tenant: Tenant, counter: CounterId, today: BusinessDay): Promise<IssuedNumber> {
    const expireAt = this.expiry(tenant, today);
    // A cashier waits at most this long for a block someone else is reserving.
    const deadline = Date.now() + this.refillWaitMs;
    let backoff = 5;
    // Blocks this caller brought itself: a counter that keeps losing them (it never should)
    // sends the caller to the database instead of round after round of reservations.
    let brought = 0;
    for (;;) {
      if (brought >= MAX_OWN_REFILLS) throw new CounterUnavailableError("The counter did not keep the blocks brought to it");
      const r = await this.fast.next(counter, today, this.clock.now().getTime(), expireAt);
      if (r.kind === "issued") {
        if (r.refill) this.track(counter, () => this.refill(tenant, counter, r.issued.businessDay, r.issued.shift, r.reached)).catch(() => {}); // in the background
        return r.issued;
      }
      if (r.kind === "missing" && r.lease) {
        // Redis lost the counter: continue above the durable ceiling.
        brought++;
        await this.track(counter, async () => {
          await this.hooks.beforeLedgerNumbers?.();
          const block = await this.ledger.reserveCurrent(counter, today, BLOCK_SIZE);
          await this.fast.restore(counter, block, this.expiry(tenant, block.businessDay));
          const series = typeof counter === "string" ? undefined : counter.seriesId;
          this.log.warn(
            { tenant: tenant.slug, series, businessDay: block.businessDay, shift: block.shift, from: block.lo + 1 },
            "counter restored from the database",
          );
        });
      } else if (r.kind === "empty" && r.lease) {
        brought++;
        await this.track(counter, () => this.refill(tenant, counter, r.businessDay, r.shift, r.reached));
      } else {
        // Someone else is bringing the next block: on this node, wait for that work (no
        // polling); on another node, poll with backoff. Either way at most until the deadline.
        if (Date.now() > deadline) throw new CounterUnavailableError("No block of numbers arrived in time");
        const mine = this.pending.get(counterName(counter));
        if (mine) await Promise.race([mine.catch(() => {}), sleep(deadline + 1 - Date.now())]);
        else {
          await sleep(backoff);
          backoff = Math.min(backoff * 2, 50);
        }
      }
    }
  }

  /** Work on a counter that this node's other callers can wait for. */
  private pending = new Map<string, Promise<void>>();

  private track(counter: CounterId, work: () => Promise<void>): Promise<void> {
    const name = counterName(counter);
    const p = work().finally(() => {
      if (this.pending.get(name) === p) this.pending.delete(name);
    });
    this.pending.set(name, p);
    return p;
  }

  /**
   * Reserves the next block of (day, shift) above `reached`, the end of Redis's current block,
   * and hands it to the fast counter. A ledger found below `reached` forgot blocks (a
   * database failover lost its last writes): said, and counted (decision 0028).
   */
  private async refill(tenant: Tenant, counter: CounterId, day: BusinessDay, shift: number, reached: number): Promise<void> {
    try {
      const block = await this.ledger.reserve(counter, day, shift, BLOCK_SIZE, reached);
      if (block.ceilingBehind) {
        const series = typeof counter === "string" ? undefined : counter.seriesId;
        this.log.warn(
          { tenant: tenant.slug, series, businessDay: day, shift, reached, behind: block.ceilingBehind },
          "the database had forgotten numbers Redis handed out (a failover lost its last writes?): the next block starts above them",
        );
        this.hooks.ceilingBehind?.(tenant, block.ceilingBehind);
      }
      const expireAt = this.expiry(tenant, block.businessDay);
      if (block.shift !== shift || block.businessDay !== day) {
        // A shift was started where Redis could not hear of it: move Redis there.
        await this.fast.restore(counter, block, expireAt);
      } else {
        await this.fast.addBlock(counter, block, expireAt);
      }
    } catch (e) {
      // The lease runs out and another caller retries; a caller waiting on this block
      // falls back to the database if none arrives.
      this.log.warn({ err: e instanceof Error ? e.message : String(e), tenant: tenant.slug }, "could not reserve the next block of numbers");
      throw e;
    }
  }

  /**
   * Called when the database refused a number as already stored (a replica that missed
   * writes was promoted, or a restore raced an in-flight order): abandon the block so the
   * next number comes from above the ceiling.
   */
  async distrust(tenant: Tenant, issued: IssuedNumber, seriesId: string | null = null): Promise<void> {
    if (!this.fast.available()) return;
    const counter: CounterId = seriesId === null ? tenant.id : { tenantId: tenant.id, seriesId };
    // A reserve above every stored number is fresh (a refill after a failover): keep it.
    const storedUpTo = await this.ledger.highestStored(counter, issued.businessDay, issued.shift).catch(() => Infinity);
    await this.fast.burn(counter, issued, storedUpTo).catch(() => {});
  }

  /**
   * Moves the counter of series `seriesId` to a new shift with nothing in it: its next caller
   * reserves the shift's first tickets (ticket 1 on). False when Redis did not take it.
   */
  async startSeriesShift(tenant: Tenant, seriesId: string, day: BusinessDay, shift: number): Promise<boolean> {
    const empty = { businessDay: day, shift, lo: 0, hi: 0 };
    return this.fast.restore({ tenantId: tenant.id, seriesId }, empty, this.expiry(tenant, day));
  }
}
