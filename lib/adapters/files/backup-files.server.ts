/** Scheduled backups' files (decision 0049): written aside and renamed when complete, in one folder. */
import { createWriteStream } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { writeBackup } from "@/lib/adapters/postgres/backup-write.server";
import type { BackupFiles } from "@/lib/core/ports";

/** `nextup-2026-12-01T1900Z.nxb`: sorts by time, one per slot. */
export const backupFileName = (slot: Date): string => `nextup-${slot.toISOString().slice(0, 16).replace(":", "")}Z.nxb`;

export function folderBackupFiles(databaseUrl: string, dir: string): BackupFiles {
  return {
    async write(slot) {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const file = path.join(dir, backupFileName(slot));
      const partial = `${file}.partial`;
      try {
        // "w": a .partial left by a node that stopped mid-backup is written over.
        const summary = await writeBackup(databaseUrl, createWriteStream(partial, { flags: "w", mode: 0o600 }));
        await rename(partial, file);
        return { file, bytes: summary.bytes, orders: summary.orders };
      } catch (e) {
        await rm(partial, { force: true });
        throw e;
      }
    },
    async remove(file) {
      // Only files this app named: a row's file that is not one of ours is left alone.
      if (!path.basename(file).startsWith("nextup-") || !file.endsWith(".nxb")) return;
      await rm(file, { force: true });
    },
  };
}
