/**
 * "About 6–9 min": how long an order still being prepared will likely take, from the
 * restaurant's own last hour (decision 0052). Pure: the caller hands in the history, the
 * order's placement, how many orders are ahead of it (queue-position.ts) and the time.
 *
 * Two bounds, each the later of two instants:
 * - history: placed + the recency-weighted p50 (low) / p80 (high) of time-to-ready;
 * - queue (only with orders ahead): now + ahead / throughput (low), Little's law read for
 *   one order: the kitchen finishes orders at this rate while busy, and those ahead go
 *   first; the high bound adds the order's own turn, (ahead + 1), at a throughput one
 *   standard error lower (Poisson: 1/√n).
 * A max of functions that never fall as the order is further back keeps the promise that
 * an order behind is never told a shorter wait. Past its own p80 an order is "late".
 */

/** One order made ready: when it was placed and when it first became ready (ms since epoch). */
export interface ReadySample {
  placedAt: number;
  readyAt: number;
}

/** The history looked at: orders made ready in this last stretch. */
export const WAIT_WINDOW_MS = 60 * 60_000;
/** Fewer orders made ready in the window than this: no estimate (never an invented default). */
export const MIN_SAMPLES = 10;
/** An order made ready this long ago weighs half as much as one made ready now. */
export const HALF_LIFE_MS = 20 * 60_000;
/** An order is never "late" sooner than this after it was taken. */
const LATE_AFTER_AT_LEAST_MS = 60_000;
/** The throughput is at most the orders seen per this long, so a few instant orders do not promise a rush rate. */
const MIN_SPAN_MS = 10 * 60_000;

/** What one read of the history says; cacheable for a few seconds (weights are as of `at`). */
export interface WaitSummary {
  /** When it was computed (ms since epoch). */
  at: number;
  /** Orders made ready in the window. */
  samples: number;
  /** Recency-weighted median and 80th percentile of time-to-ready, in ms. */
  p50Ms: number;
  p80Ms: number;
  /** Orders made ready per ms, recency-weighted. */
  perMs: number;
}

/** Remaining whole minutes, low ≤ high; `late`: older than its p80, the page says "taking longer than usual" (low = high = 0). */
export interface WaitEstimate {
  low: number;
  high: number;
  late: boolean;
}

const weightAt = (age: number) => Math.pow(2, -Math.max(0, age) / HALF_LIFE_MS);

/** The smallest value whose cumulative weight reaches q of the total (weighted nearest rank). */
export function weightedQuantile(values: readonly { value: number; weight: number }[], q: number): number {
  if (values.length === 0) throw new RangeError("no values");
  const sorted = [...values].sort((a, b) => a.value - b.value);
  const total = sorted.reduce((s, v) => s + v.weight, 0);
  let cum = 0;
  for (const v of sorted) {
    cum += v.weight;
    if (cum >= q * total - 1e-12) return v.value;
  }
  return sorted[sorted.length - 1]!.value;
}

/** ∫ of the recency weight over [from, to], as seen at `now`. */
function weightedLength(from: number, to: number, now: number): number {
  return (HALF_LIFE_MS / Math.LN2) * (weightAt(now - to) - weightAt(now - from));
}

/**
 * The weighted time the kitchen was busy: while at least one of these orders was being
 * prepared, within the window. An idle stretch (no orders) is not a slow kitchen: counting
 * it would make one order ahead in a quiet hour look like a long wait.
 */
function busyExposure(samples: readonly ReadySample[], now: number): number {
  const from = now - WAIT_WINDOW_MS;
  const spans = samples.map((s) => [Math.max(from, s.placedAt), s.readyAt] as const).sort((a, b) => a[0] - b[0]);
  let total = 0;
  let [start, end] = [-Infinity, -Infinity];
  for (const [a, b] of spans) {
    if (a > end) {
      if (end > start) total += weightedLength(start, end, now);
      [start, end] = [a, b];
    } else end = Math.max(end, b);
  }
  if (end > start) total += weightedLength(start, end, now);
  return total;
}

/**
 * The summary of the orders made ready in the window ending at `now`; null under MIN_SAMPLES.
 * Samples outside the window (or made ready before they were placed) are ignored.
 */
export function summarizeWaits(history: readonly ReadySample[], now: number): WaitSummary | null {
  const recent = history.filter((s) => s.readyAt <= now && s.readyAt > now - WAIT_WINDOW_MS && s.readyAt >= s.placedAt);
  if (recent.length < MIN_SAMPLES) return null;
  const weighted = recent.map((s) => ({ value: s.readyAt - s.placedAt, weight: weightAt(now - s.readyAt) }));
  const exposure = busyExposure(recent, now);
  const rate = exposure > 0 ? weighted.reduce((s, w) => s + w.weight, 0) / exposure : Infinity;
  return {
    at: now,
    samples: recent.length,
    p50Ms: weightedQuantile(weighted, 0.5),
    p80Ms: weightedQuantile(weighted, 0.8),
    perMs: Math.min(rate, recent.length / MIN_SPAN_MS),
  };
}

/** The instants the order is likely ready by (low) and very likely by (high), in ms since epoch. */
export function expectedReady(summary: WaitSummary, order: { placedAt: number; ahead: number }, now: number): { lowAt: number; highAt: number } {
  const ahead = Math.max(0, Math.floor(order.ahead));
  let lowAt = order.placedAt + summary.p50Ms;
  let highAt = order.placedAt + summary.p80Ms;
  // With nothing ahead the kitchen is on it: its own history says how long. With orders ahead, they go first.
  if (ahead > 0 && summary.perMs > 0) {
    const slower = summary.perMs * (1 - 1 / Math.sqrt(summary.samples));
    lowAt = Math.max(lowAt, now + ahead / summary.perMs);
    highAt = Math.max(highAt, now + (ahead + 1) / slower);
  }
  return { lowAt, highAt };
}

/**
 * The estimate for an order still being prepared, placed at `placedAt` with `ahead` orders
 * ahead of it, at `now`; null without a summary (too little history).
 */
export function estimateWait(summary: WaitSummary | null, order: { placedAt: number; ahead: number }, now: number): WaitEstimate | null {
  if (!summary) return null;
  // Never late in its first minute: orders made ready at once (drinks) would make every new one "late".
  if (now >= order.placedAt + Math.max(summary.p80Ms, LATE_AFTER_AT_LEAST_MS)) return { low: 0, high: 0, late: true };
  const { lowAt, highAt } = expectedReady(summary, order, now);
  const low = Math.max(0, Math.floor((lowAt - now) / 60_000));
  // Not late: the high bound is still ahead, so at least a minute ("any minute now").
  const high = Math.max(low, 1, Math.ceil((highAt - now) / 60_000));
  return { low, high, late: false };
}
