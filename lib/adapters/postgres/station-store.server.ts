/** A restaurant's kitchen stations in PostgreSQL (table Station), changed with their audit entry (issue #40). */
import { AppError } from "@/lib/core/errors";
import type { StationStore } from "@/lib/core/ports";
import type { Station } from "@/lib/core/stations";
import type { Db } from "./prisma.server";
import { LIVE_SERIES_AND_STATIONS, toStation, uniqueViolationOn } from "./rows.server";

const LIVE = LIVE_SERIES_AND_STATIONS.stations;

export class PrismaStationStore implements StationStore {
  constructor(private readonly db: Db) {}

  async list(tenantId: string): Promise<Station[]> {
    return (await this.db.station.findMany({ where: { tenantId, ...LIVE.where }, orderBy: LIVE.orderBy })).map(toStation);
  }

  async openWork(tenantId: string): Promise<Map<string, number>> {
    // Open (preparing) orders whose part of each station is not done yet.
    const rows = await this.db.$queryRaw<{ id: string; open: number }[]>`
      SELECT p->>'id' AS id, count(*)::int AS "open"
      FROM "Order" o, jsonb_array_elements(o.stations) p
      WHERE o."tenantId" = ${tenantId}::uuid AND o.status = 'PLACED' AND o."clearedAt" IS NULL AND p->>'doneAt' IS NULL
      GROUP BY 1`;
    return new Map(rows.map((r) => [r.id, r.open]));
  }

  async change(tenantId: string, plan: Parameters<StationStore["change"]>[1]): Promise<Station> {
    try {
      return await this.db.$transaction(async (tx) => {
        // Two managers at once: the second one plans against the first one's result.
        const [tenant] = await tx.$queryRaw<{ id: string }[]>`SELECT "id" FROM "Tenant" WHERE "id" = ${tenantId}::uuid FOR UPDATE`;
        if (!tenant) throw new AppError("NOT_FOUND", { message: `Tenant ${tenantId} vanished`, userMessage: "This restaurant no longer exists." });
        const current = (await tx.station.findMany({ where: { tenantId, ...LIVE.where }, orderBy: LIVE.orderBy })).map(toStation);
        const { change, audit } = plan(current);
        if (change.kind === "none") {
          const same = current.find((s) => s.id === change.id);
          if (same) return same;
        }
        if (change.kind === "none" || !audit) throw new AppError("INTERNAL", { message: `A station change of kind ${change.kind} that cannot be written` });
        const now = new Date();
        let row;
        if (change.kind === "create") {
          if (change.station.isDefault)
            await tx.station.updateMany({ where: { tenantId, isDefault: true, deletedAt: null }, data: { isDefault: false, updatedAt: now } });
          row = await tx.station.create({ data: { tenantId, ...change.station } });
        } else if (change.kind === "update") {
          // The old default steps down first: the index allows one live default.
          if (change.unsetDefault) await tx.station.updateMany({ where: { tenantId, id: change.unsetDefault }, data: { isDefault: false, updatedAt: now } });
          row = await tx.station.update({ where: { id: change.id }, data: { ...change.station, updatedAt: now } });
        } else {
          row = await tx.station.update({ where: { id: change.id }, data: { deletedAt: now, updatedAt: now, isDefault: false } });
          // Menu entries that named it go to the default station from now on.
          await tx.menuCategory.updateMany({ where: { tenantId, stationId: change.id }, data: { stationId: null } });
          await tx.menuItem.updateMany({ where: { tenantId, stationId: change.id }, data: { stationId: null } });
        }
        await tx.auditEntry.create({ data: { tenantId, actor: audit.actor, action: audit.action, details: { ...audit.details, id: row.id } } });
        return toStation(row);
      });
    } catch (e) {
      // The live-name index: a race past the service's check is the same 409.
      if (uniqueViolationOn(e)?.includes("name")) {
        throw new AppError("CONFLICT", { message: "A station with this name already exists", reason: "duplicateStation" });
      }
      throw e;
    }
  }
}
