/**
 * The Redis side of the counter: the core's FastCounter over the Lua scripts, behind a
 * circuit breaker (opossum). One round trip per number.
 *
 * The breaker is what makes a cashier never wait on a sick Redis: a call that takes longer
 * than `timeoutMs` fails (the issuer then takes the number from PostgreSQL); when half the
 * recent calls failed the breaker opens and every call fails at once, without touching
 * Redis, until it lets one probe through after `resetMs`.
 */
import type { Cluster, Redis } from "ioredis";
import CircuitBreaker from "opossum";
import {
  CounterUnavailableError,
  LOW_WATER,
  REFILL_LEASE_MS,
  type Block,
  type FastCounter,
  type FastIssue,
  type IssuedNumber,
} from "@/lib/core/numbering";
import type { Logger } from "@/lib/core/ports";

/** All keys of a tenant share the hash tag `{t:<id>}`, so they live in one Cluster slot. */
export function tenantKey(prefix: string, tenantId: string, name: string): string {
  return `${prefix}{t:${tenantId}}:${name}`;
}

export interface BreakerOptions {
  /** A Redis call slower than this counts as failed and falls back (ms). */
  timeoutMs: number;
  /** How long the breaker stays open before one probe (ms). */
  resetMs: number;
}

export const DEFAULT_BREAKER: BreakerOptions = { timeoutMs: 300, resetMs: 1_000 };

type Call = () => Promise<unknown>;

export class RedisCounter implements FastCounter {
  private readonly breaker: CircuitBreaker<[Call], unknown>;

  constructor(
    private readonly redis: Redis | Cluster,
    private readonly prefix: string,
    log: Logger,
    opts: BreakerOptions = DEFAULT_BREAKER,
  ) {
    this.breaker = new CircuitBreaker((call: Call) => call(), {
      timeout: opts.timeoutMs,
      resetTimeout: opts.resetMs,
      // Judged on the last second only: a paused or partitioned Redis must open the breaker
      // within about a second even after thousands of successful calls.
      errorThresholdPercentage: 50,
      volumeThreshold: 3,
      rollingCountTimeout: 1_000,
      rollingCountBuckets: 10,
    });
    this.breaker.on("open", () => log.warn({ component: "counter" }, "Redis counter unavailable: numbers now come from PostgreSQL"));
    this.breaker.on("halfOpen", () => log.info({ component: "counter" }, "probing Redis"));
    this.breaker.on("close", () => log.info({ component: "counter" }, "Redis counter back: numbers come from Redis again"));
  }

  key(tenantId: string): string {
    return tenantKey(this.prefix, tenantId, "counter");
  }

  available(): boolean {
    return !this.breaker.opened;
  }

  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return (await this.breaker.fire(fn)) as T;
    } catch (e) {
      throw new CounterUnavailableError(`Redis counter: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
  }

  async next(tenantId: string, today: string, nowMs: number, expireAtMs: number): Promise<FastIssue> {
    const r = await this.call(() => this.redis.issueNumber(this.key(tenantId), today, nowMs, expireAtMs, LOW_WATER, REFILL_LEASE_MS));
    switch (r[0]) {
      case 1:
        return { kind: "issued", issued: { businessDay: r[1], shift: Number(r[2]), number: Number(r[3]) }, refill: r[4] === 1 };
      case 2:
        return { kind: "empty", businessDay: r[1], shift: Number(r[2]), lease: r[3] === 1 };
      default:
        return { kind: "missing", lease: r[1] === 1 };
    }
  }

  async addBlock(tenantId: string, b: Block, expireAtMs: number): Promise<boolean> {
    return (await this.call(() => this.redis.installBlock(this.key(tenantId), b.businessDay, b.shift, b.lo, b.hi, expireAtMs, "add"))) === 1;
  }

  async restore(tenantId: string, b: Block, expireAtMs: number): Promise<boolean> {
    return (await this.call(() => this.redis.installBlock(this.key(tenantId), b.businessDay, b.shift, b.lo, b.hi, expireAtMs, "restore"))) === 1;
  }

  async burn(tenantId: string, issued: IssuedNumber): Promise<void> {
    await this.call(() => this.redis.burnBlock(this.key(tenantId), issued.businessDay, issued.shift, issued.number));
  }

  shutdown(): void {
    this.breaker.shutdown();
  }
}
