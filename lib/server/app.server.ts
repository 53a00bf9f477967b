/**
 * The wiring: the one place where adapters are built and handed to the core. server.ts
 * calls createApp(); route handlers and server actions reach the result through
 * getApp() (lib/server/app-context.ts).
 */
import type { Server as HttpServer } from "node:http";
import { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis } from "rate-limiter-flexible";
import { NumberIssuer, systemClock, type Clock } from "@/lib/core/numbering";
import { OrderService } from "@/lib/core/order-service";
import { ShiftService } from "@/lib/core/shift-service";
import { RedisCounter } from "@/lib/adapters/redis/counter.server";
import { defineScripts } from "@/lib/adapters/redis/scripts.server";
import { prismaFor, type Db } from "@/lib/adapters/postgres/prisma.server";
import {
  PrismaCounterLedger,
  PrismaOrderRepository,
  PrismaShiftRepository,
  PrismaTenantRepository,
} from "@/lib/adapters/postgres/repositories.server";
import { createSocketServer, SocketPublisher, type IoServer } from "@/lib/adapters/realtime/socket-server.server";
import { Access } from "./access.server";
import type { Env } from "./env.server";
import type { Logger } from "./logger.server";
import { TenantDirectory } from "./tenant-directory.server";
import { createMetrics, type AppMetrics } from "./metrics.server";

export interface App {
  env: Env & { DATABASE_URL: string };
  log: Logger;
  db: Db;
  redis: Redis;
  io: IoServer;
  tenants: TenantDirectory;
  tenantRepo: PrismaTenantRepository;
  access: Access;
  orders: OrderService;
  shifts: ShiftService;
  metrics: AppMetrics;
  apiLimiter: RateLimiterRedis;
  signInLimiter: RateLimiterRedis;
  health(): Promise<{ status: "ok" | "degraded"; db: "up" | "down"; redis: "up" | "down"; counter: "redis" | "database" }>;
  close(): Promise<void>;
}

/**
 * A Redis client that never makes a caller wait long: bounded connect and command
 * timeouts, reconnection in the background. `failFast` (the counter's client) also turns
 * off the offline queue, so while disconnected a command fails at once and the number
 * comes from PostgreSQL instead of waiting for a reconnect.
 */
export function createRedis(url: string, log: Logger, name: string, opts: { failFast?: boolean } = {}): Redis {
  const redis = new Redis(url, {
    connectionName: `nextup-${name}`,
    connectTimeout: 1_000,
    commandTimeout: 1_000,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: !opts.failFast,
    enableAutoPipelining: true,
    retryStrategy: (times) => Math.min(times * 100, 1_000),
  });
  let down = false;
  redis.on("error", (err) => {
    if (!down) log.warn({ err: err.message, client: name }, "redis connection error");
    down = true;
  });
  redis.on("ready", () => {
    if (down) log.info({ client: name }, "redis reconnected");
    down = false;
  });
  return redis;
}

export function createApp(opts: { env: Env & { DATABASE_URL: string }; log: Logger; http: HttpServer; clock?: Clock }): App {
  const { env, log, http } = opts;
  const clock = opts.clock ?? systemClock;

  const redis = createRedis(env.REDIS_URL, log, "main", { failFast: true });
  defineScripts(redis);
  const pub = createRedis(env.REDIS_URL, log, "pub");
  const sub = createRedis(env.REDIS_URL, log, "sub");

  const db = prismaFor(env.DATABASE_URL);
  const tenantRepo = new PrismaTenantRepository(db);
  const tenants = new TenantDirectory((slug) => tenantRepo.findBySlug(slug));
  const orderRepo = new PrismaOrderRepository(db);
  const shiftRepo = new PrismaShiftRepository(db);
  const counter = new RedisCounter(redis, env.REDIS_KEY_PREFIX, log, {
    timeoutMs: env.COUNTER_TIMEOUT_MS,
    resetMs: env.COUNTER_PROBE_MS,
  });
  const issuer = new NumberIssuer(counter, new PrismaCounterLedger(db), clock, log);
  const metrics = createMetrics();

  const io = createSocketServer(http, {
    findTenant: (slug) => tenants.find(slug),
    log,
    pubsub: { pub, sub, channelPrefix: `${env.REDIS_KEY_PREFIX}socket.io` },
  });
  const events = new SocketPublisher(io, log);

  const orders = new OrderService({ issuer, orders: orderRepo, shifts: shiftRepo, events, metrics, log, clock });
  const shifts = new ShiftService({ issuer, counter, shifts: shiftRepo, events, log });

  const insurance = (points: number) => new RateLimiterMemory({ points, duration: 60 });
  const apiLimiter = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: `${env.REDIS_KEY_PREFIX}rl:api`,
    points: env.API_RATE_LIMIT_PER_MINUTE,
    duration: 60,
    insuranceLimiter: insurance(env.API_RATE_LIMIT_PER_MINUTE),
  });
  const signInLimiter = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: `${env.REDIS_KEY_PREFIX}rl:signin`,
    points: 10,
    duration: 60,
    insuranceLimiter: insurance(10),
  });

  return {
    env,
    log,
    db,
    redis,
    io,
    tenants,
    tenantRepo,
    access: new Access(tenantRepo, env.SESSION_SECRET),
    orders,
    shifts,
    metrics,
    apiLimiter,
    signInLimiter,
    async health() {
      const [dbUp, redisUp] = await Promise.all([
        db.$queryRaw`SELECT 1`.then(() => true, () => false),
        redis.ping().then((r) => r === "PONG", () => false),
      ]);
      return {
        status: dbUp && redisUp ? "ok" : "degraded",
        db: dbUp ? "up" : "down",
        redis: redisUp ? "up" : "down",
        counter: issuer.source(),
      };
    },
    /** Quits Redis and disconnects Prisma; close the HTTP server and `io` first. */
    async close() {
      // io.close() made the Socket.IO adapter unsubscribe without waiting for the replies;
      // replies come in order, so a PING answered means those were answered too.
      await sub.ping().catch(() => {});
      counter.shutdown();
      await Promise.allSettled([redis.quit(), pub.quit(), sub.quit()]);
      await db.$disconnect();
    },
  };
}
