import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { addDays, businessDayAt, expiryFor, isValidTimeZone, laterDay, parseDayStart } from "@/lib/core/business-day";

const at = (iso: string) => new Date(iso);
const rule = (timeZone: string, dayStart = "04:00") => ({ timeZone, dayStartMinutes: parseDayStart(dayStart)! });

describe("businessDayAt", () => {
  it("Asia/Shanghai, day starts 04:00: 03:59 local is still yesterday, 04:00 is today", () => {
    // Shanghai is UTC+8 all year: 04:00 local = 20:00Z the day before.
    expect(businessDayAt(at("2026-11-21T19:59:59Z"), rule("Asia/Shanghai"))).toBe("2026-11-21");
    expect(businessDayAt(at("2026-11-21T20:00:00Z"), rule("Asia/Shanghai"))).toBe("2026-11-22");
  });

  it("America/New_York, day starts 04:00, standard time (UTC−5)", () => {
    expect(businessDayAt(at("2026-11-21T08:59:59Z"), rule("America/New_York"))).toBe("2026-11-20");
    expect(businessDayAt(at("2026-11-21T09:00:00Z"), rule("America/New_York"))).toBe("2026-11-21");
  });

  it("America/New_York, day starts 04:00, daylight time (UTC−4)", () => {
    expect(businessDayAt(at("2026-07-01T07:59:59Z"), rule("America/New_York"))).toBe("2026-06-30");
    expect(businessDayAt(at("2026-07-01T08:00:00Z"), rule("America/New_York"))).toBe("2026-07-01");
  });

  it("midnight is not a boundary when the day starts at 04:00", () => {
    // 23:59 and 00:01 local Berlin (UTC+1 in November) are the same business day.
    expect(businessDayAt(at("2026-11-21T22:59:00Z"), rule("Europe/Berlin"))).toBe("2026-11-21");
    expect(businessDayAt(at("2026-11-21T23:01:00Z"), rule("Europe/Berlin"))).toBe("2026-11-21");
  });

  it("a day start of 00:00 makes midnight the boundary", () => {
    expect(businessDayAt(at("2026-11-21T22:59:59Z"), rule("Europe/Berlin", "00:00"))).toBe("2026-11-21");
    expect(businessDayAt(at("2026-11-21T23:00:00Z"), rule("Europe/Berlin", "00:00"))).toBe("2026-11-22");
  });

  it("DST spring forward in New York (2026-03-08, 02:00→03:00) with a 02:30 day start that does not exist", () => {
    const r = rule("America/New_York", "02:30");
    // 01:59 EST = 06:59Z: still the previous business day.
    expect(businessDayAt(at("2026-03-08T06:59:00Z"), r)).toBe("2026-03-07");
    // 03:00 EDT = 07:00Z: the clock jumped past 02:30, the new day has begun.
    expect(businessDayAt(at("2026-03-08T07:00:00Z"), r)).toBe("2026-03-08");
  });

  it("DST spring forward with a 04:00 day start: the day begins at 04:00 EDT (08:00Z)", () => {
    const r = rule("America/New_York");
    expect(businessDayAt(at("2026-03-08T07:59:00Z"), r)).toBe("2026-03-07");
    expect(businessDayAt(at("2026-03-08T08:00:00Z"), r)).toBe("2026-03-08");
  });

  it("DST fall back in New York (2026-11-01, 02:00→01:00) with a 01:30 day start that happens twice: the first wins", () => {
    const r = rule("America/New_York", "01:30");
    // 01:29 EDT = 05:29Z: previous day. 01:30 EDT = 05:30Z: new day.
    expect(businessDayAt(at("2026-11-01T05:29:00Z"), r)).toBe("2026-10-31");
    expect(businessDayAt(at("2026-11-01T05:30:00Z"), r)).toBe("2026-11-01");
    // 01:15 EST (second pass, 06:15Z) shows a wall time before 01:30 again, but the
    // business day has begun and never goes back.
    expect(businessDayAt(at("2026-11-01T06:15:00Z"), r)).toBe("2026-11-01");
    expect(businessDayAt(at("2026-11-01T06:31:00Z"), r)).toBe("2026-11-01");
  });

  it("DST fall back in Europe/Berlin with a 04:00 day start: a 25-hour day, no repeat", () => {
    const r = rule("Europe/Berlin");
    // 2026-10-25: 03:00 CEST → 02:00 CET. 04:00 CET = 03:00Z.
    expect(businessDayAt(at("2026-10-25T02:59:00Z"), r)).toBe("2026-10-24");
    expect(businessDayAt(at("2026-10-25T03:00:00Z"), r)).toBe("2026-10-25");
  });
});

describe("property: business days", () => {
  const zones = [
    "Asia/Shanghai",
    "America/New_York",
    "Europe/Berlin",
    "Pacific/Kiritimati",
    "Pacific/Pago_Pago",
    "Australia/Lord_Howe",
    "Asia/Kathmandu",
    "UTC",
  ];
  const instant = fc.date({ min: new Date("2020-01-01T00:00:00Z"), max: new Date("2035-12-31T00:00:00Z"), noInvalidDate: true });
  const dayStart = fc.integer({ min: 0, max: 23 * 60 + 59 });
  const zone = fc.constantFrom(...zones);

  it("never goes backwards as time goes forward, DST included", () => {
    fc.assert(
      fc.property(instant, fc.integer({ min: 1, max: 72 * 3600 }), dayStart, zone, (t, dtSec, ds, tz) => {
        const r = { timeZone: tz, dayStartMinutes: ds };
        return businessDayAt(new Date(t.getTime() + dtSec * 1000), r) >= businessDayAt(t, r);
      }),
      { numRuns: 3000 },
    );
  });

  it("never goes backwards around the DST changes of New York and Berlin, minute by minute", () => {
    const transitions = ["2026-03-08T07:00:00Z", "2026-11-01T06:00:00Z", "2026-03-29T01:00:00Z", "2026-10-25T01:00:00Z"];
    fc.assert(
      fc.property(fc.constantFrom(...transitions), dayStart, fc.constantFrom("America/New_York", "Europe/Berlin"), (iso, ds, tz) => {
        const r = { timeZone: tz, dayStartMinutes: ds };
        let prev = businessDayAt(new Date(Date.parse(iso) - 4 * 3600_000), r);
        for (let m = -4 * 60; m <= 4 * 60; m++) {
          const d = businessDayAt(new Date(Date.parse(iso) + m * 60_000), r);
          if (d < prev) return false;
          prev = d;
        }
        return true;
      }),
      { numRuns: 200 },
    );
  });

  it("is within one calendar day of the local date and advances by at most one day per 25 hours", () => {
    fc.assert(
      fc.property(instant, dayStart, zone, (t, ds, tz) => {
        const r = { timeZone: tz, dayStartMinutes: ds };
        const d = businessDayAt(t, r);
        const later = businessDayAt(new Date(t.getTime() + 25 * 3600_000), r);
        return later >= d && later <= addDays(d, 2);
      }),
      { numRuns: 2000 },
    );
  });

  it("expiry is always at least 12 hours after the business day has ended", () => {
    fc.assert(
      fc.property(instant, dayStart, zone, fc.integer({ min: 0, max: 3 * 3600_000 }), (t, ds, tz, jitter) => {
        const r = { timeZone: tz, dayStartMinutes: ds };
        const d = businessDayAt(t, r);
        const expiry = expiryFor(d, jitter);
        // Any instant that still belongs to day d must be at least 12 h before expiry.
        return businessDayAt(new Date(expiry - 12 * 3600_000), r) > d;
      }),
      { numRuns: 2000 },
    );
  });
});

describe("helpers", () => {
  it("parseDayStart accepts HH:MM and rejects anything else", () => {
    expect(parseDayStart("04:00")).toBe(240);
    expect(parseDayStart("23:59")).toBe(1439);
    expect(parseDayStart("00:00")).toBe(0);
    for (const bad of ["24:00", "4:00", "04:60", "0400", "", "04:00:00", "ab:cd"]) expect(parseDayStart(bad)).toBeNull();
  });

  it("isValidTimeZone knows IANA zones only", () => {
    expect(isValidTimeZone("Asia/Shanghai")).toBe(true);
    expect(isValidTimeZone("Mars/Olympus_Mons")).toBe(false);
    expect(isValidTimeZone("")).toBe(false);
  });

  it("laterDay and addDays", () => {
    expect(laterDay("2026-11-21", "2026-11-20")).toBe("2026-11-21");
    expect(laterDay("2026-11-20", "2026-11-21")).toBe("2026-11-21");
    expect(addDays("2026-02-28", 1)).toBe("2026-03-01");
    expect(addDays("2026-01-01", -1)).toBe("2025-12-31");
  });
});
