/**
 * When a message is tried again: exponential backoff from a base (5 s in production),
 * doubling after each failed attempt, plus up to 10 % jitter, for MAX_ATTEMPTS attempts —
 * 22.75–25.03 hours from the first attempt to the last with the default base — then the
 * message is given up. The delay is counted from the end of the failed attempt.
 */

/** Attempts per message, the first included. */
export const MAX_ATTEMPTS = 15;

/** Spread of each delay (up to +10 %), so endpoints that failed together are not retried in one burst. */
const JITTER = 0.1;

/** The delay before attempt `failed + 1`, after `failed` (≥ 1) attempts failed; null when none is left. */
export function retryDelayMs(failed: number, baseMs: number, random: () => number = Math.random): number | null {
  if (failed >= MAX_ATTEMPTS) return null;
  const delay = baseMs * 2 ** (failed - 1);
  return Math.round(delay * (1 + JITTER * random()));
}

/** What an attempt answered: an HTTP status, or no answer at all (timeout, refused, DNS). */
export interface AttemptResult {
  status: number | null;
  /** What the deliveries show the restaurant. */
  error: string | null;
  /** The error in full, for the server's log only, when `error` says less (a private destination). */
  detail?: string;
}

export type AttemptOutcome = "delivered" | "retrying" | "gave_up";

/** A 2xx ends a message; anything else is tried again while attempts are left. */
export function outcomeOf(
  result: AttemptResult,
  attempts: number,
  baseMs: number,
  now: Date,
  random?: () => number,
): { outcome: AttemptOutcome; nextAttemptAt: Date | null } {
  if (result.status !== null && result.status >= 200 && result.status < 300) return { outcome: "delivered", nextAttemptAt: null };
  const delay = retryDelayMs(attempts, baseMs, random);
  if (delay === null) return { outcome: "gave_up", nextAttemptAt: null };
  return { outcome: "retrying", nextAttemptAt: new Date(now.getTime() + delay) };
}

/** Where a message stands, for the console: delivered, given up, waiting for a retry, or not tried yet. */
export function deliveryState(d: { attempts: number; deliveredAt: Date | null; gaveUpAt: Date | null }): "delivered" | "gaveUp" | "retrying" | "waiting" {
  if (d.deliveredAt) return "delivered";
  if (d.gaveUpAt) return "gaveUp";
  return d.attempts > 0 ? "retrying" : "waiting";
}
