import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createTranslator } from "use-intl/core";
import { isAppError, type AppError } from "@/lib/core/errors";
import { LOCALES } from "@/lib/core/locales";
import { messagesFor } from "@/lib/i18n/messages";
import {
  DEFAULT_SERIES,
  checkSeriesSet,
  displayNumber,
  firstFreeNumber,
  matchTyped,
  newSeriesSchema,
  numberOfTicket,
  parseTypedNumber,
  seriesFill,
  seriesFor,
  seriesFull,
  seriesPatchSchema,
  sharesNumbers,
  type Series,
} from "@/lib/core/series";

const series = (s: Partial<Series> & Pick<Series, "name">): Series => ({ ...DEFAULT_SERIES, isDefault: false, id: s.name, ...s });
const house = series({ name: "Default", isDefault: true });
const counter = series({ name: "Counter", first: 1, last: 299, channels: ["counter", "pos"] });
const kiosk = series({ name: "Kiosk", first: 300, last: 599, channels: ["kiosk"] });
const delivery = series({ name: "Delivery", prefix: "D", first: 1, last: 99, channels: ["delivery"] });

describe("a series' fields", () => {
  it("takes a prefix of 1–3 letters (upper-cased), a range whose last is not below its first, known channels once each", () => {
    expect(newSeriesSchema.parse({ name: " Kiosk ", prefix: "k", first: 1, last: 99, channels: ["kiosk"] })).toEqual({
      name: "Kiosk",
      prefix: "K",
      first: 1,
      last: 99,
      channels: ["kiosk"],
    });
    expect(newSeriesSchema.parse({ name: "Phone" })).toEqual({ name: "Phone", prefix: "", first: 1, last: null, channels: [] });
    for (const bad of [
      { name: "X", prefix: "K1" },
      { name: "X", prefix: "ABCD" },
      { name: "X", prefix: "Ä" },
      { name: "X", first: 0 },
      { name: "X", first: 10, last: 9 },
      { name: "X", first: 1.5 },
      { name: "X", channels: ["kiosk", "kiosk"] },
      { name: "X", channels: ["drone"] },
      { name: "" },
      { name: "a\u202eb" },
      { name: "X", colour: "red" },
    ]) {
      expect(newSeriesSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
    expect(seriesPatchSchema.parse({ last: 50 })).toEqual({ last: 50 });
    expect(seriesPatchSchema.safeParse({ first: 60, last: 50 }).success).toBe(false);
  });
});

describe("a prefix", () => {
  // Checked as typed, then upper-cased: "ß".toUpperCase() is "SS", "ﬃ" is "FFI", "ı" is "I" (issue #36).
  it.each([
    ["k", "K"],
    ["Kd", "KD"],
    ["abc", "ABC"],
    ["", ""],
  ])("%j is taken as %j", (typed, stored) => {
    expect(newSeriesSchema.parse({ name: "X", prefix: typed }).prefix).toBe(stored);
    expect(seriesPatchSchema.parse({ prefix: typed }).prefix).toBe(stored);
  });
  it.each(["ß", "ﬃ", "ı", "ﬀ", "Kß", "Ä"])("%j is refused, in a new series and in a change", (typed) => {
    expect(newSeriesSchema.safeParse({ name: "X", prefix: typed }).success).toBe(false);
    expect(seriesPatchSchema.safeParse({ prefix: typed }).success).toBe(false);
  });
});

describe("a change to a series", () => {
  it("names at least one field, as a printer's does", () => {
    expect(seriesPatchSchema.safeParse({}).success).toBe(false);
    expect(seriesPatchSchema.safeParse({ name: undefined }).success).toBe(false);
    expect(seriesPatchSchema.parse({ name: "Kiosk" })).toEqual({ name: "Kiosk" });
  });
});

describe("a restaurant's series", () => {
  it("have one default, unique names and each channel in one series at most; overlaps are reported, not refused", () => {
    expect(checkSeriesSet([house, counter, kiosk, delivery]).overlaps).toEqual([
      ["Default", "Counter"],
      ["Default", "Kiosk"],
    ]);
    const refusal = (all: Series[]) => {
      try {
        checkSeriesSet(all);
      } catch (e) {
        return isAppError(e) ? `${e.code}: ${e.message}` : String(e);
      }
      return "accepted";
    };
    expect(refusal([house, counter, series({ name: "counter", first: 500 })])).toBe('BAD_INPUT: A series named "counter" already exists');
    expect(refusal([house, counter, series({ name: "Till", channels: ["pos"] })])).toBe('BAD_INPUT: Channel pos already belongs to series "Counter"');
    expect(refusal([counter])).toMatch(/^INTERNAL/);
  });

  it("name the refused field, and give a reason the console says in its own language", () => {
    const caught = (all: Series[]) => {
      try {
        checkSeriesSet(all);
      } catch (e) {
        return e as AppError;
      }
      throw new Error("accepted");
    };
    const taken = caught([house, counter, series({ name: "Till", channels: ["pos"] })]);
    expect(taken.details).toMatchObject({ fields: [{ path: "channels" }], channel: "pos", series: "Counter" });
    const named = caught([house, counter, series({ name: "COUNTER" })]);
    expect(named.details).toMatchObject({ fields: [{ path: "name" }], name: "COUNTER" });
    const said = (locale: (typeof LOCALES)[number], e: AppError) =>
      createTranslator({ locale, messages: messagesFor(locale), namespace: "common.errors.reasons" })(
        e.reason as "duplicateSeries",
        e.details as Record<string, string>,
      );
    expect(said("en", taken)).toBe("POS already belongs to the series “Counter”: take it off that series first.");
    expect(said("zh-CN", taken)).toBe("收银已属于号码序列“Counter”：请先从那个序列中去掉。");
    expect(said("en", named)).toBe("There is already a number series named “COUNTER”.");
    expect(said("zh-CN", named)).toBe("已有名为“COUNTER”的号码序列。");
  });

  it("share displayed numbers only with the same prefix and ranges that meet", () => {
    expect(sharesNumbers(counter, kiosk)).toBe(false);
    expect(sharesNumbers(counter, delivery)).toBe(false);
    expect(sharesNumbers(house, kiosk)).toBe(true);
    expect(sharesNumbers({ prefix: "K", first: 1, last: 10 }, { prefix: "K", first: 10, last: null })).toBe(true);
  });

  it("an order takes the series it names (any case), else its channel's, else the default; an unknown name is a 400 naming the field", () => {
    const all = [house, counter, kiosk, delivery];
    expect(seriesFor(all, { channel: "kiosk" }).name).toBe("Kiosk");
    expect(seriesFor(all, { channel: "pos" }).name).toBe("Counter");
    expect(seriesFor(all, { channel: "api" }).name).toBe("Default");
    expect(seriesFor(all, { channel: "delivery", series: "delivery" }).name).toBe("Delivery");
    try {
      seriesFor(all, { channel: "kiosk", series: "Drive-through" });
      expect.unreachable();
    } catch (e) {
      expect(isAppError(e) && e.code).toBe("BAD_INPUT");
      expect((e as Error).message).toBe('No series named "Drive-through": use one of Default, Counter, Kiosk, Delivery');
    }
  });

  it("an order may name only a series serving its channel, one serving no channel, or the default (decision 0041)", () => {
    const drive = series({ name: "Drive-in", prefix: "D", first: 1, last: 99, channels: [] });
    const all = [house, counter, kiosk, delivery, drive];
    for (const channel of ["kiosk", "api", "pos"] as const) {
      expect(seriesFor(all, { channel, series: "Drive-in" }).name).toBe("Drive-in");
      expect(seriesFor(all, { channel, series: "default" }).name).toBe("Default");
    }
    expect(seriesFor(all, { channel: "pos", series: "Counter" }).name).toBe("Counter");
    for (const [channel, name] of [
      ["api", "Kiosk"],
      ["kiosk", "Delivery"],
      ["kiosk", "counter"],
    ] as const) {
      let refused: unknown = null;
      try {
        seriesFor(all, { channel, series: name });
      } catch (e) {
        refused = e;
      }
      expect(isAppError(refused) && refused.code, `${channel} naming ${name}`).toBe("BAD_INPUT");
      expect(isAppError(refused) && refused.reason).toBe("seriesNotForChannel");
      expect(isAppError(refused) && refused.details).toMatchObject({ fields: [{ path: "series" }], channel });
    }
  });
});

describe("the number of a shift's n-th ticket", () => {
  it("counts on from first without an end, and comes round from first after last", () => {
    expect([1, 2, 3].map((t) => numberOfTicket(house, t))).toEqual([1, 2, 3]);
    expect([1, 2].map((t) => numberOfTicket({ first: 50, last: null }, t))).toEqual([50, 51]);
    expect([1, 2, 3, 4, 5].map((t) => numberOfTicket({ first: 1, last: 3 }, t))).toEqual([1, 2, 3, 1, 2]);
    expect([1, 2, 3, 4].map((t) => numberOfTicket({ first: 300, last: 302 }, t))).toEqual([300, 301, 302, 300]);
  });

  it("stays within the range, and any run of `size` tickets shows each number once (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 0, max: 200 }), fc.integer({ min: 1, max: 5000 }), (first, extra, from) => {
        const s = { first, last: first + extra };
        const size = extra + 1;
        const run = Array.from({ length: size }, (_, i) => numberOfTicket(s, from + i));
        expect(new Set(run).size).toBe(size);
        for (const n of run) expect(n >= s.first && n <= s.last).toBe(true);
        expect(numberOfTicket(s, 1)).toBe(first);
      }),
    );
  });

  it("refuses a ticket that is not a positive whole number (a bug, never a number)", () => {
    expect(() => numberOfTicket(house, 0)).toThrow(/ticket 0/);
  });
});

describe("shown, refused and typed", () => {
  it("a new shift's next number is its first, past the numbers open orders hold", () => {
    expect(firstFreeNumber(1, new Set([1, 2, 4]))).toBe(3);
    expect(firstFreeNumber(1, new Set())).toBe(1);
    expect(firstFreeNumber(50, new Set([1, 50, 51]))).toBe(52);
  });

  it("shows the prefix before the number", () => {
    expect(displayNumber("K", 12)).toBe("K12");
    expect(displayNumber("", 12)).toBe("12");
  });

  it("a full series is a 409 SERIES_FULL that names its range", () => {
    const e = seriesFull(delivery);
    expect({ code: e.code, status: e.httpStatus, message: e.message, reason: e.reason }).toEqual({
      code: "SERIES_FULL",
      status: 409,
      message: "All numbers D1–D99 are still open; collect or clear some",
      reason: "seriesFull",
    });
  });

  it("a cook types K12, k12 or 12; 12 alone matches every open 12, which the screen then asks about", () => {
    expect(parseTypedNumber("K12")).toEqual({ prefix: "K", number: 12 });
    expect(parseTypedNumber(" k 12 ")).toEqual({ prefix: "K", number: 12 });
    expect(parseTypedNumber("12")).toEqual({ prefix: null, number: 12 });
    for (const bad of ["", "K", "0", "K-12", "12K", "ABCD1", "１２", "123456789"]) expect(parseTypedNumber(bad), bad).toBeNull();
    const open = [
      { prefix: "K", number: 12, id: "a" },
      { prefix: "", number: 12, id: "b" },
      { prefix: "D", number: 3, id: "c" },
    ];
    expect(matchTyped({ prefix: "K", number: 12 }, open).map((o) => o.id)).toEqual(["a"]);
    expect(matchTyped({ prefix: null, number: 12 }, open).map((o) => o.id)).toEqual(["a", "b"]);
    expect(matchTyped({ prefix: "D", number: 12 }, open)).toEqual([]);
  });
});

describe("seriesFill: a series close to full is shown before it refuses", () => {
  it("is near full from 80 % of its numbers open, full when all are", () => {
    const s = { first: 1, last: 10 };
    expect(seriesFill(s, 7)).toBe("ok");
    expect(seriesFill(s, 8)).toBe("nearFull");
    expect(seriesFill(s, 9)).toBe("nearFull");
    expect(seriesFill(s, 10)).toBe("full");
    // K1–K99: 80 % is 79.2, so 79 open is not yet near full, 80 is.
    expect(seriesFill({ first: 1, last: 99 }, 79)).toBe("ok");
    expect(seriesFill({ first: 1, last: 99 }, 80)).toBe("nearFull");
    expect(seriesFill({ first: 5, last: 5 }, 0)).toBe("ok");
    expect(seriesFill({ first: 5, last: 5 }, 1)).toBe("full");
  });

  it("never fills a series without an end", () => {
    expect(seriesFill(DEFAULT_SERIES, 1_000_000)).toBe("ok");
  });

  it("agrees with the share for any range and count", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 0, max: 10_000 }), fc.nat(20_000), (first, span, open) => {
        const s = { first, last: first + span };
        const size = span + 1;
        const fill = seriesFill(s, open);
        expect(fill === "full").toBe(open >= size);
        expect(fill === "nearFull").toBe(open < size && open / size >= 0.8 - 1e-12);
      }),
    );
  });
});
