/** A business day's figures per number series (decision 0027): how many orders, how fast. */
import { DEFAULT_SERIES } from "../series";
import { spreadSeconds, type Spread } from "./percentile";
import type { SeriesCount } from "./shift-history";

/** One finished order's times, with the series it was numbered in (null: the default). */
export interface OrderDuration {
  shift: number;
  seriesId: string | null;
  toReadyMs: number | null;
  toCollectedMs: number | null;
}

export interface SeriesFigures {
  /** The series' name on its latest order ("Default" for the default series). */
  series: string;
  default: boolean;
  /** Its prefix on its latest order ("" for none). */
  prefix: string;
  orders: number;
  timeToReady: Spread;
  timeToCollected: Spread;
}

/** The day's series that took orders, the default first, then by prefix and name. */
export function seriesFigures(counts: readonly SeriesCount[], durations: readonly OrderDuration[]): SeriesFigures[] {
  const byId = new Map<string | null, SeriesCount[]>();
  for (const c of counts) byId.set(c.seriesId, [...(byId.get(c.seriesId) ?? []), c]);
  return [...byId]
    .map(([id, cs]) => {
      const latest = cs.reduce((a, b) => (b.shift > a.shift ? b : a));
      const mine = durations.filter((d) => d.seriesId === id);
      return {
        series: id === null ? DEFAULT_SERIES.name : (latest.seriesName ?? DEFAULT_SERIES.name),
        default: id === null,
        prefix: latest.last.prefix,
        orders: cs.reduce((n, c) => n + c.orders, 0),
        timeToReady: spreadSeconds(mine.flatMap((d) => (d.toReadyMs === null ? [] : [d.toReadyMs]))),
        timeToCollected: spreadSeconds(mine.flatMap((d) => (d.toCollectedMs === null ? [] : [d.toCollectedMs]))),
      };
    })
    .sort((a, b) => Number(b.default) - Number(a.default) || a.prefix.localeCompare(b.prefix, "en") || a.series.localeCompare(b.series, "en"));
}
