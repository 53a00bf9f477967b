/** The store behind the manager's reports (lib/core/reports/). */
import type { BusinessDay } from "../business-day";
import type { Order } from "../orders";
import type { RecordedShift, ShiftCount } from "../reports/shift-history";

/** What the reports read from the database. */
export interface ReportStore {
  /** Shifts recorded for `day` (2 onwards). */
  recordedShifts(tenantId: string, day: BusinessDay): Promise<RecordedShift[]>;
  /** Orders (all statuses) and the highest number, per shift of `day`. */
  countsByShift(tenantId: string, day: BusinessDay): Promise<ShiftCount[]>;
  /** Orders of `day` per whole hour since `dayStart` (by createdAt). */
  ordersPerHourIndex(tenantId: string, day: BusinessDay, dayStart: Date): Promise<{ index: number; orders: number }[]>;
  /** Durations in ms from createdAt to readyAt (ready or collected orders) and to collectedAt (collected orders). */
  durations(tenantId: string, day: BusinessDay): Promise<{ shift: number; toReadyMs: number | null; toCollectedMs: number | null }[]>;
  ordersByNumber(tenantId: string, day: BusinessDay, number: number): Promise<Order[]>;
  /** Orders from `from` to `to` by day, shift and number, read a page at a time. */
  ordersInRange(tenantId: string, from: BusinessDay, to: BusinessDay): AsyncIterable<Order>;
}
