/**
 * Who is asking: staff sessions (cookies) and API keys (Bearer tokens), both bound to
 * one tenant and one role. Failures are AppErrors: 401 when nobody is identified, 403
 * when the identity is of another tenant or lacks the role.
 */
import { AppError } from "@/lib/core/errors";
import type { StaffRole, Tenant } from "@/lib/core/tenants";
import { roleAllows } from "@/lib/auth/roles";
import { hashApiKey, verifySecret } from "@/lib/auth/secrets.server";
import { signSession, verifySession, type Session } from "@/lib/auth/session.server";
import type { PrismaTenantRepository } from "@/lib/adapters/postgres/repositories.server";
import { toTenant } from "@/lib/adapters/postgres/repositories.server";

export interface Caller {
  tenant: Tenant;
  role: StaffRole;
  /** Who, for audit fields such as Shift.startedBy: "Manager (staff)" or "api-key mgr:1a2b3c4d". */
  actor: string;
}

const KEY_RE = /^Bearer\s+(nxu_[a-z]{3}_[0-9a-f]{8}_[A-Za-z0-9_-]{20,64})\s*$/;

/**
 * How long a node trusts what it looked up about an API key. Every request of an
 * integration would otherwise cost a PostgreSQL round trip; a revoked key stops working
 * within this time on every node.
 */
export const API_KEY_CACHE_MS = 30_000;

type KeyRow = Awaited<ReturnType<PrismaTenantRepository["apiKeyByHash"]>>;

export class Access {
  private keys = new Map<string, { row: KeyRow; at: number }>();

  constructor(
    private readonly repo: PrismaTenantRepository,
    private readonly sessionSecret: string,
  ) {}

  private async lookupKey(hash: string): Promise<KeyRow> {
    const hit = this.keys.get(hash);
    if (hit && Date.now() - hit.at < API_KEY_CACHE_MS) return hit.row;
    const row = await this.repo.apiKeyByHash(hash);
    if (this.keys.size > 10_000) this.keys.clear();
    this.keys.set(hash, { row, at: Date.now() });
    return row;
  }

  /** Checks an `Authorization: Bearer` header for `tenant` and `roles`. */
  async apiKey(authorization: string | null, tenant: Tenant, roles: readonly StaffRole[]): Promise<Caller> {
    if (!authorization) {
      throw new AppError("UNAUTHENTICATED", { message: "Missing Authorization header", userMessage: "Missing API key: send `Authorization: Bearer <key>`." });
    }
    const m = KEY_RE.exec(authorization);
    const row = m?.[1] ? await this.lookupKey(hashApiKey(m[1])) : null;
    if (!row || row.revokedAt) {
      throw new AppError("UNAUTHENTICATED", { message: "Invalid API key", userMessage: "Invalid or revoked API key." });
    }
    if (row.tenantId !== tenant.id) {
      throw new AppError("FORBIDDEN", { message: `Key ${row.prefix} belongs to another tenant`, userMessage: "This API key belongs to another restaurant." });
    }
    if (!roleAllows(row.role, roles)) {
      throw new AppError("FORBIDDEN", {
        message: `Key ${row.prefix} has role ${row.role}, needs ${roles.join("/")}`,
        userMessage: `This API key's role (${row.role.toLowerCase()}) may not do this.`,
      });
    }
    return { tenant: toTenant(row.tenant), role: row.role, actor: `api-key ${row.prefix}` };
  }

  /** Verifies a staff secret and returns a session token for the cookie. */
  async signIn(tenant: Tenant, role: StaffRole, secret: string): Promise<{ token: string; session: Session }> {
    const credentials = await this.repo.staffCredentials(tenant.id, role);
    for (const c of credentials) {
      if (await verifySecret(c.secretHash, secret)) {
        const session: Session = { tenantId: tenant.id, slug: tenant.slug, role, name: c.name };
        return { token: await signSession(session, this.sessionSecret), session };
      }
    }
    throw new AppError("UNAUTHENTICATED", { message: `Failed sign-in for ${tenant.slug}/${role}`, userMessage: "Wrong sign-in code for this role.", reason: "wrongCode" });
  }

  /** The session in `token`, if it is valid for `tenant` and one of `roles`. */
  async session(token: string | undefined, tenant: Tenant, roles: readonly StaffRole[]): Promise<Caller> {
    const s = await verifySession(token, this.sessionSecret);
    if (!s) throw new AppError("UNAUTHENTICATED", { message: "No valid session", userMessage: "Please sign in.", reason: "signInRequired" });
    if (s.tenantId !== tenant.id) {
      throw new AppError("FORBIDDEN", { message: `Session of ${s.slug} used for ${tenant.slug}`, userMessage: "You are signed in to another restaurant.", reason: "otherRestaurant" });
    }
    if (!roleAllows(s.role, roles)) {
      throw new AppError("FORBIDDEN", { message: `Role ${s.role} needs ${roles.join("/")}`, userMessage: `Signed in as ${s.role.toLowerCase()}: this screen needs ${roles.map((r) => r.toLowerCase()).join(" or ")}.`,
        reason: "roleNeeded",
        details: { role: s.role, needs: roles[0] },
      });
    }
    return { tenant, role: s.role, actor: `${s.name} (staff)` };
  }
}
