import { describe, expect, it } from "vitest";
import { isAppError } from "@/lib/core/errors";
import { daysInRange, isCalendarDay, MAX_EXPORT_DAYS, parseDayQuery, parseNumberQuery, parseRangeQuery } from "@/lib/core/reports/report-queries";

function badInput(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (isAppError(e) && e.code === "BAD_INPUT") return e.userMessage;
    throw e;
  }
  throw new Error("expected BAD_INPUT");
}

describe("report queries", () => {
  it("isCalendarDay refuses dates that do not exist", () => {
    expect(isCalendarDay("2026-02-28")).toBe(true);
    expect(isCalendarDay("2028-02-29")).toBe(true);
    for (const s of ["2026-02-30", "2026-02-29", "2026-13-01", "yesterday", "2026-1-1", "20260101"]) expect(isCalendarDay(s)).toBe(false);
  });

  it("day: optional, named when bad", () => {
    expect(parseDayQuery({})).toEqual({});
    expect(parseDayQuery({ day: "2026-11-21" })).toEqual({ day: "2026-11-21" });
    expect(badInput(() => parseDayQuery({ day: "2026-02-30" }))).toMatch(/^day: /);
    expect(badInput(() => parseDayQuery({ day: "yesterday" }))).toMatch(/^day: /);
  });

  it("number: a whole number from 1, named when bad", () => {
    expect(parseNumberQuery({ number: "42" })).toEqual({ number: 42, prefix: null });
    expect(parseNumberQuery({ number: "7", day: "2026-11-21" })).toEqual({ number: 7, prefix: null, day: "2026-11-21" });
    // A series' number as shown, its letters in either case (decision 0027).
    expect(parseNumberQuery({ number: "K12" })).toEqual({ number: 12, prefix: "K" });
    expect(parseNumberQuery({ number: "kds9" })).toEqual({ number: 9, prefix: "KDS" });
    for (const n of ["0", "-1", "1.5", "abc", "", "123456789", "01", "K", "K0", "12K", "ABCD1", "K 12", "K-12", "１２"])
      expect(
        badInput(() => parseNumberQuery({ number: n })),
        n,
      ).toMatch(/^number: /);
    expect(badInput(() => parseNumberQuery({ day: "2026-11-21" }))).toMatch(/^number: /);
    expect(badInput(() => parseNumberQuery({ number: "3", day: "2026-02-30" }))).toMatch(/^day: /);
  });

  it("range: both dates, from ≤ to, at most 93 days", () => {
    expect(daysInRange("2026-11-21", "2026-11-21")).toBe(1);
    expect(parseRangeQuery({ from: "2026-01-01", to: "2026-01-01" })).toEqual({ from: "2026-01-01", to: "2026-01-01" });
    const last = "2026-04-03"; // 1 Jan + 92 days
    expect(daysInRange("2026-01-01", last)).toBe(MAX_EXPORT_DAYS);
    expect(parseRangeQuery({ from: "2026-01-01", to: last }).to).toBe(last);
    expect(badInput(() => parseRangeQuery({ from: "2026-01-01", to: "2026-04-04" }))).toMatch(/^to: .*93 days/);
    expect(badInput(() => parseRangeQuery({ from: "2026-01-02", to: "2026-01-01" }))).toBe("to: must not be before from");
    expect(badInput(() => parseRangeQuery({ to: "2026-01-01" }))).toMatch(/^from: /);
    expect(badInput(() => parseRangeQuery({ from: "2026-01-01", to: "2026-02-30" }))).toMatch(/^to: /);
  });
});
