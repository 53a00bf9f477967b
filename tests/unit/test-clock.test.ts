/** The suite's own clocks (tests/support/clock.ts): named wall times near now, never pinned dates. */
import { describe, expect, it } from "vitest";
import { localDate, movableClock, nextEuropeanSpringForward, wallTime } from "../support/clock";
import { businessDayAt, utcOffsetMs, wallClock } from "@/lib/core/business-day";

describe("test clocks", () => {
  it.each(["Europe/Berlin", "America/New_York", "Asia/Kolkata", "Pacific/Chatham", "UTC"])(
    "wallTime names the wall time in %s, today and days away",
    (zone) => {
      for (const days of [-5, 0, 1, 9]) {
        const at = wallTime(zone, "13:00", days);
        expect(wallClock(at, zone)).toEqual({ date: localDate(zone, days), minutes: 13 * 60 });
        expect(businessDayAt(at, { timeZone: zone, dayStartMinutes: 4 * 60 })).toBe(localDate(zone, days));
      }
    },
  );

  it("refuses a clock pinned far from now, and moves one that starts near it", () => {
    expect(() => movableClock(new Date(Date.now() - 30 * 86_400_000))).toThrow(/pinned date/);
    expect(() => movableClock(new Date(Date.now() + 15 * 86_400_000))).toThrow(/pinned date/);
    const start = wallTime("Europe/Berlin", "12:00");
    const clock = movableClock(start);
    expect(clock.tick(500).getTime()).toBe(start.getTime() + 500);
    expect(clock.now().getTime()).toBe(start.getTime() + 500);
  });

  it("finds Europe's next spring-forward Sunday: the offset changes that day", () => {
    const day = nextEuropeanSpringForward();
    expect(new Date(`${day}T00:00:00Z`).getUTCDay()).toBe(0);
    expect(day > new Date().toISOString().slice(0, 10)).toBe(true);
    expect(utcOffsetMs(new Date(`${day}T00:30:00Z`), "Europe/Berlin")).toBe(3_600_000);
    expect(utcOffsetMs(new Date(`${day}T01:30:00Z`), "Europe/Berlin")).toBe(7_200_000);
  });
});
