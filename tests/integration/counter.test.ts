/**
 * The number-issuing path on real Redis and PostgreSQL: uniqueness under concurrency,
 * recovery of a lost counter, business-day roll-over, forward-only days, shifts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { createCoreHarness } from "../support/core-harness";
import { testKeyPrefix } from "../support/app-server";
import { provisionTenants } from "../support/tenants";
import type { Tenant } from "@/lib/core/tenants";
import { MAX_SKIPPED_PER_FAULT } from "@/lib/core/numbering";
import { rewindTo } from "../support/counter-state";

const databaseUrl = inject("databaseUrl");
const redisUrl = inject("redisUrl");

/** A clock tests can move. */
function movableClock(iso: string) {
  let now = new Date(iso);
  return { now: () => now, set: (s: string) => (now = new Date(s)) };
}

describe("issuing numbers", () => {
  const clock = movableClock("2026-11-21T12:00:00Z"); // 13:00 in Berlin
  const h = createCoreHarness({ databaseUrl, redisUrl, keyPrefix: testKeyPrefix("counter"), clock });
  let tenant: Tenant;
  let other: Tenant;

  beforeAll(async () => {
    const created = await provisionTenants(databaseUrl, [
      { slug: "counter-one", name: "Counter One", timeZone: "Europe/Berlin", dayStart: "04:00" },
      { slug: "counter-two", name: "Counter Two", timeZone: "Europe/Berlin", dayStart: "04:00" },
    ]);
    tenant = (await h.tenants.findById(created["counter-one"]!.id))!;
    other = (await h.tenants.findById(created["counter-two"]!.id))!;
  });
  afterAll(() => h.close());

  it("gives 300 concurrent orders the numbers 1..300, each once, and stores them all", async () => {
    const results = await Promise.all(
      Array.from({ length: 300 }, () => h.orders.place(tenant, { items: [{ name: "Noodles", qty: 1 }] }, { channel: "kiosk" })),
    );
    const numbers = results.map((r) => r.order.number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    expect(new Set(results.map((r) => r.order.shift))).toEqual(new Set([1]));
    expect(results.every((r) => r.order.businessDay === "2026-11-21")).toBe(true);
    const stored = await h.db.order.count({ where: { tenantId: tenant.id } });
    expect(stored).toBe(300);
    expect(h.duplicates).toEqual([]);
  });

  it("keeps tenants apart: another tenant starts at 1", async () => {
    const { order } = await h.orders.place(other, {}, { channel: "kiosk" });
    expect(order.number).toBe(1);
  });

  it("a counter lost from Redis (restart without persistence) continues above the durable ceiling, skipping at most 50", async () => {
    await h.redis.del(h.counter.key(tenant.id));
    const { order } = await h.orders.place(tenant, {}, { channel: "kiosk" });
    expect(order.number).toBeGreaterThan(300);
    expect(order.number).toBeLessThanOrEqual(301 + MAX_SKIPPED_PER_FAULT);
    expect(order.shift).toBe(1);
  });

  it("a stale counter (a promoted replica that missed writes) is caught by the unique index and replaced transparently", async () => {
    const before = await h.orders.place(tenant, {}, { channel: "kiosk" });
    // Turn the counter back by 2, as a replica that missed the last writes would be: its
    // next number is one already stored (the previous test's order).
    await rewindTo(h.redis, h.counter.key(tenant.id), before.order.number - 2);
    h.issuedFrom.length = 0;
    const { order } = await h.orders.place(tenant, {}, { channel: "kiosk" });
    expect(order.number).toBeGreaterThan(before.order.number);
    expect(h.duplicates).toEqual(["counter-one"]);
    // The metrics hear of the refusal and of both numbers drawn for this one order.
    expect(h.uniqueViolations).toEqual(["number"]);
    expect(h.issuedFrom).toEqual(["redis", "redis"]);
    expect(h.errors).toHaveLength(1);
    // The stale block was abandoned: the next numbers are fresh too.
    const next = await h.orders.place(tenant, {}, { channel: "kiosk" });
    expect(next.order.number).toBe(order.number + 1);
    expect(h.duplicates).toEqual(["counter-one"]);
  });

  it("block reservations asked for together (one SQL statement) get disjoint blocks, in the order asked", async () => {
    // A day long past, so that these ceilings touch nothing the other tests number.
    const day = "2026-01-15";
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
    clock.set("2026-11-22T03:30:00Z"); // 04:30 Berlin: business day 22nd
    const first = await h.orders.place(tenant, {}, { channel: "kiosk" });
    expect(first.order).toMatchObject({ businessDay: "2026-11-22", shift: 1, number: 1 });
    clock.set("2026-11-22T02:59:00Z"); // this node thinks it is 03:59, still the 21st
    const lagging = await h.orders.place(tenant, {}, { channel: "kiosk" });
    expect(lagging.order).toMatchObject({ businessDay: "2026-11-22", shift: 1, number: 2 });
  });

  it("a new shift restarts at 1 (or the chosen first number) and is recorded with who and why", async () => {
    clock.set("2026-11-22T10:00:00Z");
    const started = await h.shifts.start(tenant, { reason: "lunch" }, "Manager (staff)");
    expect(started).toMatchObject({ created: true, shift: { businessDay: "2026-11-22", shift: 2, startedBy: "Manager (staff)", reason: "lunch" } });
    const a = await h.orders.place(tenant, {}, { channel: "kiosk" });
    expect(a.order).toMatchObject({ shift: 2, number: 1 });

    const chosen = await h.shifts.start(tenant, { firstNumber: 100 }, "Manager (staff)");
    expect(chosen.shift.shift).toBe(3);
    const b = await h.orders.place(tenant, {}, { channel: "kiosk" });
    expect(b.order).toMatchObject({ shift: 3, number: 100 });
  });

  it("two managers pressing reset at once on the same shift start one shift", async () => {
    const [x, y] = await Promise.all([h.shifts.start(tenant, { ifCurrentShift: 3 }, "Manager A"), h.shifts.start(tenant, { ifCurrentShift: 3 }, "Manager B")]);
    expect([x.created, y.created].sort()).toEqual([false, true]);
    expect(x.shift.shift).toBe(4);
    expect(y.shift.shift).toBe(4);
    expect(await h.db.shift.count({ where: { tenantId: tenant.id, businessDay: new Date("2026-11-22T00:00:00Z") } })).toBe(3);
  });

  it("a lost counter is rebuilt in the current shift, not shift 1", async () => {
    const before = await h.orders.place(tenant, {}, { channel: "kiosk" });
    expect(before.order).toMatchObject({ shift: 4, number: 1 });
    await h.redis.del(h.counter.key(tenant.id));
    const after = await h.orders.place(tenant, {}, { channel: "kiosk" });
    expect(after.order.shift).toBe(4);
    expect(after.order.number).toBeGreaterThan(1);
    expect(after.order.number).toBeLessThanOrEqual(2 + MAX_SKIPPED_PER_FAULT);
  });

  it("sets the key's expiry in the same script, well after the business day ends", async () => {
    const ttlMs = await h.redis.pttl(h.counter.key(tenant.id));
    // Business day 2026-11-22 ends 2026-11-23 04:00 Berlin = 03:00Z; expiry >= 12 h later.
    const expiresAt = Date.now() + ttlMs;
    expect(expiresAt).toBeGreaterThan(Date.parse("2026-11-23T15:00:00Z"));
    expect(expiresAt).toBeLessThan(Date.parse("2026-11-25T04:00:01Z"));
  });

  it("replays an idempotent order instead of issuing a second number, also under concurrency, without skipping numbers", async () => {
    const key = "till-7-order-42";
    const results = await Promise.all(Array.from({ length: 10 }, () => h.orders.place(tenant, { note: "no onions" }, { channel: "api", idempotencyKey: key })));
    expect(new Set(results.map((r) => r.order.id)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    // The retries waited for the first attempt instead of drawing numbers: no gap.
    const next = await h.orders.place(tenant, {}, { channel: "kiosk" });
    expect(next.order.number).toBe(results[0]!.order.number + 1);
  });
});
