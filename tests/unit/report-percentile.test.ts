import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { nearestRank, spreadSeconds } from "@/lib/core/reports/percentile";

describe("nearestRank (p-th percentile = value at rank ⌈p/100·n⌉ of the sorted values)", () => {
  it("no values: null", () => {
    expect(nearestRank([], 50)).toBeNull();
  });

  it("one value is every percentile", () => {
    expect(nearestRank([7], 50)).toBe(7);
    expect(nearestRank([7], 90)).toBe(7);
  });

  it("the textbook cases, unsorted input", () => {
    const v = [35, 20, 15, 50, 40];
    expect(nearestRank(v, 30)).toBe(20); // ⌈1.5⌉ = 2
    expect(nearestRank(v, 40)).toBe(20); // ⌈2⌉ = 2
    expect(nearestRank(v, 50)).toBe(35); // ⌈2.5⌉ = 3
    expect(nearestRank(v, 100)).toBe(50);
  });

  it("p50 of an even count is the lower middle, never an average", () => {
    expect(nearestRank([1, 2, 3, 4], 50)).toBe(2);
  });

  it("p90 of 1..10 is 9, of 1..20 is 18, of 1..11 is 10", () => {
    const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
    expect(nearestRank(range(10), 90)).toBe(9);
    expect(nearestRank(range(20), 90)).toBe(18);
    expect(nearestRank(range(11), 90)).toBe(10); // ⌈9.9⌉ = 10
  });

  it("does not reorder the caller's array", () => {
    const v = [3, 1, 2];
    nearestRank(v, 50);
    expect(v).toEqual([3, 1, 2]);
  });

  it("refuses a percentile outside (0, 100]", () => {
    expect(() => nearestRank([1], 0)).toThrow(RangeError);
    expect(() => nearestRank([1], 101)).toThrow(RangeError);
  });

  it("property: the answer is one of the values, at least ⌈p·n/100⌉ values are ≤ it and fewer are < it", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 10_000 }), { minLength: 1, maxLength: 200 }), fc.integer({ min: 1, max: 100 }), (v, p) => {
        const r = nearestRank(v, p)!;
        const need = Math.ceil((p / 100) * v.length);
        expect(v).toContain(r);
        expect(v.filter((x) => x <= r).length).toBeGreaterThanOrEqual(need);
        expect(v.filter((x) => x < r).length).toBeLessThan(need);
      }),
    );
  });
});

describe("spreadSeconds", () => {
  it("answers in seconds to the millisecond, with the sample count", () => {
    expect(spreadSeconds([60_000, 120_500, 30_000, 90_250])).toEqual({ samples: 4, p50: 60, p90: 120.5 });
  });
  it("no data: nulls", () => {
    expect(spreadSeconds([])).toEqual({ samples: 0, p50: null, p90: null });
  });
});
