/**
 * Test clocks that sit near the real now, never on a calendar date: a test against the real
 * Redis and PostgreSQL whose clock is pinned to a date goes red once the calendar passes it
 * (Redis compares every expiry with its own clock). Times are named as a restaurant would
 * ("12:00 in Berlin, today"), so they keep their meaning in any season.
 *
 * The year-ahead run (`npm run test:year-ahead`) shifts the suite's clock a year forward;
 * a test clock started on a pinned date then lies a year away and is refused here, the day
 * the test is written rather than the day the calendar reaches it.
 */
import { addDays, utcOffsetMs, wallClock, type BusinessDay } from "@/lib/core/business-day";
import type { Clock } from "@/lib/core/ports";

const DAY_MS = 86_400_000;
/** How far from the suite's now a test clock may start. */
export const MAX_START_DAYS = 14;

/** Today's date on the wall clock of `timeZone`, `days` later (negative: earlier). */
export function localDate(timeZone: string, days = 0): BusinessDay {
  return addDays(wallClock(new Date(), timeZone).date, days);
}

/**
 * The instant a wall clock in `timeZone` reads `hhmm` on today's date there, `days` later.
 * For a time inside a DST gap it is the instant after the gap; pick ordinary hours.
 */
export function wallTime(timeZone: string, hhmm: string, days = 0): Date {
  const local = Date.parse(`${localDate(timeZone, days)}T${hhmm}:00Z`);
  // The offset at the instant itself: two steps settle it (an offset change lies between).
  let at = local - utcOffsetMs(new Date(local), timeZone);
  at = local - utcOffsetMs(new Date(at), timeZone);
  return new Date(at);
}

export interface MovableClock extends Clock {
  set(at: Date): Date;
  /** Moves the clock forward by `ms` (each step a distinct instant). */
  tick(ms?: number): Date;
}

/** A clock a test moves by hand; it must start within MAX_START_DAYS of the suite's now. */
export function movableClock(start: Date): MovableClock {
  const away = Math.abs(start.getTime() - Date.now()) / DAY_MS;
  if (!(away <= MAX_START_DAYS)) {
    throw new Error(
      `a test clock must start near now (within ${MAX_START_DAYS} days), not on a pinned date: ${start.toISOString()} is ${Math.round(away)} days away. Use wallTime()/localDate() from tests/support/clock.ts.`,
    );
  }
  let now = start;
  return {
    now: () => now,
    set: (at) => (now = at),
    tick: (ms = 1_000) => (now = new Date(now.getTime() + ms)),
  };
}

/** The next Sunday on which Europe's clocks go forward (the last Sunday of March), at least a day away. */
export function nextEuropeanSpringForward(): BusinessDay {
  const today = new Date().toISOString().slice(0, 10);
  for (let year = Number(today.slice(0, 4)); ; year++) {
    const lastOfMarch = new Date(Date.UTC(year, 2, 31));
    const sunday = addDays(lastOfMarch.toISOString().slice(0, 10), -lastOfMarch.getUTCDay());
    if (sunday > today) return sunday;
  }
}
