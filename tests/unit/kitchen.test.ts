import { describe, expect, it } from "vitest";
import { ageLevel, matchTypedNumber, typedCandidate } from "@/lib/core/kitchen";
import { parseTypedNumber } from "@/lib/core/series";
import { canTransition, nextStep, previousStep, type Order, type OrderStatus } from "@/lib/core/orders";

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
    const o = (shift: number, number: number, businessDay = "2026-11-25") =>
      ({ id: `${businessDay}-${shift}-${number}`, businessDay, shift, number, prefix: "" }) as Order;
    const now = (shift: number) => ({ businessDay: "2026-11-25", shift });
    const n = (number: number) => ({ prefix: null, number });
    const open = [o(1, 3), o(2, 3), o(1, 7), o(1, 9), o(2, 9), o(2, 4, "2026-11-24"), o(1, 4), o(2, 5, "2026-11-24")];
    expect(matchTypedNumber(open, n(3), now(2))).toEqual({ kind: "one", order: o(2, 3) });
    expect(matchTypedNumber(open, n(7), now(2))).toEqual({ kind: "one", order: o(1, 7) });
    expect(matchTypedNumber(open, n(8), now(2))).toEqual({ kind: "none", unknownPrefix: false });
    expect(matchTypedNumber(open, n(9), now(3))).toMatchObject({ kind: "several", orders: [o(2, 9), o(1, 9)] });
    // Shift 2 of an earlier day is not today's shift 2; an earlier day's only open order is found.
    expect(matchTypedNumber(open, n(4), now(2))).toMatchObject({ kind: "several", orders: [o(1, 4), o(2, 4, "2026-11-24")] });
    expect(matchTypedNumber(open, n(5), now(2))).toEqual({ kind: "one", order: o(2, 5, "2026-11-24") });
  });

  describe("typed numbers with series (decision 0027)", () => {
    const o = (prefix: string, number: number, shift = 1) => ({ id: `${prefix}${number}-${shift}`, businessDay: "2026-11-25", shift, number, prefix }) as Order;
    const now = { businessDay: "2026-11-25", shift: 1 };
    const typed = (text: string) => parseTypedNumber(text)!;
    const open = [o("K", 12), o("D", 12), o("", 7), o("K", 7), o("K", 3), o("", 5)];
    const prefixes = ["", "K", "D"];

    it("K12 or k12 is that series' order alone", () => {
      expect(matchTypedNumber(open, typed("K12"), now, prefixes)).toEqual({ kind: "one", order: o("K", 12) });
      expect(matchTypedNumber(open, typed("k12"), now, prefixes)).toEqual({ kind: "one", order: o("K", 12) });
      expect(matchTypedNumber(open, typed("d 12"), now, prefixes)).toEqual({ kind: "one", order: o("D", 12) });
      // 7 without a letter is open too, but K7 names the kiosk's.
      expect(matchTypedNumber(open, typed("K7"), now, prefixes)).toEqual({ kind: "one", order: o("K", 7) });
    });

    it("digits alone mean the order without letters: 20 is 20, d20 is D20", () => {
      const both = [o("", 20), o("D", 20), o("K", 20)];
      expect(matchTypedNumber(both, typed("20"), now, prefixes)).toEqual({ kind: "one", order: o("", 20) });
      expect(matchTypedNumber(both, typed("d20"), now, prefixes)).toEqual({ kind: "one", order: o("D", 20) });
      expect(matchTypedNumber(both, typed("K20"), now, prefixes)).toEqual({ kind: "one", order: o("K", 20) });
      // 7 without a letter is open beside K7: 7 is that one.
      expect(matchTypedNumber(open, typed("7"), now, prefixes)).toEqual({ kind: "one", order: o("", 7) });
    });

    it("digits that only one lettered order shows, and no order without letters, mean that one", () => {
      expect(matchTypedNumber([o("D", 20), o("", 21)], typed("20"), now, prefixes)).toEqual({ kind: "one", order: o("D", 20) });
      expect(matchTypedNumber(open, typed("3"), now, prefixes)).toEqual({ kind: "one", order: o("K", 3) });
    });

    it("12 that several lettered orders show, and no order without letters, is asked, never picked — even when one is the current shift's", () => {
      expect(matchTypedNumber(open, typed("12"), now, prefixes)).toEqual({ kind: "several", orders: [o("D", 12), o("K", 12)] });
      const otherShift = [o("K", 12), o("D", 12, 2)];
      expect(matchTypedNumber(otherShift, typed("12"), now, prefixes)).toEqual({ kind: "several", orders: [o("D", 12, 2), o("K", 12)] });
    });

    it("twins from before the upgrade: the current shift's wins; else both are asked, newest shift first, lettered ones left out", () => {
      const twins = [o("", 7, 2), ...open];
      expect(matchTypedNumber(twins, typed("7"), { ...now, shift: 2 }, prefixes)).toEqual({ kind: "one", order: o("", 7, 2) });
      expect(matchTypedNumber(twins, typed("7"), { ...now, shift: 3 }, prefixes)).toEqual({ kind: "several", orders: [o("", 7, 2), o("", 7)] });
    });

    it("a number that only one series shows needs no letter", () => {
      expect(matchTypedNumber(open, typed("5"), now, prefixes)).toEqual({ kind: "one", order: o("", 5) });
    });

    it("a letter is never dropped: K5 is not 5; letters no series uses are a typo", () => {
      expect(matchTypedNumber(open, typed("K5"), now, prefixes)).toEqual({ kind: "none", unknownPrefix: false });
      expect(matchTypedNumber(open, typed("D3"), now, prefixes)).toEqual({ kind: "none", unknownPrefix: false });
      expect(matchTypedNumber(open, typed("X12"), now, prefixes)).toEqual({ kind: "none", unknownPrefix: true });
      // A series deleted while its orders are open still has them: its letters are known by those.
      expect(matchTypedNumber([o("Z", 1)], typed("Z2"), now, [""])).toEqual({ kind: "none", unknownPrefix: false });
      expect(matchTypedNumber(open, typed("99"), now, prefixes)).toEqual({ kind: "none", unknownPrefix: false });
    });

    it("a candidate says what the screen shows and which series it is", () => {
      const order = { ...o("K", 12), status: "READY", seriesName: "Kiosk" } as Order;
      expect(typedCandidate(order)).toEqual({
        id: order.id,
        display: "K12",
        prefix: "K",
        number: 12,
        series: "Kiosk",
        businessDay: "2026-11-25",
        shift: 1,
        status: "READY",
      });
      expect(typedCandidate({ ...o("", 4), status: "PLACED", seriesName: null })).toMatchObject({ display: "4", series: "Default" });
    });
  });
});

describe("shift summary", () => {
  const d = (status: OrderStatus, number: number) => ({ status, number, prefix: "", seriesId: null, ticket: null });
  const s = (status: OrderStatus, prefix: string, number: number, ticket: number) => ({ status, number, prefix, seriesId: `series-${prefix}`, ticket });

  it("counts orders per status and finds the last number", async () => {
    const { summarizeShift } = await import("@/lib/core/shift-summary");
    expect(summarizeShift([])).toEqual({ total: 0, byStatus: { PLACED: 0, READY: 0, COLLECTED: 0, CANCELLED: 0 }, last: [] });
    const summary = summarizeShift([d("PLACED", 3), d("READY", 7), d("COLLECTED", 5), d("PLACED", 1)]);
    expect(summary).toEqual({ total: 4, byStatus: { PLACED: 2, READY: 1, COLLECTED: 1, CANCELLED: 0 }, last: ["7"] });
  });

  it("says each series' last number as shown, the default first; a series that came round ends on its highest ticket", async () => {
    const { summarizeShift } = await import("@/lib/core/shift-summary");
    const summary = summarizeShift([
      s("PLACED", "K", 98, 98),
      s("READY", "K", 99, 99),
      s("PLACED", "K", 1, 100),
      d("PLACED", 57),
      s("PLACED", "D", 3, 3),
      d("CANCELLED", 12),
    ]);
    expect(summary.last).toEqual(["57", "D3", "K1"]);
    expect(summary.total).toBe(6);
  });
});
