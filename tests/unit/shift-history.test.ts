import { describe, expect, it } from "vitest";
import { assembleShiftHistory } from "@/lib/core/reports/shift-history";

const dayStart = new Date("2026-11-21T03:00:00Z");

/** A shift's count of one series (seriesId null: the default). */
const count = (shift: number, seriesId: string | null, orders: number, first: [string, number], last: [string, number], seriesName: string | null = null) => ({
  shift,
  seriesId,
  seriesName,
  orders,
  first: { prefix: first[0], number: first[1] },
  last: { prefix: last[0], number: last[1] },
});

describe("assembleShiftHistory", () => {
  it("a day with no shift started by anyone: shift 1 only, started by the day at its start, number 1", () => {
    expect(assembleShiftHistory({ day: "2026-11-21", today: "2026-11-21", dayStart, recorded: [], counts: [] })).toEqual([
      { shift: 1, firstNumber: 1, startedAt: dayStart, startedBy: null, reason: null, trigger: "day", orders: 0, lastNumber: null, series: [] },
    ]);
  });

  it("a future day has no shifts yet; a past day always has shift 1", () => {
    expect(assembleShiftHistory({ day: "2026-11-22", today: "2026-11-21", dayStart, recorded: [], counts: [] })).toEqual([]);
    expect(assembleShiftHistory({ day: "2026-11-20", today: "2026-11-21", dayStart, recorded: [], counts: [] })).toHaveLength(1);
  });

  it("recorded shifts follow shift 1 in order, with their trigger, and each gets its own counts", () => {
    const manual = {
      shift: 2,
      firstNumber: 1,
      startedAt: new Date("2026-11-21T09:00:00Z"),
      startedBy: "Manager (staff)",
      reason: "dinner",
      trigger: "manual" as const,
    };
    const scheduled = {
      shift: 3,
      firstNumber: 100,
      startedAt: new Date("2026-11-21T15:00:00Z"),
      startedBy: "scheduler",
      reason: null,
      trigger: "schedule" as const,
    };
    const h = assembleShiftHistory({
      day: "2026-11-21",
      today: "2026-11-21",
      dayStart,
      recorded: [scheduled, manual],
      counts: [count(1, null, 12, ["", 1], ["", 12]), count(3, null, 2, ["", 100], ["", 101])],
    });
    expect(h.map((s) => [s.shift, s.trigger, s.startedBy, s.firstNumber, s.orders, s.lastNumber])).toEqual([
      [1, "day", null, 1, 12, 12],
      [2, "manual", "Manager (staff)", 1, 0, null],
      [3, "schedule", "scheduler", 100, 2, 101],
    ]);
    expect(h[1]!.reason).toBe("dinner");
  });

  it("a shift's other series are listed by prefix with their first and last ticket's numbers; the default series keeps lastNumber", () => {
    const h = assembleShiftHistory({
      day: "2026-11-21",
      today: "2026-11-21",
      dayStart,
      recorded: [],
      counts: [
        count(1, "k", 40, ["K", 1], ["K", 40], "Kiosk"),
        count(1, "d", 3, ["D", 98], ["D", 1], "Delivery"), // came round after D99
        count(1, null, 57, ["", 1], ["", 57]),
      ],
    });
    expect(h).toHaveLength(1);
    expect(h[0]).toMatchObject({
      orders: 100,
      lastNumber: 57,
      series: [
        { series: "Delivery", prefix: "D", orders: 3, first: "D98", last: "D1" },
        { series: "Kiosk", prefix: "K", orders: 40, first: "K1", last: "K40" },
      ],
    });
    // Only series orders: no default number to show.
    const only = assembleShiftHistory({
      day: "2026-11-21",
      today: "2026-11-21",
      dayStart,
      recorded: [],
      counts: [count(1, "k", 2, ["K", 5], ["K", 6], "Kiosk")],
    });
    expect(only[0]).toMatchObject({ orders: 2, lastNumber: null, series: [{ first: "K5", last: "K6" }] });
  });
});
