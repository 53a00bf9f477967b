/**
 * The business day: a restaurant's day runs from its day-start time (e.g. 04:00) in its
 * own time zone to the same time the next calendar day. An order at 01:30 local on
 * 22 November with a 04:00 day-start belongs to business day 21 November.
 *
 * It is computed from the wall clock in the tenant's zone, so it never drifts (unlike a
 * TTL counted from the first order, see docs/decisions/0002) and DST only shortens or
 * lengthens one business day by an hour: a day-start that falls into a skipped hour
 * starts the day at the first wall time after it; one that occurs twice starts it at the
 * first occurrence.
 */

/** A calendar date "YYYY-MM-DD". Lexicographic order is chronological order. */
export type BusinessDay = string;

const BUSINESS_DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

export function isBusinessDay(s: string): s is BusinessDay {
  return BUSINESS_DAY_RE.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`));
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** True when `tz` is an IANA zone this runtime knows. */
export function isValidTimeZone(tz: string): boolean {
  if (!tz || typeof tz !== "string") return false;
  try {
    formatterFor(tz);
    return true;
  } catch {
    return false;
  }
}

/** Parses "HH:MM" (00:00–23:59) into minutes after midnight; null when malformed. */
export function parseDayStart(hhmm: string): number | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(hhmm);
  if (!m) return null;
  return Number(m[1]) * 60 + Number(m[2]);
}

export function formatDayStart(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`;
}

/** What a wall clock in some zone shows: a calendar date and minutes after midnight. */
export interface WallClock {
  date: BusinessDay;
  minutes: number;
}

export function wallClock(at: Date, timeZone: string): WallClock {
  const parts = formatterFor(timeZone).formatToParts(at);
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  return {
    date: `${get("year")}-${get("month")}-${get("day")}`,
    minutes: Number(get("hour")) * 60 + Number(get("minute")),
  };
}

/** The zone's offset from UTC at `at`, in ms (to the minute). */
export function utcOffsetMs(at: Date, timeZone: string): number {
  const w = wallClock(at, timeZone);
  return Date.parse(`${w.date}T00:00:00Z`) + w.minutes * 60_000 - Math.floor(at.getTime() / 60_000) * 60_000;
}

/** Adds `days` calendar days to a date string. */
export function addDays(day: BusinessDay, days: number): BusinessDay {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export interface DayRule {
  timeZone: string;
  /** Minutes after local midnight. */
  dayStartMinutes: number;
}

/**
 * The business day `at` falls in: the local date if the wall clock has reached the
 * day-start, else the day before. On a spring-forward day whose day-start lies in the
 * skipped hour, wall times after the gap are already past it, so the day begins at the
 * end of the gap. On a fall-back day the first occurrence of the day-start wins: during
 * the repeated hour the wall clock shows an earlier time again, but the day has begun.
 */
export function businessDayAt(at: Date, rule: DayRule): BusinessDay {
  // Time zones and day-starts are whole minutes, so the business day is constant within
  // a UTC minute: compute it once per minute and rule (it sits on the number-issuing path).
  const minute = Math.floor(at.getTime() / 60_000);
  const cacheKey = `${rule.timeZone}|${rule.dayStartMinutes}`;
  const hit = dayCache.get(cacheKey);
  if (hit && hit.minute === minute) return hit.day;
  const day = computeBusinessDay(at, rule);
  if (dayCache.size > 10_000) dayCache.clear();
  dayCache.set(cacheKey, { minute, day });
  return day;
}

const dayCache = new Map<string, { minute: number; day: BusinessDay }>();

function computeBusinessDay(at: Date, rule: DayRule): BusinessDay {
  const wall = wallClock(at, rule.timeZone);
  if (wall.minutes >= rule.dayStartMinutes) return wall.date;
  // Fall-back repeat: the clock went back within the last two hours (no zone shifts by
  // more) and the first pass had already reached the day-start on this same date?
  const before = new Date(at.getTime() - 2 * 3_600_000);
  const offsetBefore = utcOffsetMs(before, rule.timeZone);
  if (offsetBefore > utcOffsetMs(at, rule.timeZone)) {
    const firstPass = Date.parse(`${wall.date}T00:00:00Z`) + rule.dayStartMinutes * 60_000 - offsetBefore;
    if (firstPass <= at.getTime()) {
      const w = wallClock(new Date(firstPass), rule.timeZone);
      if (w.date === wall.date && w.minutes === rule.dayStartMinutes) return wall.date;
    }
  }
  return addDays(wall.date, -1);
}

/**
 * When keys of business day `day` may expire: at least 12 hours after the day has ended
 * in any time zone (UTC−12 … UTC+14, any day-start), plus a per-tenant jitter so that
 * tenants' keys don't all expire together. Computed from the day alone, so every node
 * agrees. Expiry is only clean-up: the counter records its day, so correctness never
 * depends on it.
 */
export function expiryFor(day: BusinessDay, jitterMs: number): number {
  // Day D ends at the latest at D+1 23:59 local in UTC−12 = D+2 11:59Z; +12 h = D+3 00:00Z.
  return Date.parse(`${addDays(day, 3)}T00:00:00Z`) + Math.max(0, Math.floor(jitterMs));
}

/** The later of two business days: a node whose clock lags never moves a tenant back. */
export function laterDay(a: BusinessDay, b: BusinessDay): BusinessDay {
  return a >= b ? a : b;
}
