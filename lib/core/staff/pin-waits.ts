/**
 * How long a wrong PIN makes the next try wait (decision 0051), per person and per address
 * (IPv6 by /64) of a restaurant: from the 5th wrong PIN in a row (an address: the 20th),
 * 30 s, doubling up to 15 minutes.
 * A person's count ends with a right PIN or a day after the last wrong one; an address's an
 * hour after its last wrong one (a shared kitchen tablet sees everybody's typos).
 */

export interface WaitRule {
  /** The wrong PIN in a row after which the first wait starts (5: the 5th). */
  waitFrom: number;
  /** That wait; each further wrong PIN doubles it… */
  firstWaitMs: number;
  /** …up to this. */
  maxWaitMs: number;
  /** The count starts again this long after the last wrong PIN. */
  forgetAfterMs: number;
}

export const PERSON_WAITS: WaitRule = { waitFrom: 5, firstWaitMs: 30_000, maxWaitMs: 15 * 60_000, forgetAfterMs: 24 * 3600_000 };
export const ADDRESS_WAITS: WaitRule = { waitFrom: 20, firstWaitMs: 30_000, maxWaitMs: 15 * 60_000, forgetAfterMs: 3600_000 };

/** A count of wrong PINs as stored (per person, per address). */
export interface PinFailures {
  failures: number;
  lastFailedAt: Date | null;
  waitUntil: Date | null;
}

export const NO_FAILURES: PinFailures = { failures: 0, lastFailedAt: null, waitUntil: null };

/** The count as it stands at `now` (forgotten once old enough). */
export function current(rule: WaitRule, f: PinFailures, now: Date): PinFailures {
  if (f.lastFailedAt && now.getTime() - f.lastFailedAt.getTime() >= rule.forgetAfterMs) return NO_FAILURES;
  return f;
}

/** Milliseconds until a try is allowed (0: now). */
export function waitLeft(rule: WaitRule, f: PinFailures, now: Date): number {
  const c = current(rule, f, now);
  return c.waitUntil ? Math.max(0, c.waitUntil.getTime() - now.getTime()) : 0;
}

/** The wait after the `n`th wrong PIN in a row: none before `waitFrom`, then 30 s, 60 s, … up to the cap. */
export function waitAfter(rule: WaitRule, n: number): number {
  if (n < rule.waitFrom) return 0;
  return Math.min(rule.maxWaitMs, rule.firstWaitMs * 2 ** Math.min(30, n - rule.waitFrom));
}

/** The count after one more wrong PIN at `now`. */
export function afterWrongPin(rule: WaitRule, f: PinFailures, now: Date): PinFailures {
  const failures = current(rule, f, now).failures + 1;
  const wait = waitAfter(rule, failures);
  return { failures, lastFailedAt: now, waitUntil: wait ? new Date(now.getTime() + wait) : null };
}
