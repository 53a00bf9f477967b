/** Scheduled backups' outside world (decision 0049): the runs' ledger, the files, the metrics. */

/** A backup run as recorded; `ok` null while it runs. */
export interface BackupRunRecord {
  slot: Date;
  node: string;
  startedAt: Date;
  finishedAt: Date | null;
  ok: boolean | null;
  file: string | null;
  bytes: number | null;
  orders: number | null;
  error: string | null;
}

export interface BackupRunSummary {
  latest: BackupRunRecord | null;
  lastOk: BackupRunRecord | null;
  kept: number;
}

export interface BackupRunStore {
  /** Claims `slot` for `node`: true for exactly one caller per slot (a unique index decides). */
  claim(slot: Date, node: string): Promise<boolean>;
  /** Records how the claimed run ended (only the claiming node's row). */
  finish(slot: Date, node: string, end: { ok: true; file: string; bytes: number; orders: number } | { ok: false; error: string }): Promise<void>;
  /** In one reading: the latest run (finished or not), the latest successful one, and how many good backups are kept. */
  summary(): Promise<BackupRunSummary>;
  /** Successful runs whose file is still there, newest first. */
  kept(): Promise<Array<{ slot: Date; file: string }>>;
  /** Marks a run's file as removed by retention. */
  markDeleted(slot: Date): Promise<void>;
}

export interface BackupFiles {
  /** Writes a whole backup for `slot` into the backup folder; the file appears complete or not at all. */
  write(slot: Date): Promise<{ file: string; bytes: number; orders: number }>;
  /** Removes a backup file this app wrote (a missing one is not an error). */
  remove(file: string): Promise<void>;
}

export interface BackupMetrics {
  run(outcome: "ok" | "failed", at: Date): void;
}
