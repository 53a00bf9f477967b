/**
 * Scheduled shifts: the local times ("HH:MM") at which a restaurant's schedule starts a new
 * shift, and the UTC instant of each slot on a business day (docs/decisions/0010).
 *
 * A slot belongs to a business day, not to a calendar date: with a 04:00 day start, slot
 * "01:00" of day D is 01:00 on the calendar date D + 1. A slot equal to the day start means
 * nothing (the day itself starts shift 1) and is ignored. DST: a slot inside a skipped hour
 * fires at the first instant after the gap; a slot that happens twice fires at its first
 * occurrence; a slot that a gap pushes out of its (shortened) day does not fire that day.
 */
import { z } from "zod";
import { addDays, businessDayAt, parseDayStart, utcOffsetMs, wallClock, type BusinessDay, type DayRule, type WallClock } from "./business-day";

export const MAX_SLOTS = 12;

/** A schedule as stored: "HH:MM" times, unique, sorted; [] turns the schedule off. */
export const scheduleSchema = z
  .array(
    z.string({ error: 'Shift start must be a time "HH:MM"' }).refine((s) => parseDayStart(s) !== null, {
      error: (iss) => `Shift start "${String(iss.input)}" must be HH:MM between 00:00 and 23:59`,
    }),
    { error: 'Schedule must be a list of times "HH:MM"' },
  )
  .max(MAX_SLOTS, `At most ${MAX_SLOTS} shift start times`)
  .superRefine((slots, ctx) => {
    const seen = new Set<string>();
    for (const s of slots) {
      if (seen.has(s)) ctx.addIssue({ code: "custom", message: `Shift start "${s}" is listed twice` });
      seen.add(s);
    }
  })
  .transform((slots) => [...slots].sort());

export interface ScheduledSlot {
  day: BusinessDay;
  /** "HH:MM" as in the schedule. */
  slot: string;
  /** When it fires. */
  at: Date;
}

const HOUR = 3_600_000;
const MINUTE = 60_000;

function compareWall(a: WallClock, b: WallClock): number {
  return a.date < b.date ? -1 : a.date > b.date ? 1 : a.minutes - b.minutes;
}

/**
 * The first instant at which the wall clock of `timeZone` shows `target`; when it never
 * does (a spring-forward gap), the first instant after the gap.
 */
export function localInstant(target: WallClock, timeZone: string): number {
  const asUtc = Date.parse(`${target.date}T00:00:00Z`) + target.minutes * MINUTE;
  // Every offset in force within ±18 h: the answer is asUtc minus one of them.
  const offsets = new Set<number>();
  for (let k = -6; k <= 6; k++) offsets.add(utcOffsetMs(new Date(asUtc + k * 3 * HOUR), timeZone));
  const candidates = [...offsets].map((o) => asUtc - o).sort((a, b) => a - b);
  const exact = candidates.find((t) => compareWall(wallClock(new Date(t), timeZone), target) === 0);
  if (exact !== undefined) return exact;
  // In a gap: the wall clock is before the target at the earliest candidate and past it at
  // the latest, with one forward jump in between. Find the jump to the minute.
  let lo = candidates[0]!;
  let hi = candidates[candidates.length - 1]!;
  while (hi - lo > MINUTE) {
    const mid = lo + Math.floor((hi - lo) / (2 * MINUTE)) * MINUTE;
    if (compareWall(wallClock(new Date(mid), timeZone), target) < 0) lo = mid;
    else hi = mid;
  }
  return hi;
}

/**
 * The instant slot "HH:MM" of business day `day` fires, or null when it does not fire that
 * day (malformed, equal to the day start, or pushed out of the day by a DST gap).
 */
export function slotInstant(day: BusinessDay, slot: string, rule: DayRule): Date | null {
  const minutes = parseDayStart(slot);
  if (minutes === null || minutes === rule.dayStartMinutes) return null;
  // Before the day start: after midnight, on the next calendar date, still day D.
  const date = minutes < rule.dayStartMinutes ? addDays(day, 1) : day;
  const at = new Date(localInstant({ date, minutes }, rule.timeZone));
  return businessDayAt(at, rule) === day ? at : null;
}

/** The slots of `day` that fire, in the order they fire. */
export function slotsOfDay(day: BusinessDay, schedule: readonly string[], rule: DayRule): ScheduledSlot[] {
  const out: ScheduledSlot[] = [];
  for (const slot of new Set(schedule)) {
    const at = slotInstant(day, slot, rule);
    if (at) out.push({ day, slot, at });
  }
  return out.sort((a, b) => a.at.getTime() - b.at.getTime());
}

/**
 * The slots of the business day `now` falls in whose time has come (at or before now), latest
 * first — leaving out those whose time had passed when the schedule was changed: a slot added
 * at 11:10 for 11:00 waits for tomorrow instead of resetting numbers mid-service.
 */
export function pastSlots(tenant: DayRule & { schedule: readonly string[]; scheduleChangedAt?: Date | null }, now: Date): ScheduledSlot[] {
  const day = businessDayAt(now, tenant);
  const since = tenant.scheduleChangedAt?.getTime() ?? -Infinity;
  return slotsOfDay(day, tenant.schedule, tenant)
    .filter((s) => s.at.getTime() <= now.getTime() && s.at.getTime() >= since)
    .reverse();
}

/** The next slot of the business day `now` falls in that has not come yet; null when none is left today. */
export function nextSlot(tenant: DayRule & { schedule: readonly string[] }, now: Date): ScheduledSlot | null {
  const day = businessDayAt(now, tenant);
  return slotsOfDay(day, tenant.schedule, tenant).find((s) => s.at.getTime() > now.getTime()) ?? null;
}

/**
 * The slot due now: the latest slot of the current business day whose instant is at or
 * before `now`, no more than `graceMs` ago; null when there is none.
 */
export function dueSlot(tenant: DayRule & { schedule: readonly string[]; scheduleChangedAt?: Date | null }, now: Date, graceMs: number): ScheduledSlot | null {
  const latest = pastSlots(tenant, now)[0];
  return latest && now.getTime() - latest.at.getTime() <= graceMs ? latest : null;
}

/** A shift of the day as the overview needs it: which slot (if any) started it. */
export interface DayShift {
  shift: number;
  /** The slot that started it; null for a manual start. */
  slot: string | null;
}

/** A slot the scheduler recorded as skipped (`shift.scheduleSkipped`), and why. */
export interface DaySkip {
  slot: string;
  reason: string;
}

/**
 * One slot of today as it stands: started (by which shift), skipped (why), the next one,
 * later ones, one whose time came and nothing recorded yet (due: within the grace period;
 * missed: past it), or one added after its time had passed (it starts from tomorrow).
 */
export type SlotStatus =
  | { slot: string; at: Date; state: "started"; shift: number }
  | { slot: string; at: Date; state: "skipped"; reason: string }
  | { slot: string; at: Date; state: "due" | "missed" | "addedLate" | "next" | "later" };

/**
 * Today's schedule as it is, merging the slots with the shifts they started and the skips
 * recorded: what the overview says instead of assuming every past slot started.
 */
export function scheduleStatus(
  tenant: DayRule & { schedule: readonly string[]; scheduleChangedAt?: Date | null },
  now: Date,
  record: { shifts: readonly DayShift[]; skips: readonly DaySkip[] },
  graceMs: number,
): SlotStatus[] {
  const day = businessDayAt(now, tenant);
  const since = tenant.scheduleChangedAt?.getTime() ?? -Infinity;
  const started = new Map(record.shifts.filter((s) => s.slot !== null).map((s) => [s.slot!, s.shift]));
  const skipped = new Map(record.skips.map((s) => [s.slot, s.reason]));
  let nextSeen = false;
  return slotsOfDay(day, tenant.schedule, tenant).map(({ slot, at }): SlotStatus => {
    const shift = started.get(slot);
    if (shift !== undefined) return { slot, at, state: "started", shift };
    const reason = skipped.get(slot);
    if (reason !== undefined) return { slot, at, state: "skipped", reason };
    const t = at.getTime();
    if (t > now.getTime()) {
      const state = nextSeen ? "later" : "next";
      nextSeen = true;
      return { slot, at, state };
    }
    // The scheduler never starts a slot whose time had passed when the schedule changed.
    if (t < since) return { slot, at, state: "addedLate" };
    return { slot, at, state: now.getTime() - t <= graceMs ? "due" : "missed" };
  });
}
