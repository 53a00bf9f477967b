/** The reports' query parameters, validated with the bad field named (400 BAD_INPUT). */
import { z } from "zod";
import { addDays, type BusinessDay } from "../business-day";
import { parseOrThrow } from "../orders";

/** A real calendar date "YYYY-MM-DD" (2026-02-30 is not one). */
export function isCalendarDay(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** Whole days from `from` to `to`, both included. */
export function daysInRange(from: BusinessDay, to: BusinessDay): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** The longest CSV export, in days: about a quarter. */
export const MAX_EXPORT_DAYS = 93;

const day = () => z.string({ error: "required, a date YYYY-MM-DD" }).refine(isCalendarDay, { error: "must be a real date YYYY-MM-DD" });

export const dayQuerySchema = z.object({ day: day().optional() });

export function parseDayQuery(q: Record<string, string | undefined>): { day?: BusinessDay } {
  return parseOrThrow(dayQuerySchema, q, "day");
}

export const numberQuerySchema = z.object({
  // As the ticket shows it: 12, or with its series' letters K12 (k12 too); decision 0027.
  number: z
    .string({ error: "required, the order number" })
    .regex(/^([A-Za-z]{1,3})?[1-9]\d{0,7}$/, "must be an order number as shown, e.g. 12 or K12 (1 to 99999999, up to 3 letters before it)")
    .transform((s) => {
      const [, letters, digits] = /^([A-Za-z]*)(\d+)$/.exec(s)!;
      return { prefix: letters ? letters.toUpperCase() : null, number: Number(digits) };
    }),
  day: day().optional(),
});

/** `?number=K12[&day=]`: the number and its prefix (null when none was typed: every series' 12). */
export function parseNumberQuery(q: Record<string, string | undefined>): { number: number; prefix: string | null; day?: BusinessDay } {
  const { number, day } = parseOrThrow(numberQuerySchema, q, "order search");
  return { ...number, ...(day ? { day } : {}) };
}

export const rangeQuerySchema = z.strictObject({ from: day(), to: day() }).superRefine((r, ctx) => {
  if (!isCalendarDay(r.from) || !isCalendarDay(r.to)) return;
  if (r.from > r.to) ctx.addIssue({ code: "custom", path: ["to"], message: "must not be before from" });
  else if (daysInRange(r.from, r.to) > MAX_EXPORT_DAYS) {
    ctx.addIssue({
      code: "custom",
      path: ["to"],
      message: `the range is at most ${MAX_EXPORT_DAYS} days (to may be at most ${addDays(r.from, MAX_EXPORT_DAYS - 1)})`,
    });
  }
});

export function parseRangeQuery(q: Record<string, string | undefined>): { from: BusinessDay; to: BusinessDay } {
  return parseOrThrow(rangeQuerySchema, q, "date range");
}
