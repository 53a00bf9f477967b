/** A restaurant's number series in PostgreSQL (table NumberSeries), changed with their audit entry. */
import { AppError } from "@/lib/core/errors";
import type { SeriesStore } from "@/lib/core/ports";
import { DEFAULT_SERIES, type Series } from "@/lib/core/series";
import type { Db } from "./prisma.server";
import { toSeries } from "./rows.server";

export class PrismaSeriesStore implements SeriesStore {
  constructor(private readonly db: Db) {}

  async list(tenantId: string): Promise<Series[]> {
    const rows = await this.db.numberSeries.findMany({ where: { tenantId, deletedAt: null }, orderBy: { createdAt: "asc" } });
    return [DEFAULT_SERIES, ...rows.map(toSeries)];
  }

  async openCounts(tenantId: string, series: readonly Series[]): Promise<Map<string, number>> {
    if (!series.length) return new Map();
    // A series without an end holds every number from its first up (numbers are int4).
    const rows = await this.db.$queryRaw<{ id: string; open: number }[]>`
      SELECT s.id, count(DISTINCT o."number")::int AS "open"
      FROM unnest(${series.map((s) => s.id)}::text[], ${series.map((s) => s.prefix)}::text[],
                  ${series.map((s) => s.first)}::int[], ${series.map((s) => s.last ?? 2_147_483_647)}::int[]) AS s(id, prefix, first, last)
      JOIN "Order" o ON o."tenantId" = ${tenantId}::uuid AND o."prefix" = s.prefix AND o."number" BETWEEN s.first AND s.last
        AND o."status" IN ('PLACED', 'READY') AND o."clearedAt" IS NULL
      GROUP BY s.id`;
    return new Map(series.map((s) => [s.id, rows.find((r) => r.id === s.id)?.open ?? 0]));
  }

  async change(tenantId: string, plan: Parameters<SeriesStore["change"]>[1]): Promise<Series> {
    return this.db.$transaction(async (tx) => {
      // Two managers at once: the second one checks its change against the first one's.
      const [tenant] = await tx.$queryRaw<{ id: string }[]>`SELECT "id" FROM "Tenant" WHERE "id" = ${tenantId}::uuid FOR UPDATE`;
      if (!tenant) throw new AppError("NOT_FOUND", { message: `Tenant ${tenantId} vanished`, userMessage: "This restaurant no longer exists." });
      const rows = await tx.numberSeries.findMany({ where: { tenantId, deletedAt: null }, orderBy: { createdAt: "asc" } });
      const current = [DEFAULT_SERIES, ...rows.map(toSeries)];
      const { change, audit } = plan(current);
      if (change.kind === "none") {
        const same = current.find((s) => s.id === change.id);
        if (same) return same;
      }
      if (change.kind === "none" || !audit) throw new AppError("INTERNAL", { message: `A series change of kind ${change.kind} that cannot be written` });
      const now = new Date();
      const row =
        change.kind === "create"
          ? await tx.numberSeries.create({ data: { tenantId, ...change.series } })
          : change.kind === "update"
            ? await tx.numberSeries.update({ where: { id: change.id }, data: { ...change.series, updatedAt: now } })
            : await tx.numberSeries.update({ where: { id: change.id }, data: { deletedAt: now, updatedAt: now } });
      await tx.auditEntry.create({
        data: { tenantId, actor: audit.actor, action: audit.action, details: { ...audit.details, id: row.id } },
      });
      return toSeries(row);
    });
  }
}
