/**
 * Numbers from PostgreSQL while Redis is unreachable, and back, on real parts: one node
 * whose Redis is a port where nothing listens (unreachable, as after a crash or a
 * partition) and one node with the real Redis, on the same database and tenant.
 */
import { collectAll } from "../support/open-orders";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { createCoreHarness } from "../support/core-harness";
import { testKeyPrefix } from "../support/app-server";
import { freePort } from "../support/ports";
import { provisionTenants } from "../support/tenants";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { MAX_SKIPPED_PER_FAULT } from "@/lib/core/numbering";
import type { Tenant } from "@/lib/core/tenants";

const databaseUrl = inject("databaseUrl");
const redisUrl = inject("redisUrl");

/** Numbers of one (day, shift) stored for a tenant, ascending. */
async function stored(h: ReturnType<typeof createCoreHarness>, tenantId: string, shift: number) {
  const rows = await h.db.order.findMany({ where: { tenantId, shift }, select: { number: true, businessDay: true }, orderBy: { number: "asc" } });
  return rows.map((r) => r.number);
}

function expectUnique(numbers: number[]) {
  expect(new Set(numbers).size).toBe(numbers.length);
}

describe("Redis unreachable on one node, reachable on another", () => {
  const keyPrefix = testKeyPrefix("fallback");
  const live = createCoreHarness({ databaseUrl, redisUrl, keyPrefix });
  let dead: ReturnType<typeof createCoreHarness>;
  let tenant: Tenant;

  beforeAll(async () => {
    dead = createCoreHarness({ databaseUrl, redisUrl: `redis://127.0.0.1:${await freePort()}`, keyPrefix });
    const slug = uniqueSlug("fallback");
    const t = await provisionTenants(databaseUrl, [stableDaySpec(slug)]);
    tenant = (await live.tenants.findById(t[slug]!.id))!;
  });
  afterAll(async () => {
    await live.close();
    await dead.close();
  });

  it("takes numbers from PostgreSQL above every block Redis holds, and reports it", async () => {
    const first = [];
    for (let i = 0; i < 5; i++) first.push((await live.orders.place(tenant, {}, { channel: "kiosk", by: null })).order.number);
    expect(first).toEqual([1, 2, 3, 4, 5]);
    expect(live.issuer.source()).toBe("redis");

    const fromDb = [];
    for (let i = 0; i < 10; i++) fromDb.push((await dead.orders.place(tenant, {}, { channel: "kiosk", by: null })).order.number);
    // Redis's block is 1..40: the database continues above it, one by one.
    expect(fromDb).toEqual([41, 42, 43, 44, 45, 46, 47, 48, 49, 50]);
    expect(dead.issuer.source()).toBe("database");
  });

  it("a Redis that comes back with its old block goes on in that block: no collision with the database's numbers", async () => {
    const again = [];
    for (let i = 0; i < 5; i++) again.push((await live.orders.place(tenant, {}, { channel: "kiosk", by: null })).order.number);
    expect(again).toEqual([6, 7, 8, 9, 10]);
    expectUnique(await stored(live, tenant.id, 1));
  });

  it("200 concurrent orders split between the two nodes never collide", async () => {
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 ? live : dead).orders.place(tenant, {}, { channel: "kiosk", by: null })));
    expect(results).toHaveLength(200);
    const numbers = await stored(live, tenant.id, 1);
    expect(numbers).toHaveLength(220);
    expectUnique(numbers);
    expect(live.duplicates).toEqual([]);
    expect(dead.duplicates).toEqual([]);
  });

  it("a shift started on the node without Redis starts at 1 there, and the other node follows within one block", async () => {
    await collectAll(dead.db, tenant.id); // a clear floor: shift 2 restarts at 1 (open numbers are skipped, decision 0027)
    const started = await dead.shifts.start(tenant, { reason: "Redis down" }, "Manager (staff)");
    expect(started.shift.shift).toBe(2);
    const a = await dead.orders.place(tenant, {}, { channel: "kiosk", by: null });
    expect(a.order).toMatchObject({ shift: 2, number: 1 });

    // The node with Redis still numbers shift 1 until its block is used up, then moves on.
    const seen: { shift: number; number: number }[] = [];
    for (let i = 0; i < 60; i++) {
      const { order } = await live.orders.place(tenant, {}, { channel: "kiosk", by: null });
      seen.push({ shift: order.shift, number: order.number });
    }
    const stillOld = seen.filter((o) => o.shift === 1).length;
    expect(stillOld).toBeLessThanOrEqual(MAX_SKIPPED_PER_FAULT);
    expect(seen.at(-1)!.shift).toBe(2);
    expectUnique(await stored(live, tenant.id, 1));
    expectUnique(await stored(live, tenant.id, 2));
  });
});
