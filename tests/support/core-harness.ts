/**
 * The number-issuing path wired on real Redis and real PostgreSQL, without HTTP: for
 * tests of the counter itself. The event publisher records what would be broadcast
 * (Socket.IO itself is tested in tests/integration/realtime.test.ts).
 */
import { PrismaAuditLog } from "@/lib/adapters/postgres/audit-log.server";
import type { Cluster, Redis } from "ioredis";
import { createRedis } from "@/lib/server/wiring/redis-clients.server";
import type { RedisNode } from "@/lib/server/env.server";
import { NumberIssuer } from "@/lib/core/numbering";
import type { BusinessDay } from "@/lib/core/business-day";
import { OrderService } from "@/lib/core/order-service";
import { ShiftService } from "@/lib/core/shift-service";
import type { EventPublisher, Block, Clock, CounterId, CounterLedger, IssuedNumber } from "@/lib/core/ports";
import { SeriesService } from "@/lib/core/series-service";
import { PrismaSeriesStore } from "@/lib/adapters/postgres/series-store.server";
import { RedisCounter, type BreakerOptions } from "@/lib/adapters/redis/counter.server";
import { RedisIdempotencyClaims } from "@/lib/adapters/redis/idempotency-claims.server";
import { defineScripts } from "@/lib/adapters/redis/scripts.server";
import { createPrisma } from "@/lib/adapters/postgres/prisma.server";
import { createLedgerPool, PgCounterLedger } from "@/lib/adapters/postgres/counter-ledger.server";
import { PrismaOrderRepository } from "@/lib/adapters/postgres/order-repository.server";
import { PrismaShiftRepository } from "@/lib/adapters/postgres/shift-repository.server";
import { PrismaTenantRepository } from "@/lib/adapters/postgres/tenant-repository.server";

export class RecordingPublisher implements EventPublisher {
  events: { type: string; tenant: string; payload: unknown }[] = [];
  orderCreated(t: { slug: string }, p: unknown) {
    this.events.push({ type: "order:created", tenant: t.slug, payload: p });
  }
  orderUpdated(t: { slug: string }, p: unknown) {
    this.events.push({ type: "order:updated", tenant: t.slug, payload: p });
  }
  orderCalled(t: { slug: string }, p: unknown) {
    this.events.push({ type: "order:called", tenant: t.slug, payload: p });
  }
  shiftStarted(t: { slug: string }, p: unknown) {
    this.events.push({ type: "shift:started", tenant: t.slug, payload: p });
  }
  settingsChanged(t: { slug: string }) {
    this.events.push({ type: "settings:changed", tenant: t.slug, payload: null });
  }
  menuChanged(t: { slug: string }) {
    this.events.push({ type: "menu:changed", tenant: t.slug, payload: null });
  }
  printersChanged(t: { id: string }) {
    this.events.push({ type: "printer:changed", tenant: t.id, payload: null });
  }
}

/** One block (lo, hi] the ledger handed out, or one number (hi) it issued directly (the fallback). */
export interface LedgerCall {
  tenantId: string;
  /** The series whose tickets these are; null for the default series' numbers. */
  seriesId: string | null;
  method: "reserve" | "reserveCurrent" | "issueDirect";
  lo: number;
  hi: number;
}

const who = (c: CounterId) => (typeof c === "string" ? { tenantId: c, seriesId: null } : { tenantId: c.tenantId, seriesId: c.seriesId });

/** The real ledger, recording every block and number it hands out (what a test can account for). */
export class RecordingLedger implements CounterLedger {
  readonly calls: LedgerCall[] = [];
  constructor(private readonly inner: CounterLedger) {}

  async reserve(counter: CounterId, day: BusinessDay, shift: number, size: number, floor?: number): Promise<Block> {
    const b = await this.inner.reserve(counter, day, shift, size, floor);
    this.calls.push({ ...who(counter), method: "reserve", lo: b.lo, hi: b.hi });
    return b;
  }

  async reserveCurrent(counter: CounterId, day: BusinessDay, size: number): Promise<Block> {
    const b = await this.inner.reserveCurrent(counter, day, size);
    this.calls.push({ ...who(counter), method: "reserveCurrent", lo: b.lo, hi: b.hi });
    return b;
  }

  async issueDirect(counter: CounterId, day: BusinessDay): Promise<IssuedNumber> {
    const n = await this.inner.issueDirect(counter, day);
    this.calls.push({ ...who(counter), method: "issueDirect", lo: n.number - 1, hi: n.number });
    return n;
  }

  highestStored(counter: CounterId, day: BusinessDay, shift: number): Promise<number> {
    return this.inner.highestStored(counter, day, shift);
  }
}

/**
 * `redisUrl` is one Redis; `clusterNodes` (seed nodes of a Redis Cluster) wins over it,
 * as REDIS_CLUSTER_NODES does over REDIS_URL in the app: `redis` is then an ioredis
 * Cluster (`createCoreHarness<Cluster>` to type it so).
 *
 * `breaker` defaults to a generous timeout: these tests are about which numbers are
 * issued, and on a loaded machine a 300 ms hiccup would count as a Redis fault (the number
 * then legitimately comes from the database, out of sequence).
 */
export function createCoreHarness<R extends Redis | Cluster = Redis>(opts: {
  databaseUrl: string;
  redisUrl?: string;
  clusterNodes?: readonly RedisNode[];
  keyPrefix: string;
  clock?: Clock;
  breaker?: BreakerOptions;
}) {
  const silent = { info: () => {}, warn: () => {}, error: () => {} };
  const target = opts.clusterNodes?.length ? opts.clusterNodes : opts.redisUrl;
  if (target === undefined) throw new Error("createCoreHarness: give redisUrl or clusterNodes");
  // The same client settings as the app's counter (fail fast while disconnected).
  const redis = createRedis(target, silent as never, "harness", { failFast: true }) as R;
  defineScripts(redis);
  const db = createPrisma(opts.databaseUrl, { max: 10 });
  const counter = new RedisCounter(redis, opts.keyPrefix, silent, opts.breaker ?? { timeoutMs: 3_000, resetMs: 1_000 });
  const shiftRepo = new PrismaShiftRepository(db);
  const clock = opts.clock ?? { now: () => new Date() };
  const ledgerPool = createLedgerPool(opts.databaseUrl, silent); // as in the app: its own pool
  const ledger = new RecordingLedger(new PgCounterLedger(ledgerPool));
  // Waiting longer for a block than a cashier would: on a loaded test machine a slow
  // reservation must not turn into a database fallback (out-of-sequence numbers).
  const issuer = new NumberIssuer(counter, ledger, clock, silent, 10_000);
  const events = new RecordingPublisher();
  const duplicates: string[] = [];
  /** What the core reported to the metrics: where each number came from, each unique-index refusal. */
  const issuedFrom: string[] = [];
  const uniqueViolations: string[] = [];
  const errors: unknown[] = [];
  const orderRepo = new PrismaOrderRepository(db);
  const orders = new OrderService({
    issuer,
    claims: new RedisIdempotencyClaims(redis, opts.keyPrefix, () => counter.available()),
    orders: orderRepo,
    shifts: shiftRepo,
    events,
    metrics: {
      duplicateNumber: (t) => duplicates.push(t.slug),
      numberIssued: (source) => issuedFrom.push(source),
      orderPlaced: () => {},
      orderStatusChanged: () => {},
      uniqueViolation: (index) => uniqueViolations.push(index),
    },
    log: { info: () => {}, warn: () => {}, error: (o) => errors.push(o) },
    clock,
    audit: new PrismaAuditLog(db),
  });
  const shifts = new ShiftService({ issuer, counter, shifts: shiftRepo, orders: orderRepo, events, audit: new PrismaAuditLog(db), log: silent, clock });
  const tenants = new PrismaTenantRepository(db);
  const invalidated: string[] = [];
  const series = new SeriesService({ store: new PrismaSeriesStore(db), invalidate: { tenantChanged: async (slug) => void invalidated.push(slug) }, events });
  return {
    series,
    redis,
    db,
    counter,
    issuer,
    ledger,
    orders,
    shifts,
    tenants,
    events,
    duplicates,
    issuedFrom,
    uniqueViolations,
    errors,
    async close() {
      counter.shutdown();
      redis.disconnect();
      await Promise.all([db.$disconnect(), ledgerPool.end()]);
    },
  };
}
