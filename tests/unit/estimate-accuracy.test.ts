import { describe, expect, it } from "vitest";
import { replayAccuracy } from "@/lib/core/reports/estimate-accuracy";
import type { ReplayedOrder } from "@/lib/core/ports";
import { localDate, wallTime } from "../support/clock";

const MIN = 60_000;
const day = localDate("Europe/Berlin");
const noon = wallTime("Europe/Berlin", "12:00").getTime();

let n = 0;
const order = (placedMin: number, takesMin: number | null, over: Partial<ReplayedOrder> = {}): ReplayedOrder => ({
  id: `o${++n}`,
  businessDay: day,
  placedAt: noon + placedMin * MIN,
  readyAt: takesMin === null ? null : noon + (placedMin + takesMin) * MIN,
  goneAt: null,
  ...over,
});

describe("how good the day's estimates were, replayed (decision 0052)", () => {
  it("a day too thin for an estimate: none told, nothing compared", () => {
    const orders = Array.from({ length: 9 }, (_, i) => order(i * 5, 4));
    expect(replayAccuracy(orders, day)).toEqual({ estimated: 0, compared: 0, medianErrorMinutes: null, underShare: null, withinShare: null });
  });

  it("a steady kitchen is told what it then does: every order within its range", () => {
    // One order every 3 minutes, each ready in 6: from the 13th on (10 ready in the hour before), one at a time.
    const orders = Array.from({ length: 30 }, (_, i) => order(i * 3, 6));
    const a = replayAccuracy(orders, day);
    expect(a.estimated).toBeGreaterThanOrEqual(15);
    expect(a.compared).toBe(a.estimated);
    expect(a.withinShare).toBe(1);
    expect(a.underShare).toBe(0);
    // Told about 6–8 (one order ahead each time, the high end at a slower throughput), ready in 6: a minute from the middle.
    expect(a.medianErrorMinutes).toBe(1);
  });

  it("a kitchen that slows down is caught under-estimating, and the error says by how much", () => {
    const orders = [...Array.from({ length: 20 }, (_, i) => order(i * 2, 5)), ...Array.from({ length: 5 }, (_, i) => order(45 + i * 10, 20))];
    const a = replayAccuracy(orders, day);
    expect(a.compared).toBe(a.estimated);
    // The first three slow ones were told about 5 minutes and took 20; by the fourth the recent (weighted) history had caught up.
    expect(a.compared).toBe(13);
    expect(a.underShare).toBe(Math.round((3 / 13) * 1000) / 1000);
    expect(a.withinShare).toBe(Math.round((10 / 13) * 1000) / 1000);
    expect(a.medianErrorMinutes).toBeGreaterThan(0);
  });

  it("orders of the day before count as history and as ahead; orders never made ready are told but not compared", () => {
    const yesterday = Array.from({ length: 12 }, (_, i) => order(-60 + i * 4, 5, { businessDay: "2000-01-01" }));
    const open = order(0, null);
    const cancelled = order(1, null, { goneAt: noon + 2 * MIN });
    const late = order(3, 30);
    const a = replayAccuracy([...yesterday, open, cancelled, late], day);
    expect(a.estimated).toBe(3);
    expect(a.compared).toBe(1);
    expect(a.underShare).toBe(1);
  });
});
