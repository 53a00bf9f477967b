/** The scheduled backups' runs (decision 0049): the slot's unique index is the claim. */
import type { BackupRunRecord, BackupRunStore } from "@/lib/core/ports";
import type { Db } from "./prisma.server";

type Row = {
  slot: Date;
  node: string;
  startedAt: Date;
  finishedAt: Date | null;
  ok: boolean | null;
  file: string | null;
  bytes: bigint | null;
  orders: number | null;
  error: string | null;
};
const record = (r: Row): BackupRunRecord => ({ ...r, bytes: r.bytes === null ? null : Number(r.bytes) });

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

  async latest(): Promise<BackupRunRecord | null> {
    const r = await this.db.backupRun.findFirst({ orderBy: { slot: "desc" } });
    return r ? record(r) : null;
  }

  async latestOk(): Promise<BackupRunRecord | null> {
    const r = await this.db.backupRun.findFirst({ where: { ok: true }, orderBy: { slot: "desc" } });
    return r ? record(r) : null;
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
