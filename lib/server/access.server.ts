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

export interface Caller {
  tenant: Tenant;
  role: StaffRole;
  /** Who, for audit fields such as Shift.startedBy: "Manager (staff)" or "api-key mgr:1a2b3c4d". */
  actor: string;
}

/** Prefixes are 16 hex digits; keys made before that have 8 and keep working. */
const KEY_RE = /^Bearer\s+(nxu_[a-z]{3}_(?:[0-9a-f]{16}|[0-9a-f]{8})_[A-Za-z0-9_-]{20,64})\s*$/;

/**
 * How long a node trusts what it looked up about an API key or a role's code generation.
 * Every request would otherwise cost a PostgreSQL round trip. A revocation or rotation
 * clears these caches on every node through the invalidation bus; this TTL only bounds
 * staleness should a message be lost (and it shrinks to 1 s while the bus is down).
 */
export const API_KEY_CACHE_MS = 10_000;
export const GENERATION_CACHE_MS = 10_000;
/** How long a node trusts that a session was not signed out (sign-out tells every node at once). */
export const REVOCATION_CACHE_MS = 10_000;
/** Entries per cache before the oldest go: a flood of made-up keys cannot grow memory. */
const MAX_ENTRIES = 10_000;

type KeyRow = Awaited<ReturnType<PrismaTenantRepository["apiKeyByHash"]>>;

export class Access {
  private keys = new Map<string, { row: KeyRow; at: number }>();
  private generations = new Map<string, { generation: number; at: number }>();
  private revocations = new Map<string, { revoked: boolean; at: number }>();
  /** Raised by every forget: a lookup that started before must not be cached after. */
  private epoch = 0;

  constructor(
    private readonly repo: PrismaTenantRepository,
    private readonly sessionSecret: string,
    private readonly opts: {
      /** The generation sessions of a role must carry (0: the role has no sign-in). */
      generationOf: (tenantId: string, role: StaffRole) => Promise<number>;
      /** How long a cache entry is trusted right now, at most the constants above. */
      ttlMs?: () => number;
      /** Signed-out sessions (PostgreSQL), and how every node hears of a new one. */
      sessions: {
        revoke(s: { id: string; tenantId: string; expiresAt: Date }): Promise<void>;
        isRevoked(id: string): Promise<boolean>;
        ended(id: string): Promise<void>;
      };
    },
  ) {}

  private ttl(max: number): number {
    return Math.min(max, this.opts.ttlMs?.() ?? max);
  }

  private async lookupKey(hash: string): Promise<KeyRow> {
    const hit = this.keys.get(hash);
    if (hit && Date.now() - hit.at < this.ttl(API_KEY_CACHE_MS)) return hit.row;
    const epoch = this.epoch;
    const row = await this.repo.apiKeyByHash(hash);
    if (epoch !== this.epoch) return row;
    if (this.keys.size > MAX_ENTRIES) this.keys.clear();
    this.keys.set(hash, { row, at: Date.now() });
    return row;
  }

  private async generationOf(tenantId: string, role: StaffRole): Promise<number> {
    const id = `${tenantId}:${role}`;
    const hit = this.generations.get(id);
    if (hit && Date.now() - hit.at < this.ttl(GENERATION_CACHE_MS)) return hit.generation;
    const epoch = this.epoch;
    const generation = await this.opts.generationOf(tenantId, role);
    if (epoch !== this.epoch) return generation;
    if (this.generations.size > MAX_ENTRIES) this.generations.clear();
    this.generations.set(id, { generation, at: Date.now() });
    return generation;
  }

  private async revoked(id: string): Promise<boolean> {
    const hit = this.revocations.get(id);
    // Once revoked, always revoked: only "still valid" needs reading again.
    if (hit && (hit.revoked || Date.now() - hit.at < this.ttl(REVOCATION_CACHE_MS))) return hit.revoked;
    const epoch = this.epoch;
    const revoked = await this.opts.sessions.isRevoked(id);
    if (epoch !== this.epoch) return revoked;
    if (this.revocations.size > MAX_ENTRIES) this.revocations.clear();
    this.revocations.set(id, { revoked, at: Date.now() });
    return revoked;
  }

  /** A session was signed out (here or on another node): read it again. */
  forgetSession(id: string): void {
    this.revocations.delete(id);
    this.epoch++;
  }

  /** Keys were revoked: look every key up again. */
  forgetKeys(): void {
    this.keys.clear();
    this.epoch++;
  }

  /** A role's code was rotated. */
  forgetStaff(tenantId: string, role: StaffRole): void {
    this.generations.delete(`${tenantId}:${role}`);
    this.epoch++;
  }

  clear(): void {
    this.keys.clear();
    this.generations.clear();
    this.revocations.clear();
    this.epoch++;
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
    // The directory's tenant, not the key row's: the row may be cached longer than a settings change.
    return { tenant, role: row.role, actor: `api-key ${row.prefix}` };
  }

  /** Verifies a staff secret and returns a session token for the cookie. */
  async signIn(tenant: Tenant, role: StaffRole, secret: string): Promise<{ token: string; session: Session }> {
    const credentials = await this.repo.staffCredentials(tenant.id, role);
    for (const c of credentials) {
      if (await verifySecret(c.secretHash, secret)) {
        const token = await signSession({ tenantId: tenant.id, slug: tenant.slug, role, name: c.name, generation: c.generation }, this.sessionSecret);
        const session = await verifySession(token, this.sessionSecret);
        if (!session) throw new Error("A session just signed does not verify");
        return { token, session };
      }
    }
    throw new AppError("UNAUTHENTICATED", {
      message: `Failed sign-in for ${tenant.slug}/${role}`,
      userMessage: "Wrong sign-in code for this role.",
      reason: "wrongCode",
    });
  }

  /** The session in `token`, if it is valid for `tenant` and one of `roles`. */
  async session(token: string | undefined, tenant: Tenant, roles: readonly StaffRole[]): Promise<Caller> {
    const s = await verifySession(token, this.sessionSecret);
    if (!s) throw new AppError("UNAUTHENTICATED", { message: "No valid session", userMessage: "Please sign in.", reason: "signInRequired" });
    if (s.tenantId !== tenant.id) {
      throw new AppError("FORBIDDEN", {
        message: `Session of ${s.slug} used for ${tenant.slug}`,
        userMessage: "You are signed in to another restaurant.",
        reason: "otherRestaurant",
      });
    }
    // Signed before the role's code was last rotated: that session has ended.
    if (s.generation < (await this.generationOf(tenant.id, s.role))) {
      throw new AppError("UNAUTHENTICATED", {
        message: `Session of ${s.slug}/${s.role} predates a code rotation`,
        userMessage: "Please sign in.",
        reason: "signInRequired",
      });
    }
    // Signed out (on any node): that token has ended, whoever holds a copy.
    if (await this.revoked(s.id)) {
      throw new AppError("UNAUTHENTICATED", {
        message: `Session of ${s.slug}/${s.role} was signed out`,
        userMessage: "Please sign in.",
        reason: "signInRequired",
      });
    }
    if (!roleAllows(s.role, roles)) {
      throw new AppError("FORBIDDEN", {
        message: `Role ${s.role} needs ${roles.join("/")}`,
        userMessage: `Signed in as ${s.role.toLowerCase()}: this screen needs ${roles.map((r) => r.toLowerCase()).join(" or ")}.`,
        reason: "roleNeeded",
        details: { role: s.role, needs: roles[0] },
      });
    }
    return { tenant, role: s.role, actor: `${s.name} (staff)` };
  }

  /**
   * Ends the session in `token` for good: recorded in PostgreSQL, then every node forgets
   * what it cached about it. A token that does not verify has nothing to end.
   */
  async signOut(token: string | undefined): Promise<void> {
    const s = await verifySession(token, this.sessionSecret);
    if (!s) return;
    await this.opts.sessions.revoke({ id: s.id, tenantId: s.tenantId, expiresAt: s.expiresAt });
    this.forgetSession(s.id);
    await this.opts.sessions.ended(s.id);
  }
}
