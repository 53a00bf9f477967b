/**
 * The hours of a business day in the restaurant's own zone: where the day starts as an
 * instant, and the hour-long slices it is cut into for "orders per hour". A day has 24
 * slices, 23 on a spring-forward day, 25 on a fall-back day (the repeated hour shows its
 * local label twice), and the last slice is shorter when the day is not a whole number
 * of hours long (a day-start inside a skipped hour).
 */
import { addDays, businessDayAt, type BusinessDay, type DayRule } from "../business-day";

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

/**
 * The first instant (to the minute) that belongs to business day `day`. Found by bisection
 * on businessDayAt, so it agrees with how orders are numbered, DST rules included.
 */
export function dayStartInstant(day: BusinessDay, rule: DayRule): Date {
  const naive = Date.parse(`${day}T00:00:00Z`) + rule.dayStartMinutes * MINUTE_MS;
  // No zone is more than 14 h from UTC: the start lies within ±16 h of the naive instant.
  let lo = Math.floor((naive - 16 * HOUR_MS) / MINUTE_MS); // before the day
  let hi = Math.floor((naive + 16 * HOUR_MS) / MINUTE_MS); // within or after it
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (businessDayAt(new Date(mid * MINUTE_MS), rule) >= day) hi = mid;
    else lo = mid;
  }
  return new Date(hi * MINUTE_MS);
}

export interface DayHour {
  /** Local wall time the slice starts at, "HH:MM". */
  label: string;
  start: Date;
  end: Date;
}

const labelFormats = new Map<string, Intl.DateTimeFormat>();

function localLabel(at: Date, timeZone: string): string {
  let f = labelFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    labelFormats.set(timeZone, f);
  }
  return f.format(at);
}

/** The hour-long slices of `day`, from its start to the next day's start. */
export function dayHours(day: BusinessDay, rule: DayRule): DayHour[] {
  const start = dayStartInstant(day, rule).getTime();
  const end = dayStartInstant(addDays(day, 1), rule).getTime();
  const hours: DayHour[] = [];
  for (let t = start; t < end; t += HOUR_MS) {
    hours.push({ label: localLabel(new Date(t), rule.timeZone), start: new Date(t), end: new Date(Math.min(t + HOUR_MS, end)) });
  }
  return hours;
}

/**
 * Orders per slice from counts keyed by slice index (whole hours since the day's start).
 * An index out of range (an order stamped by a node whose clock was off) counts in the
 * nearest slice rather than vanishing from the total.
 */
export function hourlyCounts(hours: readonly DayHour[], counts: readonly { index: number; orders: number }[]): number[] {
  const out = hours.map(() => 0);
  if (out.length === 0) return out;
  for (const c of counts) {
    const i = Math.min(out.length - 1, Math.max(0, Math.floor(c.index)));
    out[i]! += c.orders;
  }
  return out;
}
