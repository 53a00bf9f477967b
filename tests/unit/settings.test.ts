import { describe, expect, it } from "vitest";
import { isAppError } from "@/lib/core/errors";
import { parseOrThrow } from "@/lib/core/orders";
import { applySettingsUpdate, dayRuleChange, settingsUpdateSchema, type TenantSettings } from "@/lib/core/settings";
import { parseAuditLimit } from "@/lib/core/audit-query";
import { StaffCodeService } from "@/lib/core/staff-codes";

const current: TenantSettings = {
  name: "Alpha Noodles",
  timezone: "Europe/Berlin",
  dayStartsAt: "04:00",
  language: null,
  readyWhen: "parts",
  askService: "off",
  defaultService: "eatIn",
  soldOutAcceptedFrom: [],
  schedule: [],
  readyClearMinutes: 10,
  ageWarnMinutes: 10,
  ageLateMinutes: 20,
  currency: null,
  kioskNumberOnly: false,
  printGiveUpMinutes: 10,
  sharedCodes: true,
};

/** The bad field names of a BAD_INPUT thrown by `fn`. */
function badFields(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    if (isAppError(e) && e.code === "BAD_INPUT") return ((e.details as { fields: { path: string }[] }).fields ?? []).map((f) => f.path);
    throw e;
  }
  throw new Error("expected BAD_INPUT");
}

const parse = (input: unknown) => parseOrThrow(settingsUpdateSchema, input, "settings");

describe("settings update schema", () => {
  it("accepts the issue's example and sorts nothing it need not", () => {
    expect(parse({ timezone: "Asia/Shanghai", dayStartsAt: "04:00", language: "zh-CN", schedule: ["11:00", "17:00"], readyClearMinutes: 10 })).toEqual({
      timezone: "Asia/Shanghai",
      dayStartsAt: "04:00",
      language: "zh-CN",
      schedule: ["11:00", "17:00"],
      readyClearMinutes: 10,
    });
  });

  it("allows an empty update and language null (each browser's own)", () => {
    expect(parse({})).toEqual({});
    expect(parse({ language: null })).toEqual({ language: null });
  });

  it("names an unknown time zone", () => {
    expect(badFields(() => parse({ timezone: "Mars/Olympus" }))).toEqual(["timezone"]);
  });

  it("names schedule for a time like 25:99, and every bad field at once", () => {
    expect(badFields(() => parse({ schedule: ["11:00", "25:99"] }))).toEqual(["schedule.1"]);
    expect(badFields(() => parse({ dayStartsAt: "4:00", readyClearMinutes: 0 }))).toEqual(["dayStartsAt", "readyClearMinutes"]);
  });

  it("refuses schedules with duplicates or more than 12 times, and sorts on save", () => {
    expect(badFields(() => parse({ schedule: ["11:00", "11:00"] }))).toEqual(["schedule"]);
    const thirteen = Array.from({ length: 13 }, (_, i) => `${String(i + 8).padStart(2, "0")}:00`);
    expect(badFields(() => parse({ schedule: thirteen }))).toEqual(["schedule"]);
    expect(parse({ schedule: ["17:30", "00:00", "11:00", "23:59"] }).schedule).toEqual(["00:00", "11:00", "17:30", "23:59"]);
  });

  it("refuses unknown fields, wrong types and an unknown language", () => {
    expect(() => parse({ timeZone: "UTC" })).toThrow(/timeZone/);
    expect(badFields(() => parse({ readyClearMinutes: "10" }))).toEqual(["readyClearMinutes"]);
    expect(badFields(() => parse({ readyClearMinutes: 2.5 }))).toEqual(["readyClearMinutes"]);
    expect(badFields(() => parse({ language: "fr" }))).toEqual(["language"]);
    expect(badFields(() => parse({ name: "   " }))).toEqual(["name"]);
  });
});

describe("applying an update", () => {
  it("lists what changed, old → new, and leaves the rest", () => {
    const { next, changes } = applySettingsUpdate(current, parse({ name: "Alpha", readyClearMinutes: 10, schedule: ["17:00", "11:00"] }));
    expect(next).toEqual({ ...current, name: "Alpha", schedule: ["11:00", "17:00"] });
    expect(changes).toEqual({ name: { from: "Alpha Noodles", to: "Alpha" }, schedule: { from: [], to: ["11:00", "17:00"] } });
  });

  it("enforces warn < late on the result, naming the field sent", () => {
    expect(badFields(() => applySettingsUpdate(current, parse({ ageWarnMinutes: 20 })))).toEqual(["ageWarnMinutes"]);
    expect(badFields(() => applySettingsUpdate(current, parse({ ageLateMinutes: 5 })))).toEqual(["ageLateMinutes"]);
    expect(badFields(() => applySettingsUpdate(current, parse({ ageWarnMinutes: 30, ageLateMinutes: 30 })))).toEqual(["ageWarnMinutes", "ageLateMinutes"]);
    expect(applySettingsUpdate(current, parse({ ageWarnMinutes: 30, ageLateMinutes: 45 })).next.ageLateMinutes).toBe(45);
  });

  it("changes nothing when nothing differs", () => {
    expect(applySettingsUpdate(current, parse({ name: "Alpha Noodles", language: null })).changes).toEqual({});
  });
});

describe("audit limit and roles", () => {
  it("defaults to 50, accepts 1–500, names limit otherwise", () => {
    expect(parseAuditLimit({})).toBe(50);
    expect(parseAuditLimit({ limit: "500" })).toBe(500);
    for (const bad of ["0", "501", "-1", "ten", "2.5", ""]) expect(badFields(() => parseAuditLimit({ limit: bad }))).toEqual(["limit"]);
  });

  it("reads a role in any case and refuses others", () => {
    expect(StaffCodeService.parseRole("Kitchen")).toBe("KITCHEN");
    expect(StaffCodeService.parseRole("cashier")).toBe("CASHIER");
    expect(badFields(() => StaffCodeService.parseRole("chef"))).toEqual(["role"]);
  });
});

describe("what a change of time zone or day start does, said before saving", () => {
  // 22:10 UTC: 23:10 in Berlin (day of the 24th), 06:10 on the 25th in Shanghai.
  const now = new Date("2026-11-24T22:10:00Z");
  const berlin = { timeZone: "Europe/Berlin", dayStartMinutes: 4 * 60 };

  it("a later business day begins: numbering starts again", () => {
    expect(dayRuleChange(now, berlin, { timeZone: "Asia/Shanghai", dayStart: "04:00" })).toEqual({ from: "2026-11-24", to: "2026-11-25", effect: "later" });
  });

  it("the business day goes back, or stays", () => {
    const shanghai = { timeZone: "Asia/Shanghai", dayStartMinutes: 4 * 60 };
    expect(dayRuleChange(now, shanghai, { timeZone: "Europe/Berlin", dayStart: "04:00" })).toEqual({ from: "2026-11-25", to: "2026-11-24", effect: "earlier" });
    expect(dayRuleChange(now, berlin, { timeZone: "Europe/Paris", dayStart: "05:00" })).toEqual({ from: "2026-11-24", to: "2026-11-24", effect: "same" });
    // A day start moved past the wall clock's time: today's business day becomes yesterday's.
    expect(dayRuleChange(now, berlin, { timeZone: "Europe/Berlin", dayStart: "23:30" })).toEqual({ from: "2026-11-24", to: "2026-11-23", effect: "earlier" });
  });

  it("says nothing for an unchanged or invalid rule", () => {
    expect(dayRuleChange(now, berlin, { timeZone: "Europe/Berlin", dayStart: "04:00" })).toBeNull();
    expect(dayRuleChange(now, berlin, { timeZone: "Asia/Shangai", dayStart: "04:00" })).toBeNull();
    expect(dayRuleChange(now, berlin, { timeZone: "Asia/Shanghai", dayStart: "25:00" })).toBeNull();
  });
});

describe("the kiosk's currency and number-only settings", () => {
  it("accepts an ISO 4217 code or null, and a boolean number-only", () => {
    expect(parse({ currency: "EUR", kioskNumberOnly: true })).toEqual({ currency: "EUR", kioskNumberOnly: true });
    expect(parse({ currency: null })).toEqual({ currency: null });
  });

  it("names a bad currency or number-only", () => {
    for (const currency of ["eur", "EURO", "XYZ", "", 978])
      expect(
        badFields(() => parse({ currency })),
        String(currency),
      ).toEqual(["currency"]);
    expect(badFields(() => parse({ kioskNumberOnly: "true" }))).toEqual(["kioskNumberOnly"]);
  });

  it("records the change old → new", () => {
    const { next, changes } = applySettingsUpdate(current, parse({ currency: "CNY", kioskNumberOnly: false }));
    expect(next).toMatchObject({ currency: "CNY", kioskNumberOnly: false });
    expect(changes).toEqual({ currency: { from: null, to: "CNY" } });
  });
});
