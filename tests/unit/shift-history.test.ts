import { describe, expect, it } from "vitest";
import { assembleShiftHistory } from "@/lib/core/reports/shift-history";

const dayStart = new Date("2026-11-21T03:00:00Z");

describe("assembleShiftHistory", () => {
  it("a day with no shift started by anyone: shift 1 only, started by the day at its start, number 1", () => {
    expect(assembleShiftHistory({ day: "2026-11-21", today: "2026-11-21", dayStart, recorded: [], counts: [] })).toEqual([
      { shift: 1, firstNumber: 1, startedAt: dayStart, startedBy: null, reason: null, trigger: "day", orders: 0, lastNumber: null },
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
      counts: [
        { shift: 1, orders: 12, lastNumber: 12 },
        { shift: 3, orders: 2, lastNumber: 101 },
      ],
    });
    expect(h.map((s) => [s.shift, s.trigger, s.startedBy, s.firstNumber, s.orders, s.lastNumber])).toEqual([
      [1, "day", null, 1, 12, 12],
      [2, "manual", "Manager (staff)", 1, 0, null],
      [3, "schedule", "scheduler", 100, 2, 101],
    ]);
    expect(h[1]!.reason).toBe("dinner");
  });
});
