/**
 * What a change must make every node forget: nodes cache restaurants, API key lookups,
 * staff code generations and whether a restaurant has webhooks, so a write announces itself (locally at once, to the other
 * nodes through the invalidation bus).
 */
import type { StaffRole } from "../tenants";

export interface CacheInvalidator {
  /** A restaurant's settings changed. */
  tenantChanged(slug: string): Promise<void>;
  /** An API key was revoked (or created). */
  keysChanged(): Promise<void>;
  /** A role's sign-in code was rotated: its older sessions end. */
  staffChanged(tenantId: string, role: StaffRole): Promise<void>;
  /** A person's PIN, role, name or active changed: their sessions are checked again (decision 0051). */
  staffMemberChanged(tenantId: string, memberId: string): Promise<void>;
  /** A restaurant's webhook endpoints were created or deleted. */
  webhooksChanged(tenantId: string): Promise<void>;
  /** A restaurant's printers were added, changed or removed (which printer an order's ticket goes to). */
  printersChanged(tenantId: string): Promise<void>;
}
