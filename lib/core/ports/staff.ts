/** Where a restaurant's people are kept (decision 0051): PIN hashes only, never a PIN. */
import type { AuditEntry } from "../audit";
import type { PinFailures } from "../staff/pin-waits";
import type { StaffRole } from "../tenants";

type AuditRecord = Omit<AuditEntry, "at">;

/** A person as listed and answered: never the PIN's hash. */
export interface StaffMemberInfo {
  id: string;
  name: string;
  role: StaffRole;
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** What a session of a person is checked against on every request. */
export interface StaffMemberState {
  name: string;
  role: StaffRole;
  active: boolean;
  /** Raised by every change of PIN, role or active: sessions signed before it end. */
  generation: number;
}

export interface StaffMemberChange {
  name?: string;
  nameKey?: string;
  role?: StaffRole;
  pinHash?: string;
  active?: boolean;
}

/** A PIN sign-in's view, inside the store's lock of both counts (see `withPinCounts`). */
export interface PinAttempt {
  member: (StaffMemberState & { id: string; pinHash: string }) | null;
  person: PinFailures;
  address: PinFailures;
}

export interface PinOutcome<T> {
  /** The counts to store (absent: unchanged). */
  counts?: { person: PinFailures; address: PinFailures };
  audit?: AuditRecord[];
  result: T;
}

export interface StaffMemberStore {
  list(tenantId: string): Promise<StaffMemberInfo[]>;
  /** The active people's names and ids, for the sign-in page. */
  signInNames(tenantId: string): Promise<Array<{ id: string; name: string; role: StaffRole }>>;
  /** A new person with its audit entry, together; null when the name is taken (the unique index decides). */
  create(
    tenantId: string,
    m: { name: string; nameKey: string; role: StaffRole; pinHash: string },
    audit: (m: StaffMemberInfo) => AuditRecord,
  ): Promise<StaffMemberInfo | null>;
  /**
   * Changes a person of this restaurant with its audit entry, together; a change of PIN, role or
   * active raises the generation in the same statement. null: no such person; "nameTaken".
   */
  update(
    tenantId: string,
    id: string,
    change: StaffMemberChange,
    audit: (before: StaffMemberInfo, after: StaffMemberInfo) => AuditRecord | null,
  ): Promise<StaffMemberInfo | null | "nameTaken">;
  state(tenantId: string, id: string): Promise<StaffMemberState | null>;
  /**
   * Runs `decide` holding the locks of the person's and the address's wrong-PIN counts (rows
   * locked in PostgreSQL: concurrent tries of one person or address wait in line, on every
   * node), then stores what it returns and its audit entries, together. A lock not had within
   * a few seconds fails with UNAVAILABLE (never a try without its count).
   */
  withPinCounts<T>(tenantId: string, memberId: string, addressKey: string, decide: (a: PinAttempt) => Promise<PinOutcome<T>>): Promise<T>;
}
