import { describe, expect, it } from "vitest";
import { spokenNumber } from "@/lib/core/spoken-number";

describe("the words the board says for a ready number", () => {
  it.each([
    [1, "Number one", "一号"],
    [7, "Number seven", "七号"],
    [10, "Number ten", "十号"],
    [11, "Number eleven", "十一号"],
    [20, "Number twenty", "二十号"],
    [42, "Number forty-two", "四十二号"],
    [100, "Number one hundred", "一百号"],
    [101, "Number one hundred and one", "一百零一号"],
    [110, "Number one hundred and ten", "一百一十号"],
    [999, "Number nine hundred and ninety-nine", "九百九十九号"],
    [1000, "Number one thousand", "一千号"],
    [1010, "Number one thousand and ten", "一千零一十号"],
    [10001, "Number ten thousand and one", "一万零一号"],
  ])("%i → %s / %s", (n, en, zh) => {
    expect(spokenNumber(n, "en")).toBe(en);
    expect(spokenNumber(n, "zh-CN")).toBe(zh);
  });

  it("never reads a number digit by digit", () => {
    for (let n = 1; n <= 1000; n++) {
      expect(spokenNumber(n, "en")).not.toMatch(/\d/);
      expect(spokenNumber(n, "zh-CN")).not.toMatch(/\d/);
      // No leading zero word and no "一十" for 10–19.
      expect(spokenNumber(n, "zh-CN")).not.toMatch(/^零|^一十/);
    }
  });
});
