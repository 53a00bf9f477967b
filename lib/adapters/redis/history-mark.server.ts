/**
 * The latest database history any node saw (decision 0028), in Redis beside the counters:
 * Redis and PostgreSQL fail apart, so after a database failover a node that started since
 * still learns which timeline came before. One small hash, no expiry.
 */
import type { Cluster, Redis } from "ioredis";
import type { HistoryMark } from "@/lib/core/ports";
import type { DatabaseHistory } from "@/lib/core/replication";

export class RedisHistoryMark implements HistoryMark {
  readonly key: string;

  constructor(
    private readonly redis: Redis | Cluster,
    keyPrefix: string,
  ) {
    this.key = `${keyPrefix}db:history`;
  }

  async get(): Promise<DatabaseHistory | null> {
    const [systemId, timeline] = await this.redis.hmget(this.key, "systemId", "timeline");
    return systemId && timeline ? { systemId, timeline: Number(timeline) } : null;
  }

  async set(h: DatabaseHistory): Promise<void> {
    await this.redis.hset(this.key, "systemId", h.systemId, "timeline", String(h.timeline));
  }
}
