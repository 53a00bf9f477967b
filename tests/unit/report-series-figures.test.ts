import { describe, expect, it } from "vitest";
import { seriesFigures, type OrderDuration } from "@/lib/core/reports/series-figures";
import type { SeriesCount } from "@/lib/core/reports/shift-history";

const count = (shift: number, seriesId: string | null, seriesName: string | null, prefix: string, orders: number): SeriesCount => ({
  shift,
  seriesId,
  seriesName,
  orders,
  first: { prefix, number: 1 },
  last: { prefix, number: orders },
});
const took = (seriesId: string | null, toReadyS: number | null, toCollectedS: number | null, shift = 1): OrderDuration => ({
  shift,
  seriesId,
  toReadyMs: toReadyS === null ? null : toReadyS * 1000,
  toCollectedMs: toCollectedS === null ? null : toCollectedS * 1000,
});

describe("seriesFigures: the whole day per series (decision 0027)", () => {
  it("adds each series' orders over the day's shifts: the default first, then by prefix", () => {
    const counts = [count(1, "k", "Kiosk", "K", 40), count(1, null, null, "", 12), count(2, "k", "Kiosk", "K", 5), count(2, "d", "Delivery", "D", 7)];
    expect(seriesFigures(counts, []).map((s) => [s.series, s.default, s.prefix, s.orders])).toEqual([
      ["Default", true, "", 12],
      ["Delivery", false, "D", 7],
      ["Kiosk", false, "K", 45],
    ]);
  });

  it("a series renamed or re-lettered mid-day is listed once, by its latest shift's name and prefix", () => {
    const counts = [count(1, "k", "Kiosk", "K", 3), count(2, "k", "Counter", "C", 2)];
    expect(seriesFigures(counts, [])).toMatchObject([{ series: "Counter", prefix: "C", orders: 5 }]);
  });

  it("times are each series' own, over every shift: nearest-rank median and 90th percentile", () => {
    const counts = [count(1, null, null, "", 2), count(1, "k", "Kiosk", "K", 3), count(2, "k", "Kiosk", "K", 1)];
    const durations = [took(null, 100, 200), took(null, 300, null), took("k", 10, 20), took("k", 30, 40), took("k", 50, null, 2), took("k", null, null, 2)];
    const [def, kiosk] = seriesFigures(counts, durations);
    expect(def).toMatchObject({ timeToReady: { samples: 2, p50: 100, p90: 300 }, timeToCollected: { samples: 1, p50: 200, p90: 200 } });
    expect(kiosk).toMatchObject({ timeToReady: { samples: 3, p50: 30, p90: 50 }, timeToCollected: { samples: 2, p50: 20, p90: 40 } });
  });

  it("a day without orders has no series", () => {
    expect(seriesFigures([], [])).toEqual([]);
  });
});
