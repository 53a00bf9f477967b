/** Where a restaurant's settings are written. */
import type { AuditEntry } from "../audit";
import type { TenantSettings } from "../settings";

/** Writes settings; the adapter runs `change` and the writes in one transaction. */
export interface SettingsStore {
  /**
   * Reads the restaurant's current settings (locked against concurrent changes), calls
   * `change`, and when it returns an audit entry, saves `next` and the entry together.
   */
  update(tenantId: string, change: (current: TenantSettings) => { next: TenantSettings; audit: Omit<AuditEntry, "at"> | null }): Promise<TenantSettings>;
}
