/**
 * The Redis side of the counter: implements the core's FastCounter with the two scripts.
 * One round trip per number.
 */
import type { Cluster, Redis } from "ioredis";
import type { CounterState, FastCounter, IssuedNumber } from "@/lib/core/numbering";

/** All keys of a tenant share the hash tag `{t:<id>}`, so they live in one Cluster slot. */
export function tenantKey(prefix: string, tenantId: string, name: string): string {
  return `${prefix}{t:${tenantId}}:${name}`;
}

export class RedisCounter implements FastCounter {
  constructor(
    private readonly redis: Redis | Cluster,
    private readonly prefix: string,
  ) {}

  key(tenantId: string): string {
    return tenantKey(this.prefix, tenantId, "counter");
  }

  async next(tenantId: string, today: string, expireAtMs: number): Promise<IssuedNumber | null> {
    const reply = await this.redis.issueNumber(this.key(tenantId), today, expireAtMs);
    if (!reply) return null;
    const [businessDay, shift, number] = reply;
    return { businessDay, shift: Number(shift), number: Number(number) };
  }

  async advance(tenantId: string, state: CounterState, expireAtMs: number): Promise<boolean> {
    const written = await this.redis.advanceCounter(this.key(tenantId), state.businessDay, state.shift, state.last, expireAtMs);
    return written === 1;
  }
}
