/**
 * A person's PIN (decision 0051): 4 to 8 digits, refused when trivially guessable — one digit
 * repeated ("0000"), a run up or down ("1234", "9876"), or a two-digit pattern repeated
 * ("1212"). What is left of the 10,000 four-digit PINs is what the wrong-PIN waits protect.
 */
import { z } from "zod";

export const PIN_MIN = 4;
export const PIN_MAX = 8;

/** Why a PIN is refused: each edge words it in its own language. */
export type PinProblem = "digits" | "short" | "long" | "easy";

const PROBLEM_MESSAGES: Record<PinProblem, string> = {
  digits: "PIN must be digits only",
  short: `PIN must have at least ${PIN_MIN} digits`,
  long: `PIN must have at most ${PIN_MAX} digits`,
  easy: "PIN is too easy to guess (one digit repeated, digits in a row, or a pair repeated)",
};

/** Why `pin` is refused; null when it is acceptable. */
export function pinProblem(pin: string): PinProblem | null {
  if (!/^\d*$/.test(pin)) return "digits";
  if (pin.length < PIN_MIN) return "short";
  if (pin.length > PIN_MAX) return "long";
  const d = [...pin].map(Number);
  if (d.every((x) => x === d[0])) return "easy";
  const steps = new Set(d.slice(1).map((x, i) => (x - d[i]! + 10) % 10));
  if (steps.size === 1 && (steps.has(1) || steps.has(9))) return "easy";
  if (pin.length % 2 === 0 && pin === pin.slice(0, 2).repeat(pin.length / 2)) return "easy";
  return null;
}

export const pinSchema = z.string({ error: "PIN must be digits" }).superRefine((pin, ctx) => {
  const problem = pinProblem(pin);
  if (problem) ctx.addIssue({ code: "custom", message: PROBLEM_MESSAGES[problem] });
});

/**
 * A name as compared for uniqueness in a restaurant: "Li Wei", " li  wei " and "ＬＩ ＷＥＩ"
 * are one person (NFKC, spaces collapsed, lower case).
 */
export function nameKey(name: string): string {
  return name.normalize("NFKC").trim().replace(/\s+/g, " ").toLocaleLowerCase("en");
}
