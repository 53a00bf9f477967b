/**
 * What a push service's answer means (decision 0053), and when to try again: a "ready" is
 * worth sending for PUSH_WINDOW_SECONDS from the moment the order was made ready or called
 * again, never later.
 */

/** A stale "ready" is worse than none. */
export const PUSH_WINDOW_SECONDS = 1800;
/** The first retry's delay; each later one doubles it, plus up to 10 % jitter. */
export const PUSH_RETRY_BASE_MS = 1_000;

export type PushOutcome = "delivered" | "gone" | "retrying" | "gave_up" | "expired" | "skipped" | "deferred";

/** Seconds of the window left at `now` (0 when past it): the push's TTL. */
export function ttlSeconds(since: Date, now: Date): number {
  const left = Math.floor((since.getTime() + PUSH_WINDOW_SECONDS * 1000 - now.getTime()) / 1000);
  return Math.max(0, Math.min(PUSH_WINDOW_SECONDS, left));
}

export interface PushAnswer {
  /** HTTP status; null when none came (timeout, refused, DNS). */
  status: number | null;
  /** Retry-After in seconds, when the service sent one. */
  retryAfterSeconds?: number | null;
}

/** The outcome of one attempt and, when retrying, when the next is due. */
export function pushOutcomeOf(
  answer: PushAnswer,
  attempts: number,
  since: Date,
  now: Date,
  random: () => number = Math.random,
): { outcome: Exclude<PushOutcome, "skipped" | "deferred">; nextAt: Date | null } {
  const { status } = answer;
  if (status !== null && status >= 200 && status < 300) return { outcome: "delivered", nextAt: null };
  if (status === 404 || status === 410) return { outcome: "gone", nextAt: null };
  const transient = status === null || status === 429 || status >= 500;
  if (!transient) return { outcome: "gave_up", nextAt: null };
  const backoff = PUSH_RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1) * (1 + 0.1 * random());
  const asked = answer.retryAfterSeconds && answer.retryAfterSeconds > 0 ? answer.retryAfterSeconds * 1000 : 0;
  const nextAt = new Date(now.getTime() + Math.max(backoff, asked));
  // A retry due after the window closes (however it was asked for) would deliver a stale push: give up.
  if (ttlSeconds(since, nextAt) <= 0) return { outcome: "expired", nextAt: null };
  return { outcome: "retrying", nextAt };
}

/** Retry-After as seconds: a number of seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: Date): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}
