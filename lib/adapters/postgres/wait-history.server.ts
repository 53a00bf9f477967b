/**
 * The wait estimate's reads (lib/core/ports/waits.ts): when orders were placed and first
 * made ready. Bounded by the (tenantId, businessDay, …) index: one or two business days of
 * one restaurant; each order's moves by the events' (orderId, at) index.
 */
import type { BusinessDay } from "@/lib/core/business-day";
import type { ReplayedOrder, WaitHistory } from "@/lib/core/ports";
import type { ReadySample } from "@/lib/core/wait-estimate";
import type { Db } from "./prisma.server";

/**
 * The first move to READY after the last Undo of Ready (a move back to PLACED): "call again"
 * stores no move but moves readyAt, and an Undo of Collected moves to READY again later.
 */
const FIRST_READY = `
  LEFT JOIN LATERAL (
    SELECT min(r.at) AS "firstReady" FROM "OrderEvent" r
    WHERE r."orderId" = o.id AND r.status = 'READY'
      AND r.at > COALESCE((SELECT max(p.at) FROM "OrderEvent" p WHERE p."orderId" = o.id AND p.status = 'PLACED'), '-infinity'::timestamptz)
  ) e ON true`;

export class PrismaWaitHistory implements WaitHistory {
  constructor(private readonly db: Db) {}

  async readies(tenantId: string, days: readonly BusinessDay[], placedSince: Date, readySince: Date): Promise<ReadySample[]> {
    // readyAt is never before the first ready (call again only moves it later): a cheap first filter.
    const rows = await this.db.$queryRawUnsafe<{ placedAt: Date; readyAt: Date }[]>(
      `SELECT o."createdAt" AS "placedAt", COALESCE(e."firstReady", o."readyAt") AS "readyAt"
       FROM "Order" o ${FIRST_READY}
       WHERE o."tenantId" = $1::uuid AND o."businessDay" = ANY($2::date[]) AND o."createdAt" >= $3::timestamptz
         AND o.status IN ('READY', 'COLLECTED') AND o."readyAt" >= $4::timestamptz
         AND COALESCE(e."firstReady", o."readyAt") >= $4::timestamptz`,
      tenantId,
      [...days],
      placedSince,
      readySince,
    );
    return rows.map((r) => ({ placedAt: r.placedAt.getTime(), readyAt: r.readyAt.getTime() }));
  }

  async replayOrders(tenantId: string, days: readonly BusinessDay[]): Promise<ReplayedOrder[]> {
    const rows = await this.db.$queryRawUnsafe<{ id: string; businessDay: string; placedAt: Date; readyAt: Date | null; goneAt: Date | null }[]>(
      `SELECT o.id::text AS id, o."businessDay"::text AS "businessDay", o."createdAt" AS "placedAt",
         CASE WHEN o."readyAt" IS NOT NULL THEN COALESCE(e."firstReady", o."readyAt") END AS "readyAt",
         CASE WHEN o."readyAt" IS NULL THEN LEAST(o."cancelledAt", o."clearedAt", o."collectedAt") END AS "goneAt"
       FROM "Order" o ${FIRST_READY}
       WHERE o."tenantId" = $1::uuid AND o."businessDay" = ANY($2::date[])
       ORDER BY o."createdAt", o.shift, o.number, o.id`,
      tenantId,
      [...days],
    );
    return rows.map((r) => ({
      id: r.id,
      businessDay: r.businessDay,
      placedAt: r.placedAt.getTime(),
      readyAt: r.readyAt?.getTime() ?? null,
      goneAt: r.goneAt?.getTime() ?? null,
    }));
  }
}
