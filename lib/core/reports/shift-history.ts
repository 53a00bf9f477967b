/**
 * A business day's shifts as the manager's history shows them. Shift 1 has no row of its
 * own: the day itself starts it, at the day's start, with number 1.
 */
import type { BusinessDay } from "../business-day";
import { DEFAULT_SERIES, displayNumber } from "../series";

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

/** A shift's orders of one series: how many, and the first and last ticket's numbers as issued. */
export interface SeriesCount {
  shift: number;
  /** null: the default series. */
  seriesId: string | null;
  /** The series' name on its latest order (null: the default). */
  seriesName: string | null;
  orders: number;
  first: { prefix: string; number: number };
  last: { prefix: string; number: number };
}

/** What a shift issued in a series other than the default: "Kiosk", 40 orders, K1 – K40. */
export interface SeriesRun {
  series: string;
  /** Its prefix on its last ticket. */
  prefix: string;
  orders: number;
  /** Display numbers of its first and last ticket ("K1", "K40"); after a wrap the last may be the lower. */
  first: string;
  last: string;
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
  /** The default series' highest number (null if it issued none). */
  lastNumber: number | null;
  /** The other series' numbers, by prefix (decision 0027). */
  series: SeriesRun[];
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
  counts: readonly SeriesCount[];
}): ShiftHistoryEntry[] {
  if (input.day > input.today) return [];
  const of = (shift: number) => input.counts.filter((c) => c.shift === shift);
  const first: RecordedShift | { shift: 1; firstNumber: 1; startedAt: Date; startedBy: null; reason: null; trigger: "day" } = {
    shift: 1,
    firstNumber: 1,
    startedAt: input.dayStart,
    startedBy: null,
    reason: null,
    trigger: "day",
  };
  const starts = [first, ...input.recorded.filter((r) => r.shift > 1)].sort((a, b) => a.shift - b.shift);
  return starts.map((s) => {
    const counts = of(s.shift);
    return {
      shift: s.shift,
      firstNumber: s.firstNumber,
      startedAt: s.startedAt,
      startedBy: s.startedBy,
      reason: s.reason,
      trigger: s.trigger,
      orders: counts.reduce((n, c) => n + c.orders, 0),
      lastNumber: counts.find((c) => c.seriesId === null)?.last.number ?? null,
      series: seriesRuns(counts),
    };
  });
}

/** A shift's series other than the default, by prefix then name. */
function seriesRuns(counts: readonly SeriesCount[]): SeriesRun[] {
  return counts
    .filter((c) => c.seriesId !== null)
    .map((c) => ({
      series: c.seriesName ?? DEFAULT_SERIES.name,
      prefix: c.last.prefix,
      orders: c.orders,
      first: displayNumber(c.first.prefix, c.first.number),
      last: displayNumber(c.last.prefix, c.last.number),
    }))
    .sort((a, b) => a.prefix.localeCompare(b.prefix, "en") || a.series.localeCompare(b.series, "en"));
}
