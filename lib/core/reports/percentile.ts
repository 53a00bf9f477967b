/**
 * Percentiles by the nearest-rank method: the p-th percentile of n values is the value at
 * rank ⌈p/100 · n⌉ (1-based) of the values sorted ascending. It is always one of the
 * values (no interpolation), p50 of [1,2,3,4] is 2 and p90 of one value is that value.
 * PostgreSQL's percentile_disc gives the same answers.
 */
export function nearestRank(values: readonly number[], p: number): number | null {
  if (!(p > 0 && p <= 100)) throw new RangeError(`percentile must be in (0, 100], got ${p}`);
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.max(1, rank) - 1]!;
}

export interface Spread {
  /** How many values the percentiles come from. */
  samples: number;
  p50: number | null;
  p90: number | null;
}

/** p50 and p90 of durations given in milliseconds, answered in seconds (to the millisecond). */
export function spreadSeconds(durationsMs: readonly number[]): Spread {
  const toS = (ms: number | null) => (ms === null ? null : Math.round(ms) / 1000);
  return { samples: durationsMs.length, p50: toS(nearestRank(durationsMs, 50)), p90: toS(nearestRank(durationsMs, 90)) };
}
