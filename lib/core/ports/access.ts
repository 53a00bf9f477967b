/** Where API keys and staff sign-in codes are kept: hashes only, never a secret. */
import type { AuditEntry } from "../audit";
import type { StaffRole } from "../tenants";

type AuditRecord = Omit<AuditEntry, "at">;

/** A key as listed: everything but the secret. */
export interface ApiKeyInfo {
  id: string;
  role: StaffRole;
  name: string;
  prefix: string;
  createdAt: Date;
  createdBy: string | null;
  revokedAt: Date | null;
}

export interface ApiKeyStore {
  list(tenantId: string): Promise<ApiKeyInfo[]>;
  /** Stores a key by its hash, with its audit entry built from the new row. */
  create(
    tenantId: string,
    key: { role: StaffRole; name: string; prefix: string; keyHash: string; createdBy: string },
    audit: (k: ApiKeyInfo) => AuditRecord,
  ): Promise<ApiKeyInfo>;
  /** Revokes a key of this tenant (again: no change, no entry); null when it has none of that id. */
  revoke(tenantId: string, id: string, at: Date, audit: (k: ApiKeyInfo) => AuditRecord): Promise<{ key: ApiKeyInfo; changed: boolean } | null>;
}

export type ApiKeyGenerator = (role: StaffRole) => { key: string; prefix: string; hash: string };

export interface StaffCodeStore {
  /** Replaces the role's code hash, raises its generation, and writes `audit`, together. Returns the new generation (null: the role has no sign-in). */
  rotate(tenantId: string, role: StaffRole, secretHash: string, at: Date, audit: Omit<AuditEntry, "at">): Promise<number | null>;
}
