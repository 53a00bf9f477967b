/**
 * The scheduler's leader lock in Redis (docs/decisions/0010): one key holding the leader's
 * random token. Acquired with SET NX PX, extended and released only by compare-and-act
 * scripts (lua/extend-lock-1.lua, lua/release-lock-1.lua), so no node ever extends or
 * deletes a lock another node took after its own expired. Expiry is the fail-safe when a
 * leader dies. Being the leader decides who tries; PostgreSQL's term decides what counts.
 */
import { randomBytes } from "node:crypto";
import type { Cluster, Redis } from "ioredis";
import { Flag } from "./lua/reply-codes";

export class RedisLeaderLock {
  readonly key: string;
  /** New for every acquisition: a token from an earlier term never matches a later one. */
  private token: string | null = null;

  constructor(
    private readonly redis: Redis | Cluster,
    keyPrefix: string,
    readonly ttlMs: number,
  ) {
    this.key = `${keyPrefix}scheduler:leader`;
  }

  /** True when this node took the free lock. */
  async acquire(): Promise<boolean> {
    const token = randomBytes(16).toString("hex");
    const reply = await this.redis.set(this.key, token, "PX", this.ttlMs, "NX");
    if (reply !== "OK") return false;
    this.token = token;
    return true;
  }

  /** True when this node still held the lock and its time to live starts over. */
  async extend(): Promise<boolean> {
    if (!this.token) return false;
    const held = (await this.redis.extendLock(this.key, this.token, this.ttlMs)) === Flag.YES;
    if (!held) this.token = null;
    return held;
  }

  /** Deletes the lock if this node still holds it (shutdown, or stepping down). */
  async release(): Promise<void> {
    const token = this.token;
    this.token = null;
    if (token) await this.redis.releaseLock(this.key, token);
  }
}
