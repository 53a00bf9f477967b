/**
 * The reports' reads (lib/core/reports/report-service.ts ReportStore). Every query is
 * filtered by tenant; counts and hourly buckets are aggregated in SQL.
 */
import type { BusinessDay } from "@/lib/core/business-day";
import { asService, readiedBy, type OrderItem, type OrderStatus } from "@/lib/core/orders";
import type { OrderDuration } from "@/lib/core/reports/series-figures";
import type { OrderParts } from "@/lib/core/reports/station-figures";
import { toParts } from "@/lib/core/stations";
import type { RecordedShift, SeriesCount } from "@/lib/core/reports/shift-history";
import type { TakingsOrder } from "@/lib/core/reports/takings";
import type { Db } from "./prisma.server";
import type { Order as OrderRow } from "./generated/prisma/client";
import type { ExportedOrder, OrderWithMoves, ReportStore } from "@/lib/core/ports";
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

  async countsByShift(tenantId: string, day: BusinessDay): Promise<SeriesCount[]> {
    // Per shift and series: a series' tickets count up in a shift while its numbers come
    // round, so its first and last are the numbers of its lowest and highest ticket (the
    // default series has no ticket: its number is one). Prefixes as each order was issued.
    const rows = await this.db.$queryRaw<
      { shift: number; seriesId: string | null; seriesName: string | null; orders: number; first: [string, number]; last: [string, number] }[]
    >`
      SELECT "shift", "seriesId"::text AS "seriesId",
        (array_agg("seriesName" ORDER BY "createdAt" DESC))[1] AS "seriesName",
        count(*)::int AS "orders",
        (array_agg(json_build_array("prefix", "number") ORDER BY COALESCE("ticket", "number"), "createdAt"))[1] AS "first",
        (array_agg(json_build_array("prefix", "number") ORDER BY COALESCE("ticket", "number") DESC, "createdAt" DESC))[1] AS "last"
      FROM "Order"
      WHERE "tenantId" = ${tenantId}::uuid AND "businessDay" = ${day}::date
      GROUP BY "shift", "seriesId"`;
    return rows.map((r) => ({
      shift: r.shift,
      seriesId: r.seriesId,
      seriesName: r.seriesName,
      orders: r.orders,
      first: { prefix: r.first[0], number: r.first[1] },
      last: { prefix: r.last[0], number: r.last[1] },
    }));
  }

  async ordersPerHourIndex(tenantId: string, day: BusinessDay, dayStart: Date): Promise<{ index: number; orders: number }[]> {
    const rows = await this.db.$queryRaw<{ index: number; orders: number }[]>`
      SELECT floor(extract(epoch FROM ("createdAt" - ${dayStart}::timestamptz)) / 3600)::int AS "index", count(*)::int AS "orders"
      FROM "Order"
      WHERE "tenantId" = ${tenantId}::uuid AND "businessDay" = ${day}::date
      GROUP BY 1`;
    return rows;
  }

  async durations(tenantId: string, day: BusinessDay): Promise<OrderDuration[]> {
    // Only what the percentiles need: two numbers per finished order, with its shift and series.
    return this.db.$queryRaw<OrderDuration[]>`
      SELECT "shift", "seriesId"::text AS "seriesId",
        CASE WHEN "status" IN ('READY', 'COLLECTED') AND "readyAt" IS NOT NULL
          THEN (extract(epoch FROM ("readyAt" - "createdAt")) * 1000)::float8 END AS "toReadyMs",
        CASE WHEN "status" = 'COLLECTED' AND "collectedAt" IS NOT NULL
          THEN (extract(epoch FROM ("collectedAt" - "createdAt")) * 1000)::float8 END AS "toCollectedMs"
      FROM "Order"
      WHERE "tenantId" = ${tenantId}::uuid AND "businessDay" = ${day}::date
        AND ("readyAt" IS NOT NULL OR "collectedAt" IS NOT NULL)`;
  }

  async stationParts(tenantId: string, day: BusinessDay): Promise<OrderParts[]> {
    // Only orders with parts: a restaurant without stations reads no rows.
    const rows = await this.db.$queryRaw<{ createdAt: Date; stations: unknown }[]>`
      SELECT "createdAt", "stations" FROM "Order"
      WHERE "tenantId" = ${tenantId}::uuid AND "businessDay" = ${day}::date AND "status" <> 'CANCELLED' AND "stations" <> '[]'::jsonb`;
    return rows.map((r) => ({ createdAt: r.createdAt, parts: toParts(r.stations) }));
  }

  async takingsOrders(tenantId: string, day: BusinessDay): Promise<TakingsOrder[]> {
    const rows = await this.db.order.findMany({
      where: { tenantId, businessDay: toSqlDate(day) },
      select: { shift: true, channel: true, service: true, status: true, items: true },
    });
    return rows.map((r) => ({
      shift: r.shift,
      channel: r.channel,
      service: asService(r.service),
      status: r.status,
      items: (Array.isArray(r.items) ? r.items : []) as unknown as OrderItem[],
    }));
  }

  async ordersByNumber(tenantId: string, day: BusinessDay, number: number, prefix: string | null): Promise<OrderWithMoves[]> {
    const rows = await this.db.order.findMany({
      where: { tenantId, businessDay: toSqlDate(day), number, ...(prefix === null ? {} : { prefix }) },
      // A series' number may come round within a shift: its earlier ticket first.
      orderBy: [{ shift: "asc" }, { prefix: "asc" }, { createdAt: "asc" }, { id: "asc" }],
      include: { events: { orderBy: [{ at: "asc" }, { id: "asc" }], select: { status: true, at: true, by: true } } },
    });
    return rows.map(({ events, ...row }) => ({ ...toOrder(row), moves: events }));
  }

  async *ordersInRange(tenantId: string, from: BusinessDay, to: BusinessDay): AsyncIterable<ExportedOrder> {
    // (day, shift, number) is no longer unique: another series shows 12 too, and a series'
    // numbers come round (decision 0027). So a day at a time — its orders an index range
    // (tenantId, businessDay, …) — in a total order ending with the id, each page after
    // the last one's id.
    const days = await this.db.order.groupBy({
      by: ["businessDay"],
      where: { tenantId, businessDay: { gte: toSqlDate(from), lte: toSqlDate(to) } },
      orderBy: { businessDay: "asc" },
    });
    const orderBy = [{ shift: "asc" as const }, { number: "asc" as const }, { prefix: "asc" as const }, { createdAt: "asc" as const }, { id: "asc" as const }];
    for (const { businessDay } of days) {
      let after: string | null = null;
      for (;;) {
        const page: (OrderRow & { events: { status: OrderStatus; by: string | null }[] })[] = await this.db.order.findMany({
          where: { tenantId, businessDay },
          orderBy,
          take: EXPORT_PAGE_SIZE,
          ...(after ? { cursor: { id: after }, skip: 1 } : {}),
          // Who marked it ready (readiedBy: not whoever undid a handover): its moves, a few per order (one more query per page, by the events' (orderId, at) index).
          include: { events: { orderBy: [{ at: "asc" }, { id: "asc" }], select: { status: true, by: true } } },
        });
        for (const { events, ...row } of page) yield { ...toOrder(row), readyBy: readiedBy(events) };
        if (page.length < EXPORT_PAGE_SIZE) break;
        after = page[page.length - 1]!.id;
      }
    }
  }
}
