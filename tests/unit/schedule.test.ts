import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { addDays, businessDayAt, formatDayStart, wallClock, type DayRule, type WallClock } from "@/lib/core/business-day";
import { dueSlot, nextSlot, pastSlots, scheduleSchema, scheduleStatus, slotInstant, slotsOfDay } from "@/lib/core/schedule";

const rule = (timeZone: string, dayStart: string): DayRule => ({ timeZone, dayStartMinutes: Number(dayStart.slice(0, 2)) * 60 + Number(dayStart.slice(3)) });
const iso = (d: Date | null) => d?.toISOString() ?? null;

describe("scheduleSchema", () => {
  it("accepts HH:MM times, sorts them, and allows [] (no schedule)", () => {
    expect(scheduleSchema.parse(["17:00", "11:00", "00:30"])).toEqual(["00:30", "11:00", "17:00"]);
    expect(scheduleSchema.parse([])).toEqual([]);
  });

  it("names the bad value", () => {
    const r = scheduleSchema.safeParse(["11:00", "25:00", "7:30"]);
    expect(r.success).toBe(false);
    const messages = r.error!.issues.map((i) => i.message).join("\n");
    expect(messages).toContain('"25:00"');
    expect(messages).toContain('"7:30"');
  });

  it("refuses a time listed twice, and more than 12 times", () => {
    expect(scheduleSchema.safeParse(["11:00", "11:00"]).error?.issues[0]?.message).toContain('"11:00" is listed twice');
    const thirteen = Array.from({ length: 13 }, (_, i) => formatDayStart(i * 60 + 5));
    expect(scheduleSchema.safeParse(thirteen).success).toBe(false);
  });
});

describe("slotInstant", () => {
  it("is the slot's local time on the business day", () => {
    expect(iso(slotInstant("2026-11-23", "11:00", rule("Europe/Berlin", "04:00")))).toBe("2026-11-23T10:00:00.000Z");
    expect(iso(slotInstant("2026-11-23", "17:00", rule("Asia/Shanghai", "04:00")))).toBe("2026-11-23T09:00:00.000Z");
  });

  it("puts a slot earlier than the day start after midnight, still on the same business day", () => {
    const r = rule("Europe/Berlin", "04:00");
    const at = slotInstant("2026-11-23", "01:00", r);
    expect(iso(at)).toBe("2026-11-24T00:00:00.000Z");
    expect(businessDayAt(at!, r)).toBe("2026-11-23");
  });

  it("ignores a slot equal to the day start (the day itself starts shift 1)", () => {
    expect(slotInstant("2026-11-23", "04:00", rule("Europe/Berlin", "04:00"))).toBeNull();
  });

  it("fires a slot in a spring-forward gap at the gap's end", () => {
    // New York, 8 March 2026: 02:00 EST jumps to 03:00 EDT.
    expect(iso(slotInstant("2026-03-08", "02:30", rule("America/New_York", "00:00")))).toBe("2026-03-08T07:00:00.000Z");
    // Lord Howe, 4 October 2026: 02:00 (+10:30) jumps to 02:30 (+11).
    expect(iso(slotInstant("2026-10-04", "02:15", rule("Australia/Lord_Howe", "00:00")))).toBe("2026-10-03T15:30:00.000Z");
  });

  it("fires a repeated slot at its first occurrence", () => {
    // New York, 1 November 2026: 01:00–02:00 happens twice (EDT, then EST).
    expect(iso(slotInstant("2026-11-01", "01:30", rule("America/New_York", "00:00")))).toBe("2026-11-01T05:30:00.000Z");
  });

  it("drops a slot that a gap pushes out of its shortened day", () => {
    // Day start 02:30 and slot 02:15 of 7 March fall in the same gap on 8 March: day 8 March
    // starts at 03:00 EDT, which is where the slot would fire, so day 7 March has no such slot.
    const r = rule("America/New_York", "02:30");
    expect(slotInstant("2026-03-07", "02:15", r)).toBeNull();
    expect(iso(slotInstant("2026-03-06", "02:15", r))).toBe("2026-03-07T07:15:00.000Z");
  });
});

describe("dueSlot", () => {
  const tenant = { ...rule("Europe/Berlin", "04:00"), schedule: ["11:00", "17:00", "01:00"] };
  const grace = 30 * 60_000;

  it("is the latest slot reached within the grace period", () => {
    expect(dueSlot(tenant, new Date("2026-11-23T10:00:00Z"), grace)).toMatchObject({ day: "2026-11-23", slot: "11:00" });
    expect(dueSlot(tenant, new Date("2026-11-23T10:29:59Z"), grace)?.slot).toBe("11:00");
    expect(dueSlot(tenant, new Date("2026-11-23T16:05:00Z"), grace)?.slot).toBe("17:00");
    expect(dueSlot(tenant, new Date("2026-11-24T00:10:00Z"), grace)).toMatchObject({ day: "2026-11-23", slot: "01:00" });
  });

  it("is null before a slot and after its grace period", () => {
    expect(dueSlot(tenant, new Date("2026-11-23T09:59:59Z"), grace)).toBeNull();
    expect(dueSlot(tenant, new Date("2026-11-23T10:30:01Z"), grace)).toBeNull();
  });

  it("never reaches back into the previous business day", () => {
    // At 04:05 local day 23 has begun: day 22's 03:50 slot (15 minutes ago) is not due any more.
    expect(dueSlot({ ...tenant, schedule: ["03:50"] }, new Date("2026-11-23T03:05:00Z"), grace)).toBeNull();
  });

  it("lists past slots latest first", () => {
    expect(pastSlots(tenant, new Date("2026-11-23T20:00:00Z")).map((s) => s.slot)).toEqual(["17:00", "11:00"]);
  });
});

describe("slot instants across time zones and DST (properties)", () => {
  const zones = ["America/New_York", "Europe/London", "Australia/Lord_Howe", "Asia/Shanghai", "Pacific/Chatham"];
  // Days at and around 2026's transitions of these zones, and any day of 2024–2030.
  const transitions = ["2026-03-08", "2026-11-01", "2026-03-29", "2026-10-25", "2026-04-05", "2026-10-04", "2026-09-27"];
  const day = fc.oneof(
    fc.tuple(fc.constantFrom(...transitions), fc.integer({ min: -1, max: 1 })).map(([d, k]) => addDays(d, k)),
    fc.date({ min: new Date("2024-01-01T00:00:00Z"), max: new Date("2030-12-31T00:00:00Z"), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  );
  // Minutes of the day, often in the small hours where transitions happen.
  const minutes = fc.oneof(fc.integer({ min: 0, max: 1439 }), fc.integer({ min: 60, max: 240 }));
  const zone = fc.constantFrom(...zones);

  const cmp = (a: WallClock, b: WallClock) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.minutes - b.minutes);

  it("an instant lies in its business day, shows the slot (or is the end of a gap), and is its first showing that day", () => {
    fc.assert(
      fc.property(day, minutes, minutes, zone, (d, slotMin, startMin, tz) => {
        const r: DayRule = { timeZone: tz, dayStartMinutes: startMin };
        const slot = formatDayStart(slotMin);
        const at = slotInstant(d, slot, r);
        const target: WallClock = { date: slotMin < startMin ? addDays(d, 1) : d, minutes: slotMin };
        if (slotMin === startMin) {
          expect(at).toBeNull();
          return;
        }
        if (!at) {
          // Only a gap pushing the slot into the next business day drops it.
          return;
        }
        expect(businessDayAt(at, r)).toBe(d);
        const shown = wallClock(at, tz);
        if (cmp(shown, target) !== 0) {
          // In a gap: a minute earlier the clock had not reached the slot; now it is past it.
          expect(cmp(shown, target)).toBeGreaterThan(0);
          expect(cmp(wallClock(new Date(at.getTime() - 60_000), tz), target)).toBeLessThan(0);
        }
        // No earlier minute of the same business day shows the slot.
        for (let t = at.getTime() - 60_000; t > at.getTime() - 27 * 3_600_000; t -= 60_000) {
          if (cmp(wallClock(new Date(t), tz), target) === 0) expect(businessDayAt(new Date(t), r)).not.toBe(d);
        }
      }),
      { numRuns: 150 },
    );
  }, 30_000); // minute-by-minute scans: ~2 s alone, more on a busy machine

  it("a dropped slot is one a gap pushed past the end of its day", () => {
    fc.assert(
      fc.property(day, minutes, minutes, zone, (d, slotMin, startMin, tz) => {
        fc.pre(slotMin !== startMin);
        const r: DayRule = { timeZone: tz, dayStartMinutes: startMin };
        if (slotInstant(d, formatDayStart(slotMin), r) !== null) return;
        const target: WallClock = { date: slotMin < startMin ? addDays(d, 1) : d, minutes: slotMin };
        // Then no minute within a day around it shows the slot on business day d.
        const local = Date.parse(`${target.date}T00:00:00Z`) + slotMin * 60_000;
        for (let t = local - 15 * 3_600_000; t < local + 15 * 3_600_000; t += 60_000) {
          const at = new Date(t);
          if (cmp(wallClock(at, tz), target) === 0) expect(businessDayAt(at, r)).not.toBe(d);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("slots of a day fire in order, each once, inside the day", () => {
    fc.assert(
      fc.property(day, fc.uniqueArray(minutes, { minLength: 1, maxLength: 12 }), minutes, zone, (d, mins, startMin, tz) => {
        const r: DayRule = { timeZone: tz, dayStartMinutes: startMin };
        const slots = slotsOfDay(d, mins.map(formatDayStart), r);
        const times = slots.map((s) => s.at.getTime());
        expect([...times].sort((a, b) => a - b)).toEqual(times);
        expect(new Set(slots.map((s) => s.slot)).size).toBe(slots.length);
        for (const s of slots) expect(businessDayAt(s.at, r)).toBe(d);
      }),
      { numRuns: 200 },
    );
  });
});

describe("nextSlot", () => {
  const tenant = { timeZone: "Asia/Shanghai", dayStartMinutes: 240, schedule: ["11:00", "17:00", "02:00"] };
  it("is the first slot of today still to come, including one after midnight before the day start", () => {
    expect(nextSlot(tenant, new Date("2026-11-23T02:00:00Z"))?.slot).toBe("11:00"); // 10:00 local
    expect(nextSlot(tenant, new Date("2026-11-23T03:00:00Z"))?.slot).toBe("17:00"); // 11:00 local: 11:00 has come
    expect(nextSlot(tenant, new Date("2026-11-23T12:00:00Z"))).toMatchObject({ day: "2026-11-23", slot: "02:00" }); // 20:00 local
  });
  it("is null when today's slots are over or there is no schedule", () => {
    expect(nextSlot(tenant, new Date("2026-11-23T19:00:00Z"))).toBeNull(); // 03:00 local, day 23 until 04:00
    expect(nextSlot({ ...tenant, schedule: [] }, new Date("2026-11-23T02:00:00Z"))).toBeNull();
  });
});

describe("a schedule changed during the day", () => {
  const tenant = { timeZone: "Asia/Shanghai", dayStartMinutes: 240, schedule: ["11:00", "17:00"] };
  const at1110 = new Date("2026-11-23T03:10:00Z"); // 11:10 local
  it("never fires a slot whose time had passed when it was set", () => {
    expect(pastSlots({ ...tenant, scheduleChangedAt: at1110 }, new Date("2026-11-23T03:11:00Z"))).toEqual([]);
    expect(dueSlot({ ...tenant, scheduleChangedAt: at1110 }, new Date("2026-11-23T03:11:00Z"), 30 * 60_000)).toBeNull();
    // Without the change time (a schedule set on an earlier day) 11:00 is due within its grace.
    expect(dueSlot(tenant, new Date("2026-11-23T03:11:00Z"), 30 * 60_000)?.slot).toBe("11:00");
  });
  it("fires the slots still to come that day, and every slot the next day", () => {
    expect(pastSlots({ ...tenant, scheduleChangedAt: at1110 }, new Date("2026-11-23T09:00:05Z")).map((s) => s.slot)).toEqual(["17:00"]);
    expect(pastSlots({ ...tenant, scheduleChangedAt: at1110 }, new Date("2026-11-24T03:00:05Z")).map((s) => s.slot)).toEqual(["11:00"]);
  });
});

describe("scheduleStatus", () => {
  const berlin = { ...rule("Europe/Berlin", "04:00"), schedule: ["11:00", "17:00", "20:00"] };
  const GRACE = 30 * 60_000;
  const at = (iso: string) => new Date(iso);
  const states = (r: ReturnType<typeof scheduleStatus>) => r.map((s) => [s.slot, s.state, "shift" in s ? s.shift : "reason" in s ? s.reason : null]);

  it("says a slot the scheduler skipped is skipped, with why, and the shift did not move (the bug: 'have started')", () => {
    // 18:30 in Berlin: both past slots were skipped as too late, shift 1 is still on.
    const r = scheduleStatus(
      berlin,
      at("2026-11-25T17:30:00Z"),
      {
        shifts: [],
        skips: [
          { slot: "11:00", reason: "pastGrace" },
          { slot: "17:00", reason: "pastGrace" },
        ],
      },
      GRACE,
    );
    expect(states(r)).toEqual([
      ["11:00", "skipped", "pastGrace"],
      ["17:00", "skipped", "pastGrace"],
      ["20:00", "next", null],
    ]);
  });

  it("names the shift each started slot started; manual shifts belong to no slot", () => {
    const r = scheduleStatus(
      berlin,
      at("2026-11-25T16:20:00Z"),
      {
        shifts: [
          { shift: 2, slot: null },
          { shift: 3, slot: "11:00" },
          { shift: 4, slot: "17:00" },
        ],
        skips: [],
      },
      GRACE,
    );
    expect(states(r)).toEqual([
      ["11:00", "started", 3],
      ["17:00", "started", 4],
      ["20:00", "next", null],
    ]);
  });

  it("a past slot with nothing recorded is due within the grace period and missed after it; only the first future slot is next", () => {
    const record = { shifts: [], skips: [] };
    expect(states(scheduleStatus(berlin, at("2026-11-25T10:10:00Z"), record, GRACE))).toEqual([
      ["11:00", "due", null],
      ["17:00", "next", null],
      ["20:00", "later", null],
    ]);
    expect(states(scheduleStatus(berlin, at("2026-11-25T11:00:00Z"), record, GRACE))[0]).toEqual(["11:00", "missed", null]);
  });

  it("a slot whose time had passed when the schedule changed starts from tomorrow", () => {
    const r = scheduleStatus({ ...berlin, scheduleChangedAt: at("2026-11-25T10:10:00Z") }, at("2026-11-25T10:15:00Z"), { shifts: [], skips: [] }, GRACE);
    expect(states(r)[0]).toEqual(["11:00", "addedLate", null]);
  });

  it("no schedule: nothing to say", () => {
    expect(scheduleStatus({ ...berlin, schedule: [] }, at("2026-11-25T10:15:00Z"), { shifts: [], skips: [] }, GRACE)).toEqual([]);
  });
});
