import { describe, expect, it } from "vitest";
import { nameKey, pinProblem, pinSchema } from "@/lib/core/staff/pin";
import { ADDRESS_WAITS, afterWrongPin, NO_FAILURES, PERSON_WAITS, waitAfter, waitLeft, type PinFailures } from "@/lib/core/staff/pin-waits";

describe("PIN rules", () => {
  it.each(["2580", "0852", "13579", "846201", "90210", "12345670", "1357", "7391"])("accepts %s", (pin) => {
    expect(pinProblem(pin)).toBeNull();
  });

  it.each([
    ["", "short"],
    ["123", "short"],
    ["123456789", "long"],
    ["12a4", "digits"],
    [" 2580", "digits"],
    ["２５８０", "digits"],
    ["0000", "easy"],
    ["77777777", "easy"],
    ["1234", "easy"],
    ["4321", "easy"],
    ["7890", "easy"],
    ["9012", "easy"],
    ["87654321", "easy"],
    ["1212", "easy"],
    ["909090", "easy"],
  ])("refuses %j (%s)", (pin, why) => {
    expect(pinProblem(pin)).toBe(why);
  });

  it("says why in the API's sentence", () => {
    expect(pinSchema.safeParse("1234").error?.issues[0]?.message).toMatch(/too easy to guess/);
    expect(pinSchema.safeParse("12").error?.issues[0]?.message).toBe("PIN must have at least 4 digits");
    expect(pinSchema.safeParse("2580").success).toBe(true);
  });

  it("leaves most four-digit PINs to the waits", () => {
    let refused = 0;
    for (let n = 0; n < 10_000; n++) if (pinProblem(String(n).padStart(4, "0"))) refused++;
    // 10 repeated digits, 20 runs (10 up, 10 down, wrapping), 90 pairs repeated (not counting 0000…).
    expect(refused).toBe(120);
  });

  it("folds names for uniqueness: case, spacing and full-width forms", () => {
    expect(nameKey(" Li  Wei ")).toBe("li wei");
    expect(nameKey("ＬＩ ＷＥＩ")).toBe("li wei");
    expect(nameKey("李伟")).toBe("李伟");
  });
});

describe("wrong-PIN waits", () => {
  const t0 = new Date("2026-12-02T18:00:00Z");
  const at = (s: number) => new Date(t0.getTime() + s * 1000);
  const wrong = (rule = PERSON_WAITS, n: number, f: PinFailures = NO_FAILURES, when = t0): PinFailures => {
    for (let i = 0; i < n; i++) f = afterWrongPin(rule, f, when);
    return f;
  };

  it("a person: four wrong PINs cost nothing, the 5th waits 30 s, then it doubles up to 15 minutes", () => {
    expect([1, 2, 3, 4].map((n) => waitAfter(PERSON_WAITS, n))).toEqual([0, 0, 0, 0]);
    expect([5, 6, 7, 8, 9, 10, 11, 40].map((n) => waitAfter(PERSON_WAITS, n) / 1000)).toEqual([30, 60, 120, 240, 480, 900, 900, 900]);
  });

  it("an address: the 20th wrong PIN starts the waits", () => {
    expect(waitAfter(ADDRESS_WAITS, 19)).toBe(0);
    expect(waitAfter(ADDRESS_WAITS, 20)).toBe(30_000);
  });

  it("the wait runs out with the clock, and the count is forgotten a day after the last wrong PIN", () => {
    const f = wrong(PERSON_WAITS, 5);
    expect(waitLeft(PERSON_WAITS, f, at(0))).toBe(30_000);
    expect(waitLeft(PERSON_WAITS, f, at(29))).toBe(1_000);
    expect(waitLeft(PERSON_WAITS, f, at(30))).toBe(0);
    // The 6th wrong PIN after the wait: 60 s.
    expect(waitLeft(PERSON_WAITS, afterWrongPin(PERSON_WAITS, f, at(30)), at(30))).toBe(60_000);
    // A day later it starts again from one.
    expect(afterWrongPin(PERSON_WAITS, f, at(24 * 3600)).failures).toBe(1);
    expect(afterWrongPin(PERSON_WAITS, f, at(24 * 3600 - 1)).failures).toBe(6);
    // An address forgets after an hour.
    expect(afterWrongPin(ADDRESS_WAITS, wrong(ADDRESS_WAITS, 25), at(3600)).failures).toBe(1);
  });

  it("at most about 105 guesses a day at one person's PIN, however many devices try", () => {
    // An attacker who tries as soon as each wait ends, from anywhere: the person's count is one.
    let f = NO_FAILURES;
    let now = 0;
    let guesses = 0;
    while (now < 24 * 3600 * 1000) {
      const left = waitLeft(PERSON_WAITS, f, new Date(t0.getTime() + now));
      now += left;
      if (now >= 24 * 3600 * 1000) break;
      f = afterWrongPin(PERSON_WAITS, f, new Date(t0.getTime() + now));
      guesses++;
    }
    expect(guesses).toBeGreaterThan(90);
    expect(guesses).toBeLessThanOrEqual(105);
  });
});
