/** Where a restaurant's number series are kept (decision 0027). */
import type { AuditEntry } from "../audit";
import type { Series } from "../series";

/** A series as written: everything but its id and the default flag. */
export type SeriesFields = Omit<Series, "id" | "isDefault">;

export type SeriesChange = { kind: "create"; series: SeriesFields } | { kind: "update"; id: string; series: SeriesFields } | { kind: "delete"; id: string };

export interface SeriesStore {
  /** The series in use, the default first. */
  list(tenantId: string): Promise<Series[]>;
  /**
   * Reads the series in use (locked against a concurrent change), calls `plan`, and writes
   * its change and audit entry in one transaction; returns the series written (or retired).
   */
  change(tenantId: string, plan: (current: readonly Series[]) => { change: SeriesChange; audit: Omit<AuditEntry, "at"> }): Promise<Series>;
}
