/** The scheduler's reads and its term in PostgreSQL (docs/decisions/0010). */
import type { Tenant } from "@/lib/core/tenants";
import type { Db } from "./prisma.server";
import type { SchedulerStore } from "@/lib/core/ports";
import { LIVE_SERIES_AND_STATIONS, toTenant } from "./rows.server";

export class PrismaSchedulerStore implements SchedulerStore {
  constructor(private readonly db: Db) {}

  /** One row, raised at each election: an empty Redis after a restart cannot lower it. */
  async nextTerm(): Promise<number> {
    const [row] = await this.db.$queryRaw<{ term: number }[]>`UPDATE "SchedulerTerm" SET "term" = "term" + 1 WHERE "id" = 1 RETURNING "term"`;
    if (!row) throw new Error("SchedulerTerm has no row 1 (the migration inserts it)");
    return row.term;
  }

  async scheduledTenants(): Promise<Tenant[]> {
    // With their series: a scheduled shift restarts each of them (decision 0027).
    const rows = await this.db.tenant.findMany({ where: { schedule: { isEmpty: false } }, include: LIVE_SERIES_AND_STATIONS });
    return rows.map((r) => toTenant(r, r.series, r.stations));
  }
}
