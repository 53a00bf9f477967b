/**
 * Issuing queue numbers: the rules, independent of where the counter lives.
 *
 * A tenant's counter is the triple (business day, shift, last number). The fast path is a
 * `FastCounter` (Redis, one atomic script per number); the durable record is the
 * `CounterLedger` (PostgreSQL: shift rows and stored orders). Rules:
 *  - the business day comes from the tenant's own clock rule and only moves forward;
 *  - a new business day starts at shift 1, number 1;
 *  - a manager's new shift starts at its first number (1 by default);
 *  - a counter the fast store has lost is rebuilt from the ledger before any number is
 *    issued again, so a restarted, empty Redis never hands out 1 twice.
 */
import { businessDayAt, expiryFor, type BusinessDay } from "./business-day";
import type { Tenant } from "./tenants";

export interface CounterState {
  businessDay: BusinessDay;
  shift: number;
  /** The last number issued in this shift (first number − 1 when none was issued yet). */
  last: number;
}

export interface IssuedNumber {
  businessDay: BusinessDay;
  shift: number;
  number: number;
}

export interface FastCounter {
  /**
   * Issues the next number for `today` (or for a later day the counter already holds),
   * or returns null when the counter is missing and must be seeded first.
   */
  next(tenantId: string, today: BusinessDay, expireAtMs: number): Promise<IssuedNumber | null>;
  /**
   * Moves the counter forward to `state` (a later day, a later shift, or a higher last
   * number): rebuilds a lost counter, starts a new shift. Never moves it backwards;
   * returns false when the counter already was at or past `state`.
   */
  advance(tenantId: string, state: CounterState, expireAtMs: number): Promise<boolean>;
}

export interface CounterLedger {
  /** The durable state of `day`: its latest shift and the highest number stored in it. */
  snapshot(tenantId: string, day: BusinessDay): Promise<CounterState>;
}

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** Spread of key expiry across tenants: 1 to 4 hours after the earliest safe moment. */
export function expiryJitterMs(tenantId: string): number {
  let h = 0;
  for (let i = 0; i < tenantId.length; i++) h = (h * 31 + tenantId.charCodeAt(i)) >>> 0;
  return 3_600_000 + (h % (3 * 3_600_000));
}

export class NumberIssuer {
  constructor(
    private readonly fast: FastCounter,
    private readonly ledger: CounterLedger,
    private readonly clock: Clock = systemClock,
  ) {}

  today(tenant: Tenant): BusinessDay {
    return businessDayAt(this.clock.now(), tenant);
  }

  expiry(tenant: Tenant, day: BusinessDay): number {
    return expiryFor(day, expiryJitterMs(tenant.id));
  }

  async issue(tenant: Tenant): Promise<IssuedNumber> {
    const today = this.today(tenant);
    const expireAt = this.expiry(tenant, today);
    const issued = await this.fast.next(tenant.id, today, expireAt);
    if (issued) return issued;
    // The counter is gone (Redis restarted empty, key evicted or expired): rebuild it
    // from what PostgreSQL knows, then issue. Seeding never lowers a counter another
    // node restored first.
    const state = await this.ledger.snapshot(tenant.id, today);
    await this.fast.advance(tenant.id, state, expireAt);
    const retried = await this.fast.next(tenant.id, today, expireAt);
    if (!retried) throw new Error("Counter vanished again right after it was seeded");
    return retried;
  }
}
