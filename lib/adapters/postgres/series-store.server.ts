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

  async change(tenantId: string, plan: Parameters<SeriesStore["change"]>[1]): Promise<Series> {
    return this.db.$transaction(async (tx) => {
      // Two managers at once: the second one checks its change against the first one's.
      const [tenant] = await tx.$queryRaw<{ id: string }[]>`SELECT "id" FROM "Tenant" WHERE "id" = ${tenantId}::uuid FOR UPDATE`;
      if (!tenant) throw new AppError("NOT_FOUND", { message: `Tenant ${tenantId} vanished`, userMessage: "This restaurant no longer exists." });
      const rows = await tx.numberSeries.findMany({ where: { tenantId, deletedAt: null }, orderBy: { createdAt: "asc" } });
      const { change, audit } = plan([DEFAULT_SERIES, ...rows.map(toSeries)]);
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
