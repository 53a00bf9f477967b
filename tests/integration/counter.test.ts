/**
 * The number-issuing path on real Redis and PostgreSQL: uniqueness under concurrency,
 * recovery of a lost counter, business-day roll-over, forward-only days, shifts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { once } from "node:events";
import type { Redis } from "ioredis";
import { createCoreHarness } from "../support/core-harness";
import { testKeyPrefix } from "../support/app-server";
import { provisionTenants } from "../support/tenants";
import { uniqueSlug } from "../support/fixtures";
import { collectAll } from "../support/open-orders";
import type { Tenant } from "@/lib/core/tenants";
import { expiryJitterMs, MAX_SKIPPED_PER_FAULT } from "@/lib/core/numbering";
import { rewindTo } from "../support/counter-state";
import { localDate, movableClock, wallTime } from "../support/clock";
import { addDays, expiryFor } from "@/lib/core/business-day";

const databaseUrl = inject("databaseUrl");
const redisUrl = inject("redisUrl");

const ZONE = "Europe/Berlin"; // day start 04:00
const TODAY = localDate(ZONE);
const TOMORROW = localDate(ZONE, 1);

const HOUR_MS = 3_600_000;

/** When Redis will expire `key` (ms since the epoch, by Redis's clock). */
async function expiryOf(redis: Redis, key: string): Promise<number> {
  return Number(await redis.call("PEXPIRETIME", key));
}

/**
 * What Redis makes of an expiry a node asks for: kept within its own now + 12 h … + 7 days
 * (lua/includes/expiry.lua). Either bound moves with Redis's clock: allow a minute for it.
 */
async function clampedByRedis(redis: Redis, wanted: number): Promise<unknown> {
  const [s, us] = await redis.time();
  const now = Number(s) * 1000 + Math.floor(Number(us) / 1000);
  if (wanted < now + 12 * HOUR_MS + 60_000) return expect.toSatisfy((at: number) => Math.abs(at - (now + 12 * HOUR_MS)) < 60_000);
  if (wanted > now + 168 * HOUR_MS - 60_000) return expect.toSatisfy((at: number) => Math.abs(at - (now + 168 * HOUR_MS)) < 60_000);
  return wanted;
}

describe("issuing numbers", () => {
  const clock = movableClock(wallTime(ZONE, "13:00"));
  const h = createCoreHarness({ databaseUrl, redisUrl, keyPrefix: testKeyPrefix("counter"), clock });
  let tenant: Tenant;
  let other: Tenant;

  beforeAll(async () => {
    const created = await provisionTenants(databaseUrl, [
      { slug: "counter-one", name: "Counter One", timeZone: ZONE, dayStart: "04:00" },
      { slug: "counter-two", name: "Counter Two", timeZone: ZONE, dayStart: "04:00" },
    ]);
    tenant = (await h.tenants.findById(created["counter-one"]!.id))!;
    other = (await h.tenants.findById(created["counter-two"]!.id))!;
  });
  afterAll(() => h.close());

  it("gives 300 concurrent orders the numbers 1..300, each once, and stores them all", async () => {
    const results = await Promise.all(
      Array.from({ length: 300 }, () => h.orders.place(tenant, { items: [{ name: "Noodles", qty: 1 }] }, { channel: "kiosk", by: null })),
    );
    const numbers = results.map((r) => r.order.number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    expect(new Set(results.map((r) => r.order.shift))).toEqual(new Set([1]));
    expect(results.every((r) => r.order.businessDay === TODAY)).toBe(true);
    const stored = await h.db.order.count({ where: { tenantId: tenant.id } });
    expect(stored).toBe(300);
    expect(h.duplicates).toEqual([]);
  });

  it("keeps tenants apart: another tenant starts at 1", async () => {
    const { order } = await h.orders.place(other, {}, { channel: "kiosk", by: null });
    expect(order.number).toBe(1);
  });

  it("a counter lost from Redis (restart without persistence) continues above the durable ceiling, skipping at most 50", async () => {
    await h.redis.del(h.counter.key(tenant.id));
    const { order } = await h.orders.place(tenant, {}, { channel: "kiosk", by: null });
    expect(order.number).toBeGreaterThan(300);
    expect(order.number).toBeLessThanOrEqual(301 + MAX_SKIPPED_PER_FAULT);
    expect(order.shift).toBe(1);
  });

  it("a stale counter (a promoted replica that missed writes) is caught by the unique index and replaced transparently", async () => {
    const before = await h.orders.place(tenant, {}, { channel: "kiosk", by: null });
    // Turn the counter back by 2, as a replica that missed the last writes would be: its
    // next number is one already stored (the previous test's order).
    await rewindTo(h.redis, h.counter.key(tenant.id), before.order.number - 2);
    h.issuedFrom.length = 0;
    const { order } = await h.orders.place(tenant, {}, { channel: "kiosk", by: null });
    expect(order.number).toBeGreaterThan(before.order.number);
    expect(h.duplicates).toEqual(["counter-one"]);
    // The metrics hear of the refusal and of both numbers drawn for this one order.
    expect(h.uniqueViolations).toEqual(["number"]);
    expect(h.issuedFrom).toEqual(["redis", "redis"]);
    expect(h.errors).toHaveLength(1);
    // The stale block was abandoned: the next numbers are fresh too.
    const next = await h.orders.place(tenant, {}, { channel: "kiosk", by: null });
    expect(next.order.number).toBe(order.number + 1);
    expect(h.duplicates).toEqual(["counter-one"]);
  });

  it("block reservations asked for together (one SQL statement) get disjoint blocks, in the order asked", async () => {
    // A day long past, so that these ceilings touch nothing the other tests number.
    const day = addDays(TODAY, -40);
    const asked = [tenant, tenant, other, tenant, other].map((t) => h.ledger.reserve(t.id, day, 1, 40));
    const blocks = await Promise.all(asked);
    expect(blocks.map((b) => [b.lo, b.hi])).toEqual([
      [0, 40],
      [40, 80],
      [0, 40],
      [80, 120],
      [40, 80],
    ]);
    expect(blocks.every((b) => b.businessDay === day && b.shift === 1)).toBe(true);
  });

  it("a node whose clock lags never moves the tenant back to yesterday", async () => {
    await collectAll(h.db, tenant.id); // today's orders are collected: tomorrow's numbers skip none (decision 0027)
    clock.set(wallTime(ZONE, "04:30", 1)); // tomorrow's business day has begun
    const first = await h.orders.place(tenant, {}, { channel: "kiosk", by: null });
    expect(first.order).toMatchObject({ businessDay: TOMORROW, shift: 1, number: 1 });
    clock.set(wallTime(ZONE, "03:59", 1)); // this node thinks it is 03:59, still today's business day
    const lagging = await h.orders.place(tenant, {}, { channel: "kiosk", by: null });
    expect(lagging.order).toMatchObject({ businessDay: TOMORROW, shift: 1, number: 2 });
  });

  it("a new shift restarts at 1 (or the chosen first number) and is recorded with who and why", async () => {
    clock.set(wallTime(ZONE, "11:00", 1));
    await collectAll(h.db, tenant.id);
    const started = await h.shifts.start(tenant, { reason: "lunch" }, "Manager (staff)");
    expect(started).toMatchObject({ created: true, shift: { businessDay: TOMORROW, shift: 2, startedBy: "Manager (staff)", reason: "lunch" } });
    const a = await h.orders.place(tenant, {}, { channel: "kiosk", by: null });
    expect(a.order).toMatchObject({ shift: 2, number: 1 });

    const chosen = await h.shifts.start(tenant, { firstNumber: 100 }, "Manager (staff)");
    expect(chosen.shift.shift).toBe(3);
    const b = await h.orders.place(tenant, {}, { channel: "kiosk", by: null });
    expect(b.order).toMatchObject({ shift: 3, number: 100 });
  });

  it("a new shift that keeps open orders never hands out their numbers again, under concurrency (decision 0027)", async () => {
    const t = (await h.tenants.findById(
      (
        await provisionTenants(databaseUrl, [{ slug: uniqueSlug("counter-open"), name: "Open", timeZone: ZONE, dayStart: "04:00" }]).then(
          (m) => Object.values(m)[0]!,
        )
      ).id,
    ))!;
    const duplicatesBefore = h.duplicates.length;
    const first = await Promise.all(Array.from({ length: 12 }, () => h.orders.place(t, {}, { channel: "kiosk", by: null })));
    const byNumber = new Map(first.map((r) => [r.order.number, r.order]));
    for (const n of [3, 7]) {
      await h.orders.changeStatus(t, byNumber.get(n)!.id, { status: "READY" }, null);
      await h.orders.changeStatus(t, byNumber.get(n)!.id, { status: "COLLECTED" }, null);
    }
    await h.shifts.start(t, { openOrders: "keep" }, "Manager (staff)");
    const next = await Promise.all(Array.from({ length: 6 }, () => h.orders.place(t, {}, { channel: "counter", by: null })));
    // 1–12 but 3 and 7 are still open: the new shift takes 3, 7, then 13 …
    expect(next.map((r) => r.order.number).sort((a, b) => a - b)).toEqual([3, 7, 13, 14, 15, 16]);
    expect(next.every((r) => r.order.shift === 2)).toBe(true);
    const open = await h.db.order.findMany({ where: { tenantId: t.id, status: { in: ["PLACED", "READY"] }, clearedAt: null }, select: { number: true } });
    expect(open).toHaveLength(16);
    expect(new Set(open.map((o) => o.number)).size).toBe(open.length);
    expect(h.duplicates.slice(duplicatesBefore)).toEqual([]); // skipped as open, never taken for a stale counter
    // An Undo of shift 1's collected 3, now shown by shift 2's 3: a 409 that says why, nothing changed.
    const undo = await h.orders.changeStatus(t, byNumber.get(3)!.id, { status: "READY" }, null).catch((e: unknown) => e);
    expect(undo).toMatchObject({ code: "CONFLICT", reason: "numberReissued", details: { number: 3 } });
    expect((await h.orders.get(t, byNumber.get(3)!.id)).status).toBe("COLLECTED");
  });

  it("two managers pressing reset at once on the same shift start one shift", async () => {
    const [x, y] = await Promise.all([h.shifts.start(tenant, { ifCurrentShift: 3 }, "Manager A"), h.shifts.start(tenant, { ifCurrentShift: 3 }, "Manager B")]);
    expect([x.created, y.created].sort()).toEqual([false, true]);
    expect(x.shift.shift).toBe(4);
    expect(y.shift.shift).toBe(4);
    expect(await h.db.shift.count({ where: { tenantId: tenant.id, businessDay: new Date(`${TOMORROW}T00:00:00Z`) } })).toBe(3);
  });

  it("a lost counter is rebuilt in the current shift, not shift 1", async () => {
    await collectAll(h.db, tenant.id);
    const before = await h.orders.place(tenant, {}, { channel: "kiosk", by: null });
    expect(before.order).toMatchObject({ shift: 4, number: 1 });
    await h.redis.del(h.counter.key(tenant.id));
    const after = await h.orders.place(tenant, {}, { channel: "kiosk", by: null });
    expect(after.order.shift).toBe(4);
    expect(after.order.number).toBeGreaterThan(1);
    expect(after.order.number).toBeLessThanOrEqual(2 + MAX_SKIPPED_PER_FAULT);
  });

  it("sets the key's expiry in the same script, well after the business day ends", async () => {
    // Tomorrow's business day ends the day after at 04:00 in Berlin: the expiry the node asks
    // for is at least 12 h after that.
    const wanted = expiryFor(TOMORROW, expiryJitterMs(tenant.id));
    expect(wanted).toBeGreaterThan(wallTime(ZONE, "04:00", 2).getTime() + 12 * 3_600_000);
    // Redis keeps it within its own now + 12 h … + 7 days (in the year-ahead run the node's
    // clock is a year ahead of Redis's, so the cap applies).
    expect(await expiryOf(h.redis, h.counter.key(tenant.id))).toEqual(await clampedByRedis(h.redis, wanted));
  });

  it("a node whose clock is days behind or ahead of Redis's never sets an expiry in Redis's past, nor months ahead", async () => {
    const t = (await h.tenants.findById(
      (await provisionTenants(databaseUrl, [{ slug: "counter-skew", name: "Skew", timeZone: ZONE, dayStart: "04:00" }]))["counter-skew"]!.id,
    ))!;
    const skewed = movableClock(wallTime(ZONE, "13:00", -5));
    const s = createCoreHarness({ databaseUrl, redisUrl, keyPrefix: testKeyPrefix("counter-skew"), clock: skewed });
    try {
      if (s.redis.status !== "ready") await once(s.redis, "ready"); // a fresh client fails fast until connected
      const behind = [];
      for (let i = 0; i < 3; i++) behind.push((await s.orders.place(t, {}, { channel: "kiosk", by: null })).order.number);
      // Before the floor, the expiry lay in Redis's past: the key vanished on every write and
      // each order restored the counter above the ceiling (1, 41, 81 …).
      expect(behind).toEqual([1, 2, 3]);
      expect(s.issuedFrom).toEqual(["redis", "redis", "redis"]);
      expect(await expiryOf(s.redis, s.counter.key(t.id))).toEqual(await clampedByRedis(s.redis, expiryFor(localDate(ZONE, -5), expiryJitterMs(t.id))));

      await collectAll(s.db, t.id);
      skewed.set(wallTime(ZONE, "13:00", 9)); // now days ahead: a later business day starts
      const ahead = (await s.orders.place(t, {}, { channel: "kiosk", by: null })).order;
      expect(ahead).toMatchObject({ businessDay: localDate(ZONE, 9), number: 1 });
      expect(await expiryOf(s.redis, s.counter.key(t.id))).toEqual(await clampedByRedis(s.redis, expiryFor(localDate(ZONE, 9), expiryJitterMs(t.id))));
    } finally {
      await s.close();
    }
  });

  it("replays an idempotent order instead of issuing a second number, also under concurrency, without skipping numbers", async () => {
    const key = "till-7-order-42";
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        h.orders.place(tenant, { note: "no onions" }, { channel: "api", idempotencyKey: key, idempotencyScope: "api-key:till-7", by: null }),
      ),
    );
    expect(new Set(results.map((r) => r.order.id)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    // The retries waited for the first attempt instead of drawing numbers: no gap.
    const next = await h.orders.place(tenant, {}, { channel: "kiosk", by: null });
    expect(next.order.number).toBe(results[0]!.order.number + 1);
  });
});
