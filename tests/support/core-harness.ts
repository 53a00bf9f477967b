/**
 * The number-issuing path wired on real Redis and real PostgreSQL, without HTTP: for
 * tests of the counter itself. The event publisher records what would be broadcast
 * (Socket.IO itself is tested in tests/integration/realtime.test.ts).
 */
import { createRedis } from "@/lib/server/app.server";
import { NumberIssuer, type Clock } from "@/lib/core/numbering";
import { OrderService } from "@/lib/core/order-service";
import { ShiftService } from "@/lib/core/shift-service";
import type { EventPublisher } from "@/lib/core/ports";
import { RedisCounter } from "@/lib/adapters/redis/counter.server";
import { defineScripts } from "@/lib/adapters/redis/scripts.server";
import { createPrisma } from "@/lib/adapters/postgres/prisma.server";
import {
  PrismaCounterLedger,
  PrismaOrderRepository,
  PrismaShiftRepository,
  PrismaTenantRepository,
} from "@/lib/adapters/postgres/repositories.server";

export class RecordingPublisher implements EventPublisher {
  events: { type: string; tenant: string; payload: unknown }[] = [];
  orderCreated(t: { slug: string }, p: unknown) {
    this.events.push({ type: "order:created", tenant: t.slug, payload: p });
  }
  orderUpdated(t: { slug: string }, p: unknown) {
    this.events.push({ type: "order:updated", tenant: t.slug, payload: p });
  }
  shiftStarted(t: { slug: string }, p: unknown) {
    this.events.push({ type: "shift:started", tenant: t.slug, payload: p });
  }
}

export function createCoreHarness(opts: { databaseUrl: string; redisUrl: string; keyPrefix: string; clock?: Clock }) {
  const silent = { info: () => {}, warn: () => {}, error: () => {} };
  // The same client settings as the app's counter (fail fast while disconnected).
  const redis = createRedis(opts.redisUrl, silent as never, "harness", { failFast: true });
  defineScripts(redis);
  const db = createPrisma(opts.databaseUrl, { max: 10 });
  const counter = new RedisCounter(redis, opts.keyPrefix, silent);
  const shiftRepo = new PrismaShiftRepository(db);
  const clock = opts.clock ?? { now: () => new Date() };
  const issuer = new NumberIssuer(counter, new PrismaCounterLedger(db), clock);
  const events = new RecordingPublisher();
  const duplicates: string[] = [];
  const errors: unknown[] = [];
  const orders = new OrderService({
    issuer,
    orders: new PrismaOrderRepository(db),
    shifts: shiftRepo,
    events,
    metrics: { duplicateNumber: (t) => duplicates.push(t.slug) },
    log: { info: () => {}, warn: () => {}, error: (o) => errors.push(o) },
    clock,
  });
  const shifts = new ShiftService({ issuer, counter, shifts: shiftRepo, events, log: silent });
  const tenants = new PrismaTenantRepository(db);
  return {
    redis,
    db,
    counter,
    issuer,
    orders,
    shifts,
    tenants,
    events,
    duplicates,
    errors,
    async close() {
      counter.shutdown();
      redis.disconnect();
      await db.$disconnect();
    },
  };
}
