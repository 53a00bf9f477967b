/**
 * Rows of the Prisma schema as the core's records: dates of business days are stored as SQL
 * `date` and handled as "YYYY-MM-DD" strings everywhere else; orders and tenants as the core
 * types them; which unique index a violation names.
 */
import { asReadyWhen, toParts, type Station } from "@/lib/core/stations";
import type { BusinessDay } from "@/lib/core/business-day";
import { asLocale } from "@/lib/core/locales";
import { asAskService, asChannels, asService, type Order, type OrderItem } from "@/lib/core/orders";
import type { Tenant } from "@/lib/core/tenants";
import { Prisma } from "./prisma.server";
import type {
  NumberSeries as SeriesRow,
  Order as OrderRow,
  Printer as PrinterRow,
  Station as StationRow,
  Tenant as TenantRow,
} from "./generated/prisma/client";
import type { Printer } from "@/lib/core/ports";
import type { Charset, PaperWidth } from "@/lib/core/printing/printers";
import { DEFAULT_SERIES, type Channel, type Series } from "@/lib/core/series";

export const toSqlDate = (day: BusinessDay): Date => new Date(`${day}T00:00:00Z`);

export const fromSqlDate = (d: Date): BusinessDay => d.toISOString().slice(0, 10);

export function toOrder(row: OrderRow): Order {
  return {
    id: row.id,
    tenantId: row.tenantId,
    businessDay: fromSqlDate(row.businessDay),
    shift: row.shift,
    number: row.number,
    status: row.status,
    items: (Array.isArray(row.items) ? row.items : []) as unknown as OrderItem[],
    note: row.note,
    channel: row.channel,
    idempotencyKey: row.idempotencyKey,
    idempotencyScope: row.idempotencyScope,
    requestHash: row.requestHash,
    createdAt: row.createdAt,
    readyAt: row.readyAt,
    collectedAt: row.collectedAt,
    cancelledAt: row.cancelledAt,
    clearedAt: row.clearedAt,
    prefix: row.prefix,
    seriesId: row.seriesId,
    seriesName: row.seriesName,
    ticket: row.ticket,
    placedBy: row.placedBy,
    stations: toParts(row.stations),
    service: asService(row.service),
  };
}

export function toSeries(row: SeriesRow): Series {
  return { id: row.id, name: row.name, prefix: row.prefix, first: row.first, last: row.last, channels: row.channels as Channel[], isDefault: false };
}

/**
 * What a cached tenant carries: its series in use, oldest first (deleted ones stay for the
 * orders that name them), and its live stations in screen order.
 */
export const LIVE_SERIES_AND_STATIONS = {
  series: { where: { deletedAt: null }, orderBy: { createdAt: "asc" } },
  stations: { where: { deletedAt: null }, orderBy: [{ position: "asc" }, { createdAt: "asc" }] },
} satisfies Prisma.TenantInclude;

export const toStation = (row: StationRow): Station => ({
  id: row.id,
  name: row.name,
  isDefault: row.isDefault,
  printerId: row.printerId,
  position: row.position,
});

/** A tenant; with `series` (its live NumberSeries rows), its series after the default; with `stations`, its stations. */
export function toTenant(row: TenantRow, series?: readonly SeriesRow[], stations?: readonly StationRow[]): Tenant {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    timeZone: row.timeZone,
    dayStartMinutes: row.dayStartMinutes,
    floor: {
      language: asLocale(row.language),
      readyClearMinutes: row.readyClearMinutes,
      ageWarnMinutes: row.ageWarnMinutes,
      ageLateMinutes: row.ageLateMinutes,
      currency: row.currency,
      kioskNumberOnly: row.kioskNumberOnly,
      printGiveUpMinutes: row.printGiveUpMinutes,
      readyWhen: asReadyWhen(row.readyWhen),
      askService: asAskService(row.askService),
      defaultService: asService(row.defaultService) ?? "eatIn",
      soldOutAcceptedFrom: asChannels(row.soldOutAcceptedFrom),
    },
    schedule: row.schedule,
    scheduleChangedAt: row.scheduleChangedAt,
    sharedCodes: row.sharedCodes,
    ...(series ? { series: [DEFAULT_SERIES, ...series.map(toSeries)] } : {}),
    ...(stations ? { stations: stations.map(toStation) } : {}),
  };
}

/**
 * The columns or index a unique violation names, however the driver adapter reports them: a
 * query's P2002, or a raw statement's P2010 (the adapter's UniqueConstraintViolation).
 */
export function uniqueViolationOn(e: unknown): string | null {
  if (!(e instanceof Prisma.PrismaClientKnownRequestError)) return null;
  if (e.code === "P2002") return JSON.stringify(e.meta ?? {});
  const cause = (e.meta as { driverAdapterError?: { cause?: { kind?: unknown } } } | undefined)?.driverAdapterError?.cause;
  return e.code === "P2010" && cause?.kind === "UniqueConstraintViolation" ? JSON.stringify(cause) : null;
}

/** A printer's settings as the core's Printer (decision 0029). */
export const toPrinter = (row: PrinterRow): Printer => ({
  id: row.id,
  name: row.name,
  host: row.host,
  port: row.port,
  paper: row.paper as PaperWidth,
  charset: row.charset as Charset,
  channels: [...row.channels],
  series: [...row.series],
  createdAt: row.createdAt,
});
