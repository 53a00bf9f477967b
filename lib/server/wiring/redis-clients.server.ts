/**
 * The Redis clients every node opens (counter, pub/sub, invalidation), with bounded waits,
 * and the checks the probes and the start make of them.
 */
import { Cluster, Redis } from "ioredis";
import { preloadScripts } from "@/lib/adapters/redis/scripts.server";
import type { Env, RedisNode } from "../env.server";
import type { Logger } from "../ops/logger.server";

/** Where Redis is: a `redis://` URL, or the seed nodes of a Redis Cluster. */
export type RedisTarget = string | readonly RedisNode[];

/** The env's Redis: REDIS_CLUSTER_NODES when set (REDIS_URL is then ignored), else REDIS_URL. */
export function redisTarget(env: Pick<Env, "REDIS_URL" | "REDIS_CLUSTER_NODES">): RedisTarget {
  return env.REDIS_CLUSTER_NODES?.length ? env.REDIS_CLUSTER_NODES : env.REDIS_URL;
}

/**
 * A Redis client that never makes a caller wait long: bounded connect and command
 * timeouts, reconnection in the background. `failFast` (the counter's client) also turns
 * off the offline queue, so while disconnected a command fails at once and the number
 * comes from PostgreSQL instead of waiting for a reconnect.
 *
 * Given cluster seed nodes, an ioredis Cluster with the same guarantees: its per-node
 * connections get the same timeouts; its own offline queue (commands sent while it has
 * no slot map, e.g. while connecting) is off for `failFast`; reconnecting the cluster and
 * its nodes backs off to at most 1 s. Every key of a tenant carries the hash tag
 * `{t:<id>}` and every script uses one key, so the scripts run unchanged on a cluster.
 */
type ClientOptions = { failFast?: boolean; commandTimeoutMs?: number };
export function createRedis(target: string, log: Logger, name: string, opts?: ClientOptions): Redis;
export function createRedis(target: readonly RedisNode[], log: Logger, name: string, opts?: ClientOptions): Cluster;
export function createRedis(target: RedisTarget, log: Logger, name: string, opts?: ClientOptions): Redis | Cluster;
export function createRedis(target: RedisTarget, log: Logger, name: string, opts: ClientOptions = {}): Redis | Cluster {
  const backoff = (times: number) => Math.min(times * 100, 1_000);
  const common = {
    connectionName: `nextup-${name}`,
    connectTimeout: 1_000,
    commandTimeout: opts.commandTimeoutMs ?? 1_000,
    maxRetriesPerRequest: 1,
  } as const;
  const redis: Redis | Cluster =
    typeof target === "string"
      ? new Redis(target, {
          ...common,
          enableOfflineQueue: !opts.failFast,
          enableAutoPipelining: true,
          retryStrategy: backoff,
        })
      : new Cluster(
          target.map((n) => ({ host: n.host, port: n.port })),
          {
            redisOptions: common,
            enableOfflineQueue: !opts.failFast,
            // Off on purpose: ioredis' auto-pipelining makes every command wait for the
            // cluster's slot map, which skips the offline-queue check — a counter call
            // then hangs until the next connect attempt fails instead of failing at once.
            enableAutoPipelining: false,
            scaleReads: "master",
            clusterRetryStrategy: backoff,
            clusterNodeRetryStrategy: backoff,
            // A MOVED/ASK or a node lost in a failover is followed a few times, not 16
            // (the counter's breaker gives up after COUNTER_TIMEOUT_MS anyway).
            maxRedirections: 6,
            retryDelayOnFailover: 100,
            retryDelayOnClusterDown: 100,
            retryDelayOnTryAgain: 100,
            slotsRefreshTimeout: 1_000,
          },
        );
  let down = false;
  redis.on("error", (err: Error) => {
    if (!down) log.warn({ err: err.message, client: name }, "redis connection error");
    down = true;
  });
  if (redis instanceof Cluster) {
    // Per-node errors; the cluster itself reports "error" only when it gives up a command
    // or cannot refresh its slots. Logged once per outage, like the single client.
    redis.on("node error", (err: Error, node: string) => {
      if (!down) log.warn({ err: err.message, client: name, node }, "redis cluster node error");
      down = true;
    });
  }
  redis.on("ready", () => {
    if (down) log.info({ client: name }, "redis reconnected");
    down = false;
  });
  return redis;
}

export async function warmUpRedis(redis: Redis | Cluster, log: Logger): Promise<void> {
  const ready = new Promise<void>((resolve) => {
    if (redis.status === "ready") resolve();
    else redis.once("ready", () => resolve());
  });
  const inTime = await Promise.race([ready.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 3_000))]);
  if (!inTime) {
    log.warn({}, "Redis not ready at start-up: numbers come from PostgreSQL until it is");
    return;
  }
  await preloadScripts(redis).catch((e: unknown) => log.warn({ err: e instanceof Error ? e.message : String(e) }, "could not preload the Lua scripts"));
}

/** PONG from one Redis, or from every master of a cluster (a tenant's counter lives on one). */
export async function pingRedis(redis: Redis | Cluster): Promise<boolean> {
  if (!(redis instanceof Cluster)) return (await redis.ping()) === "PONG";
  const masters = redis.status === "ready" ? redis.nodes("master") : [];
  if (masters.length === 0) return false;
  const replies = await Promise.all(masters.map((m) => m.ping()));
  return replies.every((r) => r === "PONG");
}
