/**
 * When scheduled backups are due (decision 0049): periods of `everyMinutes` aligned to the
 * epoch, so every node computes the same slot for the same moment and the slot's unique
 * row decides which node makes it.
 */
export function backupSlot(now: Date, everyMinutes: number): Date {
  const every = everyMinutes * 60_000;
  return new Date(Math.floor(now.getTime() / every) * every);
}

/** A run started this long ago and not finished is taken as failed (its node stopped). */
export const BACKUP_STALE_MS = 60 * 60_000;

/** What the console and /api/health say of backups. */
export type BackupState =
  | { state: "off" }
  | { state: "none" }
  | { state: "running"; since: Date; lastOk: Date | null }
  | { state: "ok"; at: Date; lastOk: Date; kept: number; dir: string }
  | { state: "failed"; at: Date; error: string; lastOk: Date | null; kept: number; dir: string };
