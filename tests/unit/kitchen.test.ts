import { describe, expect, it } from "vitest";
import { ageLevel, matchTypedNumber } from "@/lib/core/kitchen";
import { canTransition, nextStep, previousStep, type Order } from "@/lib/core/orders";

const floor = { ageWarnMinutes: 8, ageLateMinutes: 15 };

describe("kitchen rules", () => {
  it("grades waiting time against the restaurant's thresholds", () => {
    expect(ageLevel(7.9 * 60_000, floor)).toBe("fresh");
    expect(ageLevel(8 * 60_000, floor)).toBe("slow");
    expect(ageLevel(15 * 60_000, floor)).toBe("late");
  });

  it("steps forward and back, and every step is a legal move", () => {
    expect([nextStep("PLACED"), nextStep("READY"), nextStep("COLLECTED"), nextStep("CANCELLED")]).toEqual(["READY", "COLLECTED", null, null]);
    expect([previousStep("PLACED"), previousStep("READY"), previousStep("COLLECTED"), previousStep("CANCELLED")]).toEqual([null, "PLACED", "READY", null]);
    for (const s of ["PLACED", "READY", "COLLECTED"] as const) {
      const n = nextStep(s);
      const p = previousStep(s);
      if (n) expect(canTransition(s, n)).toBe(true);
      if (p) expect(canTransition(s, p)).toBe(true);
    }
    expect(canTransition("CANCELLED", "PLACED")).toBe(false);
  });

  it("finds the order a typed number means: the current shift's of today, else the only one open", () => {
    const o = (shift: number, number: number, businessDay = "2026-11-25") => ({ id: `${businessDay}-${shift}-${number}`, businessDay, shift, number }) as Order;
    const now = (shift: number) => ({ businessDay: "2026-11-25", shift });
    const open = [o(1, 3), o(2, 3), o(1, 7), o(1, 9), o(2, 9), o(2, 4, "2026-11-24"), o(1, 4), o(2, 5, "2026-11-24")];
    expect(matchTypedNumber(open, 3, now(2))).toEqual({ kind: "one", order: o(2, 3) });
    expect(matchTypedNumber(open, 7, now(2))).toEqual({ kind: "one", order: o(1, 7) });
    expect(matchTypedNumber(open, 8, now(2))).toEqual({ kind: "none" });
    expect(matchTypedNumber(open, 9, now(3))).toMatchObject({ kind: "several", orders: [o(2, 9), o(1, 9)] });
    // Shift 2 of an earlier day is not today's shift 2; an earlier day's only open order is found.
    expect(matchTypedNumber(open, 4, now(2))).toMatchObject({ kind: "several", orders: [o(1, 4), o(2, 4, "2026-11-24")] });
    expect(matchTypedNumber(open, 5, now(2))).toEqual({ kind: "one", order: o(2, 5, "2026-11-24") });
  });
});

describe("shift summary", () => {
  it("counts orders per status and finds the last number", async () => {
    const { summarizeShift } = await import("@/lib/core/shift-summary");
    expect(summarizeShift([])).toEqual({ total: 0, byStatus: { PLACED: 0, READY: 0, COLLECTED: 0, CANCELLED: 0 }, lastNumber: null });
    const s = summarizeShift([
      { status: "PLACED", number: 3 },
      { status: "READY", number: 7 },
      { status: "COLLECTED", number: 5 },
      { status: "PLACED", number: 1 },
    ]);
    expect(s).toEqual({ total: 4, byStatus: { PLACED: 2, READY: 1, COLLECTED: 1, CANCELLED: 0 }, lastNumber: 7 });
  });
});
