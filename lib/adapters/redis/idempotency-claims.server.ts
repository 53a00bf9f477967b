/**
 * Claims on idempotency keys in Redis (`SET key 1 NX PX ttl`), so concurrent retries of
 * one order draw one number. Best effort by design: while the counter's breaker says
 * Redis is unavailable, or when the call fails, every caller gets the claim — the unique
 * (tenant, day, scope, key) index still makes one order win.
 */
import type { Cluster, Redis } from "ioredis";
import type { IdempotencyClaims } from "@/lib/core/ports";
import { tenantKey } from "./counter.server";

export class RedisIdempotencyClaims implements IdempotencyClaims {
  constructor(
    private readonly redis: Redis | Cluster,
    private readonly prefix: string,
    private readonly redisUp: () => boolean,
  ) {}

  // A scope ("api-key:<uuid>", "session:<id>") holds no "/", so the first "/" ends it.
  private key(tenantId: string, day: string, scope: string, key: string): string {
    return tenantKey(this.prefix, tenantId, `idem:${day}:${scope}/${key}`);
  }

  async claim(tenantId: string, day: string, scope: string, key: string, ttlMs: number): Promise<boolean> {
    if (!this.redisUp()) return true;
    try {
      return (await this.redis.set(this.key(tenantId, day, scope, key), "1", "PX", ttlMs, "NX")) === "OK";
    } catch {
      return true;
    }
  }

  async release(tenantId: string, day: string, scope: string, key: string): Promise<void> {
    if (!this.redisUp()) return;
    await this.redis.del(this.key(tenantId, day, scope, key)).catch(() => 0);
  }
}
