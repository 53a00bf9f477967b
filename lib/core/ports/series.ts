/** Where a restaurant's number series are kept (decision 0027). */
import type { AuditEntry } from "../audit";
import type { Series } from "../series";

/** A series as written: everything but its id and the default flag. */
export type SeriesFields = Omit<Series, "id" | "isDefault">;

export type SeriesChange =
  | { kind: "create"; series: SeriesFields }
  | { kind: "update"; id: string; series: SeriesFields }
  | { kind: "delete"; id: string }
  /** Every field sent equals the current one: nothing is written, audited or announced. */
  | { kind: "none"; id: string };

export interface SeriesStore {
  /** The series in use, the default first. */
  list(tenantId: string): Promise<Series[]>;
  /**
   * Reads the series in use (locked against a concurrent change), calls `plan`, and writes
   * its change and audit entry in one transaction; returns the series written (or retired).
   * A change of kind `none` (with no audit entry) writes nothing and returns the series as it is.
   */
  /**
   * How many distinct numbers of each series' range open orders hold (whichever series
   * numbered them: the rule SERIES_FULL refuses by), by series id; one query for them all.
   */
  openCounts(tenantId: string, series: readonly Series[]): Promise<Map<string, number>>;
  change(tenantId: string, plan: (current: readonly Series[]) => { change: SeriesChange; audit: Omit<AuditEntry, "at"> | null }): Promise<Series>;
}
