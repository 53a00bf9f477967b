/** Scheduled backups (decision 0049): on when BACKUP_DIR is set (server.ts sets it on the embedded database). */
import os from "node:os";
import type { Registry } from "prom-client";
import { BackupScheduler } from "@/lib/core/backups/backup-scheduler";
import type { Clock, Logger } from "@/lib/core/ports";
import { PrismaBackupRunStore } from "@/lib/adapters/postgres/backup-runs.server";
import type { Db } from "@/lib/adapters/postgres/prisma.server";
import { folderBackupFiles } from "@/lib/adapters/files/backup-files.server";
import type { Env } from "../env.server";
import { registerBackupMetrics } from "../ops/metrics.server";

export function wireBackups(deps: {
  env: Pick<Env, "BACKUP_DIR" | "BACKUP_EVERY_MINUTES" | "BACKUP_KEEP"> & { DATABASE_URL: string };
  db: Db;
  registry: Registry;
  log: Logger;
  clock: Clock;
}): BackupScheduler | null {
  const { env } = deps;
  if (!env.BACKUP_DIR) return null;
  return new BackupScheduler({
    store: new PrismaBackupRunStore(deps.db),
    files: folderBackupFiles(env.DATABASE_URL, env.BACKUP_DIR),
    metrics: registerBackupMetrics(deps.registry),
    log: deps.log,
    clock: deps.clock,
    node: os.hostname(),
    everyMinutes: env.BACKUP_EVERY_MINUTES,
    keep: env.BACKUP_KEEP,
    dir: env.BACKUP_DIR,
  });
}
