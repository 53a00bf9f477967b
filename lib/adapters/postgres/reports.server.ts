/**
 * The reports' reads (lib/core/reports/report-service.ts ReportStore). Every query is
 * filtered by tenant; counts and hourly buckets are aggregated in SQL.
 */
import type { BusinessDay } from "@/lib/core/business-day";
import type { Order } from "@/lib/core/orders";
import type { RecordedShift, ShiftCount } from "@/lib/core/reports/shift-history";
import type { Db } from "./prisma.server";
import type { ReportStore } from "@/lib/core/ports";
import { toOrder, toSqlDate } from "./rows.server";

/** Orders read per round trip by the export. */
export const EXPORT_PAGE_SIZE = 500;

export class PrismaReportStore implements ReportStore {
  constructor(private readonly db: Db) {}

  async recordedShifts(tenantId: string, day: BusinessDay): Promise<RecordedShift[]> {
    const rows = await this.db.shift.findMany({ where: { tenantId, businessDay: toSqlDate(day) }, orderBy: { number: "asc" } });
    return rows.map((r) => ({
      shift: r.number,
      firstNumber: r.firstNumber,
      startedAt: r.startedAt,
      startedBy: r.startedBy,
      reason: r.reason,
      trigger: r.trigger === "SCHEDULE" ? "schedule" : "manual",
    }));
  }

  async countsByShift(tenantId: string, day: BusinessDay): Promise<ShiftCount[]> {
    const rows = await this.db.order.groupBy({
      by: ["shift"],
      where: { tenantId, businessDay: toSqlDate(day) },
      _count: { _all: true },
      _max: { number: true },
    });
    return rows.map((r) => ({ shift: r.shift, orders: r._count._all, lastNumber: r._max.number }));
  }

  async ordersPerHourIndex(tenantId: string, day: BusinessDay, dayStart: Date): Promise<{ index: number; orders: number }[]> {
    const rows = await this.db.$queryRaw<{ index: number; orders: number }[]>`
      SELECT floor(extract(epoch FROM ("createdAt" - ${dayStart}::timestamptz)) / 3600)::int AS "index", count(*)::int AS "orders"
      FROM "Order"
      WHERE "tenantId" = ${tenantId}::uuid AND "businessDay" = ${day}::date
      GROUP BY 1`;
    return rows;
  }

  async durations(tenantId: string, day: BusinessDay): Promise<{ shift: number; toReadyMs: number | null; toCollectedMs: number | null }[]> {
    // Only what the percentiles need: two numbers per finished order.
    return this.db.$queryRaw<{ shift: number; toReadyMs: number | null; toCollectedMs: number | null }[]>`
      SELECT "shift",
        CASE WHEN "status" IN ('READY', 'COLLECTED') AND "readyAt" IS NOT NULL
          THEN (extract(epoch FROM ("readyAt" - "createdAt")) * 1000)::float8 END AS "toReadyMs",
        CASE WHEN "status" = 'COLLECTED' AND "collectedAt" IS NOT NULL
          THEN (extract(epoch FROM ("collectedAt" - "createdAt")) * 1000)::float8 END AS "toCollectedMs"
      FROM "Order"
      WHERE "tenantId" = ${tenantId}::uuid AND "businessDay" = ${day}::date
        AND ("readyAt" IS NOT NULL OR "collectedAt" IS NOT NULL)`;
  }

  async ordersByNumber(tenantId: string, day: BusinessDay, number: number): Promise<Order[]> {
    const rows = await this.db.order.findMany({ where: { tenantId, businessDay: toSqlDate(day), number }, orderBy: { shift: "asc" } });
    return rows.map(toOrder);
  }

  async *ordersInRange(tenantId: string, from: BusinessDay, to: BusinessDay): AsyncIterable<Order> {
    const where = { tenantId, businessDay: { gte: toSqlDate(from), lte: toSqlDate(to) } };
    const orderBy = [{ businessDay: "asc" as const }, { shift: "asc" as const }, { number: "asc" as const }];
    let after: { businessDay: Date; shift: number; number: number } | null = null;
    for (;;) {
      // Keyset paging on the unique (tenant, day, shift, number): each page is an index range.
      const page: Awaited<ReturnType<Db["order"]["findMany"]>> = await this.db.order.findMany({
        where,
        orderBy,
        take: EXPORT_PAGE_SIZE,
        ...(after ? { cursor: { tenantId_businessDay_shift_number: { tenantId, ...after } }, skip: 1 } : {}),
      });
      for (const row of page) yield toOrder(row);
      if (page.length < EXPORT_PAGE_SIZE) return;
      const last = page[page.length - 1]!;
      after = { businessDay: last.businessDay, shift: last.shift, number: last.number };
    }
  }
}
