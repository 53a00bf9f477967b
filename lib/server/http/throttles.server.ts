/**
 * Every throttle of the app, counted in Redis so that all nodes share one count per key,
 * with a per-node memory count while Redis is unreachable (decision 0012). Failed
 * authentications are counted per client address and checked before any key lookup or code
 * check; sign-in attempts per restaurant and address. Nothing is counted per role: a
 * stranger's wrong codes would lock the right code out (decision 0025 removed 0012's limit);
 * per role only the argon2 checks running at once on a node are capped.
 */
import type { Cluster, Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterRes } from "rate-limiter-flexible";
import { AppError, isAppError } from "@/lib/core/errors";
import type { StaffRole } from "@/lib/core/tenants";
import { limitKey } from "./client-address.server";

/**
 * Per-minute limits kept in Redis (shared by all nodes), with a per-node limit in memory
 * while Redis is unreachable: when the counter's breaker is open the memory limiter
 * answers at once instead of waiting for Redis to time out; when a Redis call fails,
 * rate-limiter-flexible's insurance limiter answers.
 */
export class GuardedLimiter {
  private readonly shared: RateLimiterRedis;
  private readonly local: RateLimiterMemory;
  constructor(
    private readonly redis: Redis | Cluster,
    keyPrefix: string,
    readonly points: number,
    private readonly redisUp: () => boolean,
    /** The window the points are counted in: fixed, from a key's first request (a minute unless said). */
    readonly windowSeconds = 60,
  ) {
    const duration = this.windowSeconds;
    this.local = new RateLimiterMemory({ points, duration });
    this.shared = new RateLimiterRedis({ storeClient: redis, keyPrefix, points, duration, insuranceLimiter: this.local });
  }

  private get store(): RateLimiterRedis | RateLimiterMemory {
    return this.redisUp() ? this.shared : this.local;
  }

  /** Resolves when allowed; rejects with rate-limiter-flexible's RateLimiterRes (msBeforeNext) when not. */
  consume(key: string): Promise<RateLimiterRes> {
    return this.store.consume(key);
  }

  /** What `key` spent in its current minute (null: nothing). */
  get(key: string): Promise<RateLimiterRes | null> {
    return this.store.get(key);
  }

  /**
   * Whether `key` has spent all its points this minute. One GET, where `get` sends a MULTI of
   * GET and PTTL: this runs before every authenticated request. A failed call asks the
   * memory limiter, as rate-limiter-flexible's insurance does.
   */
  async exhausted(key: string): Promise<boolean> {
    if (this.redisUp()) {
      try {
        return Number(await this.redis.get(this.shared.getKey(key))) >= this.points;
      } catch {
        // Redis failed: fall through to this node's count.
      }
    }
    const spent = await this.local.get(key);
    return spent !== null && spent.consumedPoints >= this.points;
  }

  /** Spends a point without ever refusing. */
  penalty(key: string): Promise<RateLimiterRes> {
    return this.store.penalty(key, 1);
  }

  /** Gives a point back (an attempt that turned out not to count). */
  reward(key: string): Promise<RateLimiterRes> {
    return this.store.reward(key, 1);
  }
}

/** RATE_LIMITED with the seconds to wait (at least 1) in `details.retryAfter`, which the edges send as Retry-After. */
export function rateLimited(
  what: string,
  msBeforeNext: number | undefined,
  opts: { userMessage?: string | ((retryAfter: number) => string); reason?: string; values?: Record<string, string | number> } = {},
): AppError {
  const retryAfter = retryAfterSeconds(msBeforeNext);
  return new AppError("RATE_LIMITED", {
    message: `Rate limit: ${what}`,
    userMessage: typeof opts.userMessage === "function" ? opts.userMessage(retryAfter) : (opts.userMessage ?? `Too many requests: retry in ${retryAfter} s.`),
    reason: opts.reason,
    details: { ...opts.values, retryAfter },
  });
}

export const retryAfterSeconds = (msBeforeNext: number | undefined): number => Math.max(1, Math.ceil((msBeforeNext ?? 1_000) / 1_000));

/** What a limiter answered for one request: allowed or not, the points left in its window, and when that ends. */
export interface Spent {
  allowed: boolean;
  remaining: number;
  msBeforeNext: number;
}

/** Consumes a point of `key` (one store call, which also tells what is left); a store failure is rethrown. */
export async function spend(limiter: Pick<GuardedLimiter, "consume">, key: string): Promise<Spent> {
  try {
    const res = await limiter.consume(key);
    return { allowed: true, remaining: res.remainingPoints, msBeforeNext: res.msBeforeNext };
  } catch (e) {
    if (e instanceof Error) throw e;
    return { allowed: false, remaining: 0, msBeforeNext: (e as RateLimiterRes).msBeforeNext };
  }
}

/** Consumes a point of `key`; a refusal becomes RATE_LIMITED, a store failure is rethrown. */
export async function take(limiter: GuardedLimiter, key: string, what: string, opts?: Parameters<typeof rateLimited>[2]): Promise<Spent> {
  const spent = await spend(limiter, key);
  if (!spent.allowed) throw rateLimited(what, spent.msBeforeNext, opts);
  return spent;
}

/**
 * The RateLimit-Policy and RateLimit fields (draft-ietf-httpapi-ratelimit-headers-10,
 * structured fields) of `policy` after `spent`: `q` points a window of `w` seconds, `r` left,
 * `t` seconds until the window ends — on a refusal exactly Retry-After, never earlier.
 */
export function rateLimitFields(policy: string, limiter: { points: number; windowSeconds: number }, spent: Spent): Record<string, string> {
  const t = spent.allowed ? Math.max(0, Math.ceil(spent.msBeforeNext / 1_000)) : retryAfterSeconds(spent.msBeforeNext);
  return {
    "RateLimit-Policy": `"${policy}";q=${limiter.points};w=${limiter.windowSeconds}`,
    RateLimit: `"${policy}";r=${Math.max(0, spent.remaining)};t=${t}`,
  };
}

const TOO_MANY_ACTIONS = {
  reason: "tooManyActions",
  userMessage: (s: number) => `Too many actions from this screen in a minute: wait ${s} s and try again.`,
};
/**
 * A limit counted on this node only, in memory, per second: for what answers about the node
 * itself (its health probes), which a shared count in Redis would cost a round trip per
 * request — the very load it limits — and which must answer while Redis is down.
 */
export class NodeLimiter {
  private readonly memory: RateLimiterMemory;
  readonly windowSeconds: number = 1;

  constructor(readonly points: number) {
    this.memory = new RateLimiterMemory({ points, duration: this.windowSeconds });
  }

  /** Resolves when allowed; rejects with rate-limiter-flexible's RateLimiterRes (msBeforeNext) when not. */
  consume(key: string): Promise<RateLimiterRes> {
    return this.memory.consume(key);
  }
}

const TOO_MANY_FAILURES = (retryAfter: number) => `Too many failed sign-ins or API keys from this address: retry in ${retryAfter} s.`;

/** The limits the throttles count to, as lib/server/env.server.ts reads them (README, "Operating"). */
export interface ThrottleSettings {
  REDIS_KEY_PREFIX: string;
  API_RATE_LIMIT_PER_MINUTE: number;
  VOICE_RATE_LIMIT_PER_MINUTE: number;
  AUTH_FAILURES_PER_MINUTE: number;
  SIGN_IN_CHECKS_PER_ROLE: number;
  PUBLIC_REQUESTS_PER_MINUTE: number;
  SOCKET_HANDSHAKES_PER_MINUTE: number;
  STAFF_ACTIONS_PER_MINUTE: number;
  STAFF_ACTIONS_PER_ADDRESS_PER_MINUTE: number;
  REPRINTS_PER_ORDER: number;
  REPRINTS_PER_PRINTER_PER_MINUTE: number;
  PROBE_REQUESTS_PER_SECOND: number;
}

/** How long an order's reprints are counted: a day from its first, so about its business day (an order lives in one). */
const REPRINT_WINDOW_SECONDS = 24 * 60 * 60;

export class Throttles {
  /** Per API key (API_RATE_LIMIT_PER_MINUTE). */
  readonly api: GuardedLimiter;
  /** New voice clips per client address (VOICE_RATE_LIMIT_PER_MINUTE). */
  readonly voice: GuardedLimiter;
  /** Sign-in attempts per restaurant and address, right or wrong. */
  readonly signInAttempts: GuardedLimiter;
  /** argon2 checks in flight on this node per restaurant and role (SIGN_IN_CHECKS_PER_ROLE). */
  private readonly checksInFlight = new Map<string, number>();
  private readonly checksPerRole: number;
  /** Failed authentications per client address. */
  readonly authFailures: GuardedLimiter;
  /** Public board and customer requests per client address. */
  readonly publicReads: GuardedLimiter;
  /** Socket.IO handshakes per client address. */
  readonly socketHandshakes: GuardedLimiter;
  /** Server actions per staff session (STAFF_ACTIONS_PER_MINUTE). */
  readonly staffActions: GuardedLimiter;
  /** Server actions per client address, signed in or not (STAFF_ACTIONS_PER_ADDRESS_PER_MINUTE). */
  readonly actionAddresses: GuardedLimiter;
  /** Reprints per order in a day (REPRINTS_PER_ORDER). */
  readonly reprintsPerOrder: GuardedLimiter;
  /** Reprints per printer per minute (REPRINTS_PER_PRINTER_PER_MINUTE). */
  readonly reprintsPerPrinter: GuardedLimiter;
  /** Health and readiness probes per client address, on this node (PROBE_REQUESTS_PER_SECOND). */
  readonly probes: NodeLimiter;

  constructor(redis: Redis | Cluster, env: ThrottleSettings, redisUp: () => boolean) {
    const limiter = (name: string, points: number, seconds?: number) =>
      new GuardedLimiter(redis, `${env.REDIS_KEY_PREFIX}rl:${name}`, points, redisUp, seconds);
    this.api = limiter("api", env.API_RATE_LIMIT_PER_MINUTE);
    this.voice = limiter("voice", env.VOICE_RATE_LIMIT_PER_MINUTE);
    // 30: a shift change on several tablets behind one address (a shop's router), people switching on shared ones.
    this.signInAttempts = limiter("signin", 30);
    this.checksPerRole = env.SIGN_IN_CHECKS_PER_ROLE;
    this.authFailures = limiter("authfail", env.AUTH_FAILURES_PER_MINUTE);
    this.publicReads = limiter("public", env.PUBLIC_REQUESTS_PER_MINUTE);
    this.socketHandshakes = limiter("handshake", env.SOCKET_HANDSHAKES_PER_MINUTE);
    this.staffActions = limiter("action", env.STAFF_ACTIONS_PER_MINUTE);
    this.actionAddresses = limiter("action-addr", env.STAFF_ACTIONS_PER_ADDRESS_PER_MINUTE);
    this.reprintsPerOrder = limiter("reprint-order", env.REPRINTS_PER_ORDER, REPRINT_WINDOW_SECONDS);
    this.reprintsPerPrinter = limiter("reprint-printer", env.REPRINTS_PER_PRINTER_PER_MINUTE);
    this.probes = new NodeLimiter(env.PROBE_REQUESTS_PER_SECOND);
  }

  /** A server action from `address`, before its form is read: refused once the address has used its minute. */
  async actionFrom(address: string): Promise<void> {
    const key = limitKey(address);
    await take(this.actionAddresses, key, `server actions from ${key}`, TOO_MANY_ACTIONS);
  }

  /** A server action of a signed-in session (`client`: the caller's), before its form is parsed. */
  async actionBy(tenantId: string, client: string): Promise<void> {
    await take(this.staffActions, `${tenantId}:${client}`, `server actions of ${client}`, TOO_MANY_ACTIONS);
  }

  /**
   * A reprint of `orderId` on `printerId` (REST and the kiosk's action alike), before it is
   * queued. Abuse control, not a promise: counted in Redis, and per node while Redis is
   * unreachable (decision 0041).
   */
  async reprint(tenantId: string, orderId: string, printerId: string): Promise<void> {
    const perPrinter = this.reprintsPerPrinter.points;
    await take(this.reprintsPerPrinter, `${tenantId}:${printerId}`, `reprints on printer ${printerId}`, {
      reason: "tooManyPrinterReprints",
      values: { max: perPrinter },
      userMessage: (s) => `This printer has had ${perPrinter} reprints in the last minute: wait ${s} s and try again.`,
    });
    const perOrder = this.reprintsPerOrder.points;
    try {
      await take(this.reprintsPerOrder, `${tenantId}:${orderId}`, `reprints of order ${orderId}`, {
        reason: "tooManyReprints",
        values: { max: perOrder },
        userMessage: `This ticket has been reprinted ${perOrder} times already: no more reprints of it today.`,
      });
    } catch (e) {
      // Nothing printed: the printer's point is given back, so one order's refusals do not use up the printer's minute.
      await this.reprintsPerPrinter.reward(`${tenantId}:${printerId}`).catch(() => undefined);
      throw e;
    }
  }

  /**
   * 429 while `address` has used up its failed authentications this minute: called before
   * any key lookup or code check, so even a valid key waits.
   */
  async beforeAuthentication(client: string): Promise<void> {
    const address = limitKey(client);
    if (!(await this.authFailures.exhausted(address))) return;
    // Rare: read the wait as well, for Retry-After.
    const spent = await this.authFailures.get(address);
    if (spent && spent.consumedPoints >= this.authFailures.points) {
      const retryAfter = retryAfterSeconds(spent.msBeforeNext);
      throw rateLimited(`failed authentications from ${address}`, spent.msBeforeNext, {
        userMessage: TOO_MANY_FAILURES(retryAfter),
        reason: "tooManyAttempts",
      });
    }
  }

  /** Counts one failed authentication against `address` (never refuses; a Redis failure is ignored). */
  async failed(client: string): Promise<void> {
    await this.authFailures.penalty(limitKey(client)).catch(() => undefined);
  }

  /** Runs `authenticate`; an UNAUTHENTICATED it throws (a wrong key or code) counts against `address`. */
  async countingFailures<T>(address: string, authenticate: () => Promise<T>): Promise<T> {
    try {
      return await authenticate();
    } catch (e) {
      if (isAppError(e) && e.code === "UNAUTHENTICATED") await this.failed(address);
      throw e;
    }
  }

  /**
   * A sign-in with a staff code or a person's PIN (`checks`: the role, or "PIN"; a PIN has
   * its own waits too, decision 0051): refused before `verify` (argon2) while the address is
   * blocked or has used its attempts at this restaurant. Nothing a stranger does keeps the
   * right code from another address out (decision 0025): per role, only the checks running
   * at once on this node are capped, which bounds the CPU a flood takes for a moment.
   */
  async signIn<T>(tenantId: string, checks: StaffRole | "PIN", address: string, verify: () => Promise<T>): Promise<T> {
    const tooMany = { reason: "tooManyAttempts", userMessage: "Too many attempts, wait a minute and try again." };
    await this.beforeAuthentication(address);
    await take(this.signInAttempts, `${tenantId}:${limitKey(address)}`, `sign-in attempts at ${tenantId} from ${address}`, tooMany);
    const roleKey = `${tenantId}:${checks}`;
    const running = this.checksInFlight.get(roleKey) ?? 0;
    if (running >= this.checksPerRole) {
      throw rateLimited(`sign-in checks in flight for ${roleKey}`, 1_000, { reason: "busy", userMessage: "Busy checking sign-ins: try again in a moment." });
    }
    this.checksInFlight.set(roleKey, running + 1);
    try {
      return await this.countingFailures(address, verify);
    } finally {
      const left = (this.checksInFlight.get(roleKey) ?? 1) - 1;
      if (left > 0) this.checksInFlight.set(roleKey, left);
      else this.checksInFlight.delete(roleKey);
    }
  }
}
