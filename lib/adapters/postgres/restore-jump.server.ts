/**
 * The counters' jump after a restore (decision 0046), run in the restore's own transaction:
 * every counter (the default series and each live series) of each restaurant's last two
 * business days rises past anything that may have been handed out after the backup, and
 * each restaurant's audit says by how much.
 */
import { randomUUID } from "node:crypto";
import type pg from "pg";
import { SYSTEM_ACTOR } from "@/lib/core/audit";
import type { BusinessDay } from "@/lib/core/business-day";
import { raiseCeilingBy } from "./counter-ledger.server";
import { daysToJump, jumpLapsSeries, RESTORE_LOOKBACK_DAYS, restoreJump, restoreWindowSeconds } from "@/lib/core/restore-jump";

export interface RestoredCounterJump {
  tenantId: string;
  /** null: the default series. */
  series: string | null;
  businessDay: BusinessDay;
  shift: number;
  from: number;
  to: number;
  /** A series that comes round within the jump: numbers from before the restore may be given again. */
  lapped: boolean;
}

export async function jumpAfterRestore(
  client: pg.ClientBase,
  backupAt: Date,
  /** One restaurant only, audited as an import (decision 0050); default: every restaurant, audited as a restore. */
  scope: { tenantId: string; action: "counter.jumpedAfterImport" } | null = null,
): Promise<{ restoredAt: Date; windowSeconds: number; jumps: RestoredCounterJump[] }> {
  const { rows: clock } = await client.query<{ now: Date }>(`SELECT now() AS now`);
  const restoredAt = clock[0]!.now;
  const windowSeconds = restoreWindowSeconds(backupAt, restoredAt);
  const { rows: tenants } = await client.query<{ id: string; timeZone: string; dayStartMinutes: number }>(
    `SELECT id, "timeZone", "dayStartMinutes" FROM "Tenant" WHERE $1::uuid IS NULL OR id = $1::uuid ORDER BY id`,
    [scope?.tenantId ?? null],
  );
  const { rows: series } = await client.query<{ id: string; tenantId: string; name: string; first: number; last: number | null }>(
    `SELECT id, "tenantId", name, first, last FROM "NumberSeries" WHERE "deletedAt" IS NULL ORDER BY "tenantId", id`,
  );
  // Per counter, the most orders stored in any window of that length in the backup's last days.
  const { rows: busiest } = await client.query<{ tenantId: string; seriesId: string | null; most: number }>(
    `SELECT "tenantId", "seriesId", max(n)::int AS most FROM (
       SELECT "tenantId", "seriesId", count(*) OVER (
         PARTITION BY "tenantId", "seriesId" ORDER BY "createdAt"
         RANGE BETWEEN CURRENT ROW AND make_interval(secs => $2::int) FOLLOWING
       ) AS n
       FROM "Order" WHERE "createdAt" > $1::timestamptz - make_interval(days => $3::int)
     ) w GROUP BY 1, 2`,
    [backupAt, windowSeconds, RESTORE_LOOKBACK_DAYS],
  );
  const most = new Map(busiest.map((b) => [`${b.tenantId}/${b.seriesId ?? ""}`, b.most]));

  const jumps: RestoredCounterJump[] = [];
  for (const t of tenants) {
    const counters = [{ id: null, name: null, first: 1, last: null }, ...series.filter((s) => s.tenantId === t.id)];
    for (const day of daysToJump(restoredAt, { timeZone: t.timeZone, dayStartMinutes: t.dayStartMinutes })) {
      // Only the day's latest shift hands out numbers (the counter's own rule); 1 when none started.
      const { rows: shifts } = await client.query<{ shift: number }>(
        `SELECT COALESCE(MAX(number), 1)::int AS shift FROM "Shift" WHERE "tenantId" = $1::uuid AND "businessDay" = $2::date`,
        [t.id, day],
      );
      const shift = shifts[0]!.shift;
      for (const c of counters) {
        const by = restoreJump(most.get(`${t.id}/${c.id ?? ""}`) ?? 0);
        // The ledger is the ceilings' one writer (decision 0026): it raises this one in the restore's transaction.
        const to = await raiseCeilingBy(client, { tenantId: t.id, seriesId: c.id, day, shift }, by);
        jumps.push({ tenantId: t.id, series: c.name, businessDay: day, shift, from: to - by, to, lapped: jumpLapsSeries(c, by) });
      }
    }
    const mine = jumps.filter((j) => j.tenantId === t.id);
    await client.query(`INSERT INTO "AuditEntry" (id, "tenantId", actor, action, details) VALUES ($1::uuid, $2::uuid, $3, $5, $4::jsonb)`, [
      randomUUID(),
      t.id,
      SYSTEM_ACTOR,
      JSON.stringify({
        backupAt: backupAt.toISOString(),
        windowMinutes: Math.round(windowSeconds / 60),
        counters: mine.map(({ series: s, businessDay, shift, from, to }) => ({ series: s, businessDay, shift, from, to })),
        lapped: [...new Set(mine.filter((j) => j.lapped).map((j) => j.series))],
      }),
      scope?.action ?? "counter.jumpedAfterRestore",
    ]);
  }
  return { restoredAt, windowSeconds, jumps };
}
