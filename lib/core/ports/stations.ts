/** Where a restaurant's kitchen stations are kept (issue #40). */
import type { AuditEntry } from "../audit";
import type { Station } from "../stations";

/** A station as written: everything but its id. */
export type StationFields = Omit<Station, "id">;

export type StationChange =
  | { kind: "create"; station: StationFields }
  /** `unsetDefault`: the station that was the default stops being it (another became it), in the same write. */
  | { kind: "update"; id: string; station: StationFields; unsetDefault?: string }
  /** Retired: menu categories and items that named it go back to none, in the same write. */
  | { kind: "delete"; id: string }
  | { kind: "none"; id: string };

export interface StationStore {
  /** The live stations, in screen order. */
  list(tenantId: string): Promise<Station[]>;
  /**
   * Reads the live stations (locked against a concurrent change of the restaurant's stations),
   * calls `plan`, and writes its change and audit entry in one transaction; returns the
   * station written (or retired). Unique indexes back the rules: one live name, one default.
   */
  change(tenantId: string, plan: (current: readonly Station[]) => { change: StationChange; audit: Omit<AuditEntry, "at"> | null }): Promise<Station>;
  /** Per live station: how many open orders still have its part to do. */
  openWork(tenantId: string): Promise<Map<string, number>>;
}
