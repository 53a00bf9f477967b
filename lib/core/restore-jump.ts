/**
 * How far the counters jump when a backup is restored (decision 0046): numbers handed out
 * after the backup are held by customers and are in no database any more.
 */
import { addDays, businessDayAt, type BusinessDay, type DayRule } from "./business-day";

/** The blocks Redis may have reserved beyond the ledger: 2 × 40 (as after a failover, decision 0028). */
export const RESTORE_JUMP_MARGIN = 2 * 40;
/** How far back the backup's own orders are read for the busiest window. */
export const RESTORE_LOOKBACK_DAYS = 7;
const DAY_SECONDS = 86_400;

/**
 * The window whose orders may be missing: from the backup to the restore (the failure lies
 * between), at least a minute (clocks of two machines) and at most a whole day (a business
 * day's counter never hands out more than its day's orders).
 */
export function restoreWindowSeconds(backupAt: Date, restoredAt: Date): number {
  const seconds = Math.ceil((restoredAt.getTime() - backupAt.getTime()) / 1000);
  return Math.min(DAY_SECONDS, Math.max(60, seconds));
}

/** The business days whose counters may still be in use at the restore: today's and yesterday's (as 0028's "last two"). */
export function daysToJump(restoredAt: Date, rule: DayRule): BusinessDay[] {
  const today = businessDayAt(restoredAt, rule);
  return [addDays(today, -1), today];
}

/** How many tickets a counter jumps: the margin plus the most orders it stored in any window as long as the one that may be missing. */
export function restoreJump(mostInWindow: number): number {
  return RESTORE_JUMP_MARGIN + Math.max(0, mostInWindow);
}

/**
 * A series that comes round (decision 0027) after `lap` numbers cannot jump past numbers
 * handed out a lap or more ago: when the jump is a lap or more, every number of it may be
 * held by a customer from before the restore, and the manager is told.
 */
export function jumpLapsSeries(series: { first: number; last: number | null }, by: number): boolean {
  return series.last !== null && by >= series.last - series.first + 1;
}
