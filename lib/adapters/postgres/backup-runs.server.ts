/** The scheduled backups' runs (decision 0049): the slot's unique index is the claim. */
import type { BackupRunRecord, BackupRunStore, BackupRunSummary } from "@/lib/core/ports";
import type { BackupRun } from "./generated/prisma/client";
import type { Db } from "./prisma.server";

const record = ({ slot, node, startedAt, finishedAt, ok, file, bytes, orders, error }: BackupRun): BackupRunRecord => ({
  slot,
  node,
  startedAt,
  finishedAt,
  ok,
  file,
  bytes: bytes === null ? null : Number(bytes),
  orders,
  error,
});

export class PrismaBackupRunStore implements BackupRunStore {
  constructor(private readonly db: Db) {}

  async claim(slot: Date, node: string): Promise<boolean> {
    const n = await this.db
      .$executeRaw`INSERT INTO "BackupRun" ("id", "slot", "node") VALUES (gen_random_uuid(), ${slot}, ${node}) ON CONFLICT ("slot") DO NOTHING`;
    return n === 1;
  }

  async finish(slot: Date, node: string, end: Parameters<BackupRunStore["finish"]>[2]): Promise<void> {
    // Only the claiming node's unfinished row: a run is recorded once.
    await this.db.backupRun.updateMany({
      where: { slot, node, finishedAt: null },
      data: end.ok
        ? { finishedAt: new Date(), ok: true, file: end.file, bytes: BigInt(end.bytes), orders: end.orders }
        : { finishedAt: new Date(), ok: false, error: end.error },
    });
  }

  async summary(): Promise<BackupRunSummary> {
    // One statement every node runs each poll: the latest run, the latest good one, the kept count.
    const rows = await this.db.$queryRaw<Array<BackupRun & { which: "latest" | "ok"; kept: number }>>`
      WITH kept AS (SELECT count(*)::int AS kept FROM "BackupRun" WHERE ok AND "deletedAt" IS NULL AND file IS NOT NULL)
      SELECT r.*, kept.kept FROM (
        (SELECT *, 'latest' AS which FROM "BackupRun" ORDER BY slot DESC LIMIT 1)
        UNION ALL
        (SELECT *, 'ok' AS which FROM "BackupRun" WHERE ok ORDER BY slot DESC LIMIT 1)
      ) r CROSS JOIN kept`;
    const latest = rows.find((r) => r.which === "latest");
    const lastOk = rows.find((r) => r.which === "ok");
    return { latest: latest ? record(latest) : null, lastOk: lastOk ? record(lastOk) : null, kept: rows[0]?.kept ?? 0 };
  }

  async kept(): Promise<Array<{ slot: Date; file: string }>> {
    const rows = await this.db.backupRun.findMany({
      where: { ok: true, deletedAt: null, file: { not: null } },
      orderBy: { slot: "desc" },
      select: { slot: true, file: true },
    });
    return rows.map((r) => ({ slot: r.slot, file: r.file! }));
  }

  async markDeleted(slot: Date): Promise<void> {
    await this.db.backupRun.updateMany({ where: { slot, deletedAt: null }, data: { deletedAt: new Date() } });
  }
}
