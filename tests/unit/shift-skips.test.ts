import { describe, expect, it } from "vitest";
import { skipList, skipPlan, toRuns } from "@/lib/core/shift-skips";

const DEFAULT = { first: 1, last: null };
const K = { first: 1, last: 10 };

describe("toRuns", () => {
  it("joins consecutive numbers into runs and keeps the order given", () => {
    expect(toRuns([1, 3, 4, 5, 8])).toEqual([
      { from: 1, to: 1 },
      { from: 3, to: 5 },
      { from: 8, to: 8 },
    ]);
    expect(toRuns([9, 10, 1, 2])).toEqual([
      { from: 9, to: 10 },
      { from: 1, to: 2 },
    ]);
    expect(toRuns([2, 2, 3])).toEqual([{ from: 2, to: 3 }]);
    expect(toRuns([])).toEqual([]);
  });
});

describe("skipPlan", () => {
  it("the issue's case: from 1 with 1, 3, 4, 5 open, the next number is 2 and those four are passed over", () => {
    expect(skipPlan(DEFAULT, 1, new Set([5, 1, 4, 3]))).toEqual({ next: 2, skipped: [1, 3, 4, 5] });
  });

  it("nothing open: the numbering starts at its start and skips nothing", () => {
    expect(skipPlan(DEFAULT, 1, new Set())).toEqual({ next: 1, skipped: [] });
    expect(skipPlan(DEFAULT, 50, new Set())).toEqual({ next: 50, skipped: [] });
  });

  it("without an end, numbers below the start are never reached", () => {
    expect(skipPlan(DEFAULT, 10, new Set([3, 10, 11, 40]))).toEqual({ next: 12, skipped: [10, 11, 40] });
  });

  it("with a range, numbers outside it are not the series' own and the lap wraps round", () => {
    expect(skipPlan(K, 1, new Set([1, 2, 12]))).toEqual({ next: 3, skipped: [1, 2] });
    expect(skipPlan({ first: 5, last: 9 }, 7, new Set([5, 8, 9, 7]))).toEqual({ next: 6, skipped: [7, 8, 9, 5] });
  });

  it("every number of the range open: no next number", () => {
    expect(skipPlan({ first: 1, last: 3 }, 1, new Set([1, 2, 3]))).toEqual({ next: null, skipped: [1, 2, 3] });
  });
});

describe("skipList", () => {
  it("names runs as ranges, with the series' prefix", () => {
    expect(skipList("", [1, 3, 4, 5], { separator: ", " })).toEqual({ list: "1, 3–5", more: 0, count: 4 });
    expect(skipList("K", [1, 3, 4, 5], { separator: "、" })).toEqual({ list: "K1、K3–K5", more: 0, count: 4 });
    // Two in a row are named one by one.
    expect(skipList("K", [9, 10, 1, 2], { separator: ", " })).toEqual({ list: "K9, K10, K1, K2", more: 0, count: 4 });
  });

  it("caps a long list and counts the numbers it leaves unnamed", () => {
    const skipped = [1, 3, 4, 5, 8, 12, 14, 16, 18, 19, 20, 30];
    expect(skipList("", skipped, { separator: ", ", maxRuns: 3 })).toEqual({ list: "1, 3–5, 8", more: 7, count: 12 });
    // Six by default: 18–20 and 30 are left, four numbers.
    expect(skipList("", skipped, { separator: ", " })).toEqual({ list: "1, 3–5, 8, 12, 14, 16", more: 4, count: 12 });
  });
});
