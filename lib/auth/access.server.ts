/**
 * Who is asking: staff sessions (cookies) and API keys (Bearer tokens), both bound to
 * one tenant and one role. Failures are AppErrors: 401 when nobody is identified, 403
 * when the identity is of another tenant or lacks the role.
 */
import { AppError } from "@/lib/core/errors";
import type { StaffRole, Tenant } from "@/lib/core/tenants";
import { roleAllows } from "@/lib/auth/roles";
import { ReadThroughCache } from "@/lib/core/read-through-cache";
import { hashApiKey, verifySecret } from "@/lib/auth/secrets.server";
import { signSession, verifySession, type Session } from "@/lib/auth/session.server";
import type { StaffMemberState } from "@/lib/core/ports";
import type { SignedInMember } from "@/lib/core/staff/staff-service";

export interface Caller {
  tenant: Tenant;
  role: StaffRole;
  /** Who, for audit fields such as Shift.startedBy: "Li Wei (staff)", "Manager (staff)" or "api-key 1a2b3c4d5e6f7a8b". */
  actor: string;
  /** The person signed in (decision 0051); null for a shared role code or an API key. */
  staffId: string | null;
  /** Who, as an order's history and webhooks name them: the person's name, the shared code's role label ("Kitchen"), or the API key's label (a key without one: "API key <prefix>"). */
  by: string;
  /**
   * Which client exactly: "api-key:<ApiKey.id>", or "session:<session id>" for a signed-in
   * screen. An API key's idempotency keys are scoped to it; a kiosk's to its device
   * (lib/auth/device.server.ts), which outlives a session.
   */
  client: string;
}

/** Prefixes are 16 hex digits; keys made before that have 8 and keep working. */
/** `Bearer <key>`: the scheme is case-insensitive (RFC 9110), the key is not. */
const KEY_RE = /^[Bb][Ee][Aa][Rr][Ee][Rr] +(nxu_[a-z]{3}_(?:[0-9a-f]{16}|[0-9a-f]{8})_[A-Za-z0-9_-]{20,64}) *$/;

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
/** How long a node trusts a person's generation and active flag (a change tells every node at once). */
export const MEMBER_CACHE_MS = 10_000;
/** Entries per cache before the oldest go: a flood of made-up keys cannot grow memory. */
const MAX_ENTRIES = 10_000;

/** What Access reads from the database (PrismaTenantRepository): an API key by its hash, a role's sign-in credentials. */
export interface AccessStore {
  apiKeyByHash(keyHash: string): Promise<{ id: string; tenantId: string; role: StaffRole; name: string; prefix: string; revokedAt: Date | null } | null>;
  staffCredentials(tenantId: string, role: StaffRole): Promise<{ name: string; secretHash: string; generation: number }[]>;
}

type KeyRow = Awaited<ReturnType<AccessStore["apiKeyByHash"]>>;

export class Access {
  private readonly keys: ReadThroughCache<string, KeyRow>;
  private readonly generations: ReadThroughCache<string, number>;
  private readonly revocations: ReadThroughCache<string, boolean>;
  private readonly members: ReadThroughCache<string, StaffMemberState | null>;

  constructor(
    private readonly repo: AccessStore,
    private readonly sessionSecret: string,
    private readonly opts: {
      /** The generation sessions of a role must carry (0: the role has no sign-in). */
      generationOf: (tenantId: string, role: StaffRole) => Promise<number>;
      /** A person's role, active flag and generation (null: no such person). */
      memberState: (tenantId: string, id: string) => Promise<StaffMemberState | null>;
      /** How long a cache entry is trusted right now, at most the constants above. */
      ttlMs?: () => number;
      /** Signed-out sessions (PostgreSQL), and how every node hears of a new one. */
      sessions: {
        revoke(s: { id: string; tenantId: string; expiresAt: Date }): Promise<void>;
        isRevoked(id: string): Promise<boolean>;
        ended(id: string): Promise<void>;
      };
    },
  ) {
    const ttl = (max: number) => () => Math.min(max, opts.ttlMs?.() ?? max);
    this.keys = new ReadThroughCache((hash) => repo.apiKeyByHash(hash), ttl(API_KEY_CACHE_MS), MAX_ENTRIES);
    this.generations = new ReadThroughCache(
      (id) => {
        const [tenantId, role] = id.split(":") as [string, StaffRole];
        return opts.generationOf(tenantId, role);
      },
      ttl(GENERATION_CACHE_MS),
      MAX_ENTRIES,
    );
    this.members = new ReadThroughCache(
      (key) => {
        const [tenantId, id] = key.split(":") as [string, string];
        return opts.memberState(tenantId, id);
      },
      ttl(MEMBER_CACHE_MS),
      MAX_ENTRIES,
    );
    const unrevokedTtl = ttl(REVOCATION_CACHE_MS);
    // Once revoked, always revoked: only "still valid" needs reading again.
    this.revocations = new ReadThroughCache(
      (id) => opts.sessions.isRevoked(id),
      (revoked) => (revoked ? Infinity : unrevokedTtl()),
      MAX_ENTRIES,
    );
  }

  /** A session was signed out (here or on another node): read it again. */
  forgetSession(id: string): void {
    this.revocations.forget(id);
  }

  /** Keys were revoked: look every key up again. */
  forgetKeys(): void {
    this.keys.clear();
  }

  /** A role's code was rotated. */
  forgetStaff(tenantId: string, role: StaffRole): void {
    this.generations.forget(`${tenantId}:${role}`);
  }

  /** A person's PIN, role, name or active flag changed. */
  forgetMember(tenantId: string, id: string): void {
    this.members.forget(`${tenantId}:${id}`);
  }

  clear(): void {
    this.keys.clear();
    this.generations.clear();
    this.revocations.clear();
    this.members.clear();
  }

  /** Checks an `Authorization: Bearer` header for `tenant` and `roles`. */
  async apiKey(authorization: string | null, tenant: Tenant, roles: readonly StaffRole[]): Promise<Caller> {
    if (!authorization) {
      throw new AppError("UNAUTHENTICATED", { message: "Missing Authorization header", userMessage: "Missing API key: send `Authorization: Bearer <key>`." });
    }
    const m = KEY_RE.exec(authorization);
    const row = m?.[1] ? await this.keys.get(hashApiKey(m[1])) : null;
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
    return { tenant, role: row.role, actor: `api-key ${row.prefix}`, staffId: null, by: row.name || `API key ${row.prefix}`, client: `api-key:${row.id}` };
  }

  /** Verifies a role's shared code and returns a session token for the cookie. */
  async signIn(tenant: Tenant, role: StaffRole, secret: string): Promise<{ token: string; session: Session }> {
    if (tenant.sharedCodes === false) throw sharedCodesOff(tenant);
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

  /**
   * A session for a person whose PIN was just checked (StaffService.signInWithPin). It also
   * carries the role code's generation, so that a node of the release before people accepts it
   * during a rolling upgrade.
   */
  async signInMember(tenant: Tenant, m: SignedInMember): Promise<{ token: string; session: Session }> {
    const generation = Math.max(1, await this.opts.generationOf(tenant.id, m.role));
    const token = await signSession(
      { tenantId: tenant.id, slug: tenant.slug, role: m.role, name: m.name, generation, member: { id: m.id, generation: m.generation } },
      this.sessionSecret,
    );
    const session = await verifySession(token, this.sessionSecret);
    if (!session) throw new Error("A session just signed does not verify");
    return { token, session };
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
    if (s.member) {
      // A person's: ended by a new PIN, another role or deactivation (the generation), or by their removal.
      const m = await this.members.get(`${tenant.id}:${s.member.id}`);
      if (!m || !m.active || m.generation !== s.member.generation || m.role !== s.role) {
        throw new AppError("UNAUTHENTICATED", {
          message: `Session of ${s.slug}/${s.member.id} ended by a change of the person`,
          userMessage: "Please sign in.",
          reason: "signInRequired",
        });
      }
    } else if (tenant.sharedCodes === false) {
      // A shared code's, after the restaurant turned shared codes off.
      throw new AppError("UNAUTHENTICATED", {
        message: `Shared-code session of ${s.slug}/${s.role} after shared codes were turned off`,
        userMessage: "Please sign in.",
        reason: "signInRequired",
      });
    } else if (s.generation < (await this.generations.get(`${tenant.id}:${s.role}`))) {
      // Signed before the role's code was last rotated: that session has ended.
      throw new AppError("UNAUTHENTICATED", {
        message: `Session of ${s.slug}/${s.role} predates a code rotation`,
        userMessage: "Please sign in.",
        reason: "signInRequired",
      });
    }
    // Signed out (on any node): that token has ended, whoever holds a copy.
    if (await this.revocations.get(s.id)) {
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
    return { tenant, role: s.role, actor: `${s.name} (staff)`, staffId: s.member?.id ?? null, by: s.name, client: `session:${s.id}` };
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

function sharedCodesOff(tenant: Tenant): AppError {
  return new AppError("UNAUTHENTICATED", {
    message: `Shared-code sign-in at ${tenant.slug}, which turned shared codes off`,
    userMessage: "This restaurant signs in by name and PIN only: choose your name.",
    reason: "sharedCodesOff",
  });
}
