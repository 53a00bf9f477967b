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

describe("a number of a series with a prefix (decision 0027): its letters first, one by one", () => {
  it.each([
    ["K", 12, "Number K, twelve", "K 十二号"],
    ["A", 1, "Number A, one", "A 一号"],
    ["KD", 12, "Number K, D, twelve", "K，D 十二号"],
    ["CAT", 101, "Number C, A, T, one hundred and one", "C，A，T 一百零一号"],
    ["", 12, "Number twelve", "十二号"],
  ])("%s%i → %s / %s", (prefix, n, en, zh) => {
    expect(spokenNumber(n, "en", prefix)).toBe(en);
    expect(spokenNumber(n, "zh-CN", prefix)).toBe(zh);
  });

  it("never runs letters together or leaves one standing alone where a voice reads it as a word", () => {
    for (const prefix of ["A", "I", "AB", "IT", "CAT", "ZZZ"]) {
      // eSpeak NG says "A twelve" as "uh twelve", and "CAT" in Mandarin as one syllable.
      expect(spokenNumber(42, "en", prefix)).toMatch(/^Number ([A-Z], )+forty-two$/);
      expect(spokenNumber(42, "zh-CN", prefix)).toMatch(/^[A-Z](，[A-Z])* 四十二号$/);
    }
  });

  it("says anything that is not a prefix as written (never letters it was not given)", () => {
    expect(spokenNumber(12, "en", "k")).toBe("k12");
    expect(spokenNumber(12, "en", "ABCD")).toBe("ABCD12");
  });
});
