/** The store behind the manager's reports (lib/core/reports/). */
import type { BusinessDay } from "../business-day";
import type { Order, OrderMove } from "../orders";
import type { OrderDuration } from "../reports/series-figures";
import type { OrderParts } from "../reports/station-figures";
import type { RecordedShift, SeriesCount } from "../reports/shift-history";
import type { TakingsOrder } from "../reports/takings";

/** An order with its stored moves, oldest first (who made each: the order's history but for being taken). */
export type OrderWithMoves = Order & { moves: OrderMove[] };

/** An order as the export reads it: with who marked it ready last (null: no stored move to READY, or no one named). */
export type ExportedOrder = Order & { readyBy: string | null };

/** What the reports read from the database. */
export interface ReportStore {
  /** Shifts recorded for `day` (2 onwards). */
  recordedShifts(tenantId: string, day: BusinessDay): Promise<RecordedShift[]>;
  /** Orders (all statuses) per shift and series of `day`, with the numbers of each one's first and last ticket. */
  countsByShift(tenantId: string, day: BusinessDay): Promise<SeriesCount[]>;
  /** Orders of `day` per whole hour since `dayStart` (by createdAt). */
  ordersPerHourIndex(tenantId: string, day: BusinessDay, dayStart: Date): Promise<{ index: number; orders: number }[]>;
  /** Durations in ms from createdAt to readyAt (ready or collected orders) and to collectedAt (collected orders). */
  durations(tenantId: string, day: BusinessDay): Promise<OrderDuration[]>;
  /** The parts of `day`'s orders that have parts (kitchen stations), cancelled orders left out. */
  stationParts(tenantId: string, day: BusinessDay): Promise<OrderParts[]>;
  /** Every order of `day` (all statuses) as the takings read it: shift, channel, service, status and lines. */
  takingsOrders(tenantId: string, day: BusinessDay): Promise<TakingsOrder[]>;
  /** Orders of `day` with that number: of the series with that prefix, or of every series when `prefix` is null; each with its moves. */
  ordersByNumber(tenantId: string, day: BusinessDay, number: number, prefix: string | null): Promise<OrderWithMoves[]>;
  /** Orders from `from` to `to` by day, shift, number and prefix, read a page at a time, each with who marked it ready. */
  ordersInRange(tenantId: string, from: BusinessDay, to: BusinessDay): AsyncIterable<ExportedOrder>;
}
