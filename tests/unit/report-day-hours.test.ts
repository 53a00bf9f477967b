import { describe, expect, it } from "vitest";
import { businessDayAt, parseDayStart } from "@/lib/core/business-day";
import { dayHours, dayStartInstant, hourlyCounts } from "@/lib/core/reports/day-hours";

const rule = (timeZone: string, dayStart = "04:00") => ({ timeZone, dayStartMinutes: parseDayStart(dayStart)! });

describe("dayStartInstant", () => {
  it("Shanghai (UTC+8), 04:00: the day starts at 20:00Z the evening before", () => {
    expect(dayStartInstant("2026-11-22", rule("Asia/Shanghai")).toISOString()).toBe("2026-11-21T20:00:00.000Z");
  });

  it("New York, standard and daylight time", () => {
    expect(dayStartInstant("2026-11-21", rule("America/New_York")).toISOString()).toBe("2026-11-21T09:00:00.000Z");
    expect(dayStartInstant("2026-07-01", rule("America/New_York")).toISOString()).toBe("2026-07-01T08:00:00.000Z");
  });

  it("a day-start inside the skipped hour (Berlin 29 March 2026, 02:30) starts the day at the end of the gap, 03:00 CEST", () => {
    expect(dayStartInstant("2026-03-29", rule("Europe/Berlin", "02:30")).toISOString()).toBe("2026-03-29T01:00:00.000Z");
  });

  it("a day-start in the repeated hour (Berlin 25 October 2026, 02:30) is its first occurrence, 02:30 CEST", () => {
    expect(dayStartInstant("2026-10-25", rule("Europe/Berlin", "02:30")).toISOString()).toBe("2026-10-25T00:30:00.000Z");
  });

  it("agrees with businessDayAt: the minute before belongs to the day before", () => {
    for (const [day, r] of [
      ["2026-03-29", rule("Europe/Berlin", "02:30")],
      ["2026-10-25", rule("Europe/Berlin", "02:30")],
      ["2026-11-01", rule("America/New_York", "01:30")],
      ["2026-06-15", rule("Pacific/Kiritimati", "00:00")],
      ["2026-06-15", rule("Pacific/Pago_Pago", "23:59")],
    ] as const) {
      const start = dayStartInstant(day, r);
      expect(businessDayAt(start, r)).toBe(day);
      expect(businessDayAt(new Date(start.getTime() - 60_000), r) < day).toBe(true);
    }
  });
});

describe("dayHours", () => {
  it("an ordinary day: 24 slices labelled from the day-start in local time", () => {
    const h = dayHours("2026-11-21", rule("Europe/Berlin"));
    expect(h).toHaveLength(24);
    expect(h.map((x) => x.label).slice(0, 3)).toEqual(["04:00", "05:00", "06:00"]);
    expect(h.at(-1)!.label).toBe("03:00");
    expect(h[0]!.start.toISOString()).toBe("2026-11-21T03:00:00.000Z");
    expect(h.at(-1)!.end.toISOString()).toBe("2026-11-22T03:00:00.000Z");
  });

  it("spring forward (Berlin, 29 March 2026 runs 04:00 → 04:00 next day): 24 slices; the day containing the gap has 23", () => {
    // Day-start 04:00: the 02:00 gap on 29 March belongs to business day 28 March.
    const before = dayHours("2026-03-28", rule("Europe/Berlin"));
    expect(before).toHaveLength(23);
    expect(before.map((x) => x.label)).not.toContain("02:00");
    expect(dayHours("2026-03-29", rule("Europe/Berlin"))).toHaveLength(24);
  });

  it("fall back (Berlin, business day 24 October 2026): 25 slices, 02:00 twice", () => {
    const h = dayHours("2026-10-24", rule("Europe/Berlin"));
    expect(h).toHaveLength(25);
    expect(h.filter((x) => x.label === "02:00")).toHaveLength(2);
    expect(h.filter((x) => x.label === "02:00").map((x) => x.start.toISOString())).toEqual(["2026-10-25T00:00:00.000Z", "2026-10-25T01:00:00.000Z"]);
  });

  it("a day-start in the skipped hour: the day is 23½ hours, the last slice half an hour", () => {
    // Berlin, day-start 02:30: 29 March starts at 03:00 CEST, 30 March at 02:30 CEST.
    const h = dayHours("2026-03-29", rule("Europe/Berlin", "02:30"));
    expect(h[0]!.label).toBe("03:00");
    expect(h).toHaveLength(24); // 23.5 h → 23 whole slices + a half
    expect(h.at(-1)!.end.getTime() - h.at(-1)!.start.getTime()).toBe(30 * 60_000);
  });

  it("slices are contiguous", () => {
    const h = dayHours("2026-10-24", rule("Europe/Berlin"));
    for (let i = 1; i < h.length; i++) expect(h[i]!.start.getTime()).toBe(h[i - 1]!.end.getTime());
  });
});

describe("hourlyCounts", () => {
  const h = dayHours("2026-11-21", rule("UTC", "00:00"));
  it("places counts by index, zero elsewhere", () => {
    const c = hourlyCounts(h, [
      { index: 0, orders: 2 },
      { index: 13, orders: 5 },
    ]);
    expect(c).toHaveLength(24);
    expect(c[0]).toBe(2);
    expect(c[13]).toBe(5);
    expect(c.reduce((a, b) => a + b, 0)).toBe(7);
  });
  it("an index outside the day (a node's clock off) counts in the nearest slice, so totals hold", () => {
    const c = hourlyCounts(h, [
      { index: -1, orders: 1 },
      { index: 30, orders: 2 },
    ]);
    expect(c[0]).toBe(1);
    expect(c[23]).toBe(2);
  });
});
