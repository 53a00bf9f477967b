import { describe, expect, it } from "vitest";
import { OpenNumberSkips } from "@/lib/core/open-number-skips";

const W = { name: "Window", prefix: "W", first: 1, last: 3 };

/** A reader of the open numbers that answers from a list of readings, counting its reads. */
function reader(...readings: number[][]) {
  let reads = 0;
  return {
    read: async () => new Set(readings[Math.min(reads++, readings.length - 1)]),
    reads: () => reads,
  };
}

describe("OpenNumberSkips (decision 0027)", () => {
  it("holds nothing and reads nothing before the index first refuses a number", () => {
    const r = reader([1, 2]);
    const skips = new OpenNumberSkips(W, r.read, "diner");
    expect(skips.holds(1)).toBe(false);
    expect(r.reads()).toBe(0);
  });

  it("a refused number is held with the ones read, even when the reading missed it", async () => {
    const r = reader([2]);
    const skips = new OpenNumberSkips(W, r.read, "diner");
    await skips.refused(1);
    expect([1, 2, 3].map((n) => skips.holds(n))).toEqual([true, true, false]);
  });

  it("reads again after a whole lap skipped on one reading, and says SERIES_FULL once every number is open", async () => {
    const r = reader([1], [1, 2, 3]);
    const skips = new OpenNumberSkips(W, r.read, "diner");
    await skips.refused(1);
    await skips.skip();
    await skips.skip();
    expect(r.reads()).toBe(1);
    const e = await skips.skip().catch((err: unknown) => err);
    expect(r.reads()).toBe(2);
    expect(e).toMatchObject({ code: "SERIES_FULL", reason: "seriesFull", details: { first: "W1", last: "W3" } });
  });

  it("a refusal that finds the whole range open is SERIES_FULL at once", async () => {
    const skips = new OpenNumberSkips(W, reader([2, 3]).read, "diner");
    await expect(skips.refused(1)).rejects.toMatchObject({ code: "SERIES_FULL" });
  });

  it("numbers open outside the range do not fill it", async () => {
    const skips = new OpenNumberSkips(W, reader([1, 2, 4, 5, 6]).read, "diner");
    await skips.refused(1);
    expect(skips.holds(3)).toBe(false);
  });

  it("gives up with UNAVAILABLE after skipping 1000 more draws than numbers open (an endless series never laps)", async () => {
    const skips = new OpenNumberSkips({ ...W, last: null }, reader([5, 6]).read, "diner");
    await skips.refused(5);
    for (let i = 1; i < 1_002; i++) await skips.skip();
    const e = await skips.skip().catch((err: unknown) => err);
    expect(e).toMatchObject({ code: "UNAVAILABLE", httpStatus: 503 });
    expect((e as Error).message).toBe("Skipped 1003 open numbers for diner without finding a free one");
  });
});
