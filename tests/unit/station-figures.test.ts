import { describe, expect, it } from "vitest";
import { stationFigures, type OrderParts } from "@/lib/core/reports/station-figures";

const GRILL = { id: "g", name: "Grill" };
const BAR = { id: "b", name: "Bar" };
const T0 = Date.parse("2030-05-01T12:00:00Z");

/** An order taken at minute `at`; each part done `minutes` after it was taken (null: not done). */
const order = (at: number, parts: Record<string, number | null>, names: Record<string, string> = {}): OrderParts => ({
  createdAt: new Date(T0 + at * 60_000),
  parts: Object.entries(parts).map(([id, minutes]) => ({
    id,
    name: names[id] ?? (id === "g" ? "Grill" : id === "b" ? "Bar" : id),
    doneAt: minutes === null ? null : new Date(T0 + (at + minutes) * 60_000).toISOString(),
    doneBy: null,
  })),
});

describe("stationFigures", () => {
  it("counts parts, the median and 90th percentile from order to part done, and which station finished last", () => {
    const orders = [
      order(0, { g: 10, b: 2 }),
      order(1, { g: 8, b: 3 }),
      order(2, { g: 4, b: 6 }),
      order(3, { g: 12, b: null }), // not all done: no last station
      order(4, { b: 1 }), // one station only: it holds nothing up
      order(5, { g: 20 }),
    ];
    const [grill, bar] = stationFigures(orders, [GRILL, BAR]);
    expect(grill).toEqual({ id: "g", name: "Grill", parts: 5, timeToDone: { samples: 5, p50: 600, p90: 1200 }, shared: 3, last: 2 });
    expect(bar).toEqual({ id: "b", name: "Bar", parts: 5, timeToDone: { samples: 4, p50: 120, p90: 360 }, shared: 3, last: 1 });
  });

  it("a tie at the end counts for each station in it", () => {
    const [grill, bar] = stationFigures([order(0, { g: 5, b: 5 })], [GRILL, BAR]);
    expect([grill!.last, bar!.last]).toEqual([1, 1]);
  });

  it("live stations in screen order with their names now, then removed ones by their latest name", () => {
    const orders = [order(0, { b: 1, x: 2 }, { x: "Wok" }), order(9, { x: 3 }, { x: "Woks" }), order(5, { g: 1, z: 1 }, { z: "Dumplings", g: "Old grill" })];
    expect(stationFigures(orders, [BAR, GRILL]).map((s) => [s.id, s.name])).toEqual([
      ["b", "Bar"],
      ["g", "Grill"],
      ["z", "Dumplings"],
      ["x", "Woks"],
    ]);
  });

  it("no orders with parts: no stations", () => {
    expect(stationFigures([], [GRILL, BAR])).toEqual([]);
    expect(stationFigures([{ createdAt: new Date(T0), parts: [] }], [])).toEqual([]);
  });
});
