/** Where the audit log is written and read. */
import type { AuditEntry } from "../audit";

export interface AuditLog {
  record(tenantId: string, entry: Omit<AuditEntry, "at"> & { at?: Date }): Promise<void>;
  /** The latest `limit` entries, newest first. */
  list(tenantId: string, limit: number): Promise<AuditEntry[]>;
}
