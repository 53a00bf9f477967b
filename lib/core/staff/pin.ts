/**
 * A person's PIN (decision 0051): 4 to 8 digits, refused when trivially guessable — one digit
 * repeated ("0000"), a run up or down ("1234", "9876"), or a two-digit pattern repeated
 * ("1212"). What is left of the 10,000 four-digit PINs is what the wrong-PIN waits protect.
 */
import { z } from "zod";

export const PIN_MIN = 4;
export const PIN_MAX = 8;

/** Why `pin` is refused, in a sentence; null when it is acceptable. */
export function pinProblem(pin: string): string | null {
  if (!/^\d*$/.test(pin)) return "PIN must be digits only";
  if (pin.length < PIN_MIN) return `PIN must have at least ${PIN_MIN} digits`;
  if (pin.length > PIN_MAX) return `PIN must have at most ${PIN_MAX} digits`;
  const d = [...pin].map(Number);
  if (d.every((x) => x === d[0])) return "PIN is too easy to guess (one digit repeated)";
  const steps = new Set(d.slice(1).map((x, i) => (x - d[i]! + 10) % 10));
  if (steps.size === 1 && (steps.has(1) || steps.has(9))) return "PIN is too easy to guess (digits in a row)";
  if (pin.length % 2 === 0 && pin === pin.slice(0, 2).repeat(pin.length / 2)) return "PIN is too easy to guess (a pair repeated)";
  return null;
}

export const pinSchema = z.string({ error: "PIN must be digits" }).superRefine((pin, ctx) => {
  const problem = pinProblem(pin);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

/**
 * A name as compared for uniqueness in a restaurant: "Li Wei", " li  wei " and "ＬＩ ＷＥＩ"
 * are one person (NFKC, spaces collapsed, lower case).
 */
export function nameKey(name: string): string {
  return name.normalize("NFKC").trim().replace(/\s+/g, " ").toLocaleLowerCase("en");
}
