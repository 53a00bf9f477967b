/**
 * How good the wait estimates of a day were (decision 0052), by replay: for each order of
 * the day, the rule (wait-estimate.ts) as it would have answered when the order was placed —
 * the history made ready in the hour before, the orders still being prepared ahead of it
 * then — against the time it actually took to be made ready. Needs no stored estimate.
 */
import type { BusinessDay } from "../business-day";
import type { ReplayedOrder } from "../ports";
import { estimateWait, summarizeWaits, WAIT_WINDOW_MS, type ReadySample } from "../wait-estimate";
import { nearestRank } from "./percentile";

export interface EstimateAccuracy {
  /** Orders of the day that would have been told an estimate when placed. */
  estimated: number;
  /** Of those, the ones made ready (the others were cancelled, cleared or are still open): the rest is about these. */
  compared: number;
  /** Median of |actual − the range's middle|, minutes to a tenth; null when none compared. */
  medianErrorMinutes: number | null;
  /** Share made ready later than the range's high end (promised too little time). */
  underShare: number | null;
  /** Share made ready within the range. */
  withinShare: number | null;
}

/** An order still open this long is cleared off the floor (order-floor.ts): it was no longer ahead of anyone. */
const AHEAD_AT_MOST_MS = 12 * 3_600_000;

/**
 * `orders`: every order of `day` and of the day before (for the history and the orders
 * ahead at the day's start), in the order they were taken.
 */
export function replayAccuracy(orders: readonly ReplayedOrder[], day: BusinessDay): EstimateAccuracy {
  const readies: ReadySample[] = orders.flatMap((o) => (o.readyAt === null ? [] : [{ placedAt: o.placedAt, readyAt: o.readyAt }]));
  readies.sort((a, b) => a.readyAt - b.readyAt);
  const errors: number[] = [];
  let estimated = 0;
  let under = 0;
  let within = 0;
  orders.forEach((o, i) => {
    if (o.businessDay !== day) return;
    const at = o.placedAt;
    // The hour before it was placed (readies sorted: a binary search would do, the day is small).
    const history = readies.filter((r) => r.readyAt <= at && r.readyAt > at - WAIT_WINDOW_MS);
    let ahead = 0;
    for (let j = 0; j < i; j++) {
      const p = orders[j]!;
      if (p.placedAt > at || p.placedAt < at - AHEAD_AT_MOST_MS) continue;
      if ((p.readyAt === null || p.readyAt > at) && (p.goneAt === null || p.goneAt > at)) ahead++;
    }
    const estimate = estimateWait(summarizeWaits(history, at), { placedAt: at, ahead }, at);
    if (!estimate) return;
    estimated++;
    if (o.readyAt === null) return;
    const actual = (o.readyAt - o.placedAt) / 60_000;
    errors.push(Math.abs(actual - (estimate.low + estimate.high) / 2));
    if (actual > estimate.high) under++;
    else if (actual >= estimate.low) within++;
  });
  const compared = errors.length;
  const share = (n: number) => (compared ? Math.round((n / compared) * 1000) / 1000 : null);
  const median = nearestRank(errors, 50);
  return {
    estimated,
    compared,
    medianErrorMinutes: median === null ? null : Math.round(median * 10) / 10,
    underShare: share(under),
    withinShare: share(within),
  };
}
