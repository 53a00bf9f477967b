/**
 * A business day's shifts as the manager's history shows them. Shift 1 has no row of its
 * own: the day itself starts it, at the day's start, with number 1.
 */
import type { BusinessDay } from "../business-day";

export type ShiftTriggerName = "manual" | "schedule" | "day";

/** A recorded shift start (shift 2 onwards). */
export interface RecordedShift {
  shift: number;
  firstNumber: number;
  startedAt: Date;
  startedBy: string;
  reason: string | null;
  trigger: "manual" | "schedule";
}

export interface ShiftCount {
  shift: number;
  orders: number;
  lastNumber: number | null;
}

export interface ShiftHistoryEntry {
  shift: number;
  firstNumber: number;
  startedAt: Date;
  /** null for shift 1, which nobody started: the business day did. */
  startedBy: string | null;
  reason: string | null;
  trigger: ShiftTriggerName;
  orders: number;
  lastNumber: number | null;
}

/**
 * Shifts of `day`, oldest first. A day that has not started yet (`day` after `today`)
 * has none; any other day has at least shift 1.
 */
export function assembleShiftHistory(input: {
  day: BusinessDay;
  today: BusinessDay;
  dayStart: Date;
  recorded: readonly RecordedShift[];
  counts: readonly ShiftCount[];
}): ShiftHistoryEntry[] {
  if (input.day > input.today) return [];
  const counts = new Map(input.counts.map((c) => [c.shift, c]));
  const first: RecordedShift | { shift: 1; firstNumber: 1; startedAt: Date; startedBy: null; reason: null; trigger: "day" } = {
    shift: 1,
    firstNumber: 1,
    startedAt: input.dayStart,
    startedBy: null,
    reason: null,
    trigger: "day",
  };
  const starts = [first, ...input.recorded.filter((r) => r.shift > 1)].sort((a, b) => a.shift - b.shift);
  return starts.map((s) => ({
    shift: s.shift,
    firstNumber: s.firstNumber,
    startedAt: s.startedAt,
    startedBy: s.startedBy,
    reason: s.reason,
    trigger: s.trigger,
    orders: counts.get(s.shift)?.orders ?? 0,
    lastNumber: counts.get(s.shift)?.lastNumber ?? null,
  }));
}
