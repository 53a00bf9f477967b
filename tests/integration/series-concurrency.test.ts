/**
 * A rush on a small series (issue #21, decision 0027), on real Redis and PostgreSQL: 200
 * orders at once into R1–R50 while the kitchen collects the first 30 it is given. Every
 * answer is an order with a number no open order shows, or SERIES_FULL (nothing stored);
 * the database never holds two open orders with one number nor more than 50 open (sampled
 * in consistent snapshots while the rush runs, and at the end); a collected number may be
 * handed out again, so between 50 and 50 + 30 orders are taken.
 */
import { afterAll, describe, expect, inject, it } from "vitest";
import { createCoreHarness } from "../support/core-harness";
import { testKeyPrefix } from "../support/app-server";
import { toTenant } from "@/lib/adapters/postgres/rows.server";
import { AppError } from "@/lib/core/errors";
import type { Order } from "@/lib/core/orders";

const databaseUrl = inject("databaseUrl");
const redisUrl = inject("redisUrl");

const ORDERS = 200;
const SIZE = 50;
const COLLECTED = 30;

describe("a rush on a series of 50 numbers", () => {
  const keyPrefix = testKeyPrefix("series-rush");
  const h = createCoreHarness({ databaseUrl, redisUrl, keyPrefix });
  // The kitchen is another node: its own connections, not queued behind the rush's.
  const kitchen = createCoreHarness({ databaseUrl, redisUrl, keyPrefix });
  afterAll(async () => {
    await h.close();
    await kitchen.close();
  });

  it(`${ORDERS} orders at once while ${COLLECTED} are collected: free numbers or SERIES_FULL, never one number open twice`, async () => {
    const row = await h.db.tenant.create({
      data: {
        slug: `series-rush-${process.pid}-${Date.now()}`,
        name: "Series rush",
        timeZone: "UTC",
        dayStartMinutes: ((new Date().getUTCHours() + 12) % 24) * 60,
      },
    });
    await h.series.create(toTenant(row), { name: "Rush", prefix: "R", first: 1, last: SIZE }, "Manager (test)");
    const tenant = (await h.tenants.findById(row.id))!;

    // The floor, in consistent snapshots, for as long as the rush lasts.
    let rushing = true;
    const snapshots: { open: number; shared: string[] }[] = [];
    const watch = (async () => {
      while (rushing) {
        const open = await kitchen.db.order.findMany({
          where: { tenantId: tenant.id, status: { in: ["PLACED", "READY"] }, clearedAt: null },
          select: { prefix: true, number: true },
        });
        const seen = new Set<string>();
        const shared = open.map((o) => `${o.prefix}${o.number}`).filter((d) => seen.size === seen.add(d).size);
        snapshots.push({ open: open.length, shared });
      }
    })();

    const collecting: Promise<Order>[] = [];
    const collect = async (o: Order) => {
      await kitchen.orders.changeStatus(tenant, o.id, { status: "READY" }, null);
      return kitchen.orders.changeStatus(tenant, o.id, { status: "COLLECTED" }, null);
    };
    const answers = await Promise.all(
      Array.from({ length: ORDERS }, (_, i) =>
        h.orders.place(tenant, { items: [{ name: `Rush ${i}`, qty: 1 }], series: "Rush" }, { channel: "counter", by: null }).then(
          ({ order }) => {
            // The kitchen hands out the first orders it gets while the others are still being taken.
            if (collecting.length < COLLECTED) collecting.push(collect(order));
            return order;
          },
          (e: unknown) => e,
        ),
      ),
    );
    const collected = await Promise.all(collecting);
    rushing = false;
    await watch;

    // Every answer: an order of the series with a number in its range, or SERIES_FULL.
    const taken = answers.filter((a): a is Order => !(a instanceof Error));
    const refused = answers.filter((a) => a instanceof Error);
    for (const e of refused) {
      expect(e).toBeInstanceOf(AppError);
      expect(e).toMatchObject({ code: "SERIES_FULL", httpStatus: 409 });
    }
    for (const o of taken) {
      expect(o).toMatchObject({ prefix: "R", seriesName: "Rush", status: "PLACED" });
      expect(o.number).toBeGreaterThanOrEqual(1);
      expect(o.number).toBeLessThanOrEqual(SIZE);
    }
    expect(collected).toHaveLength(COLLECTED);
    expect(collected.every((o) => o.status === "COLLECTED")).toBe(true);
    // Tickets 1–50 show R1–R50 with nothing open before them: all taken. After that only a
    // collected number can be handed out again.
    expect(taken.length).toBeGreaterThanOrEqual(SIZE);
    expect(taken.length).toBeLessThanOrEqual(SIZE + COLLECTED);
    expect(refused.length).toBe(ORDERS - taken.length);

    // What PostgreSQL holds: the orders taken, and nothing for a refusal.
    const stored = await h.db.order.findMany({ where: { tenantId: tenant.id }, select: { id: true, number: true, prefix: true, status: true, ticket: true } });
    expect(new Set(stored.map((o) => o.id))).toEqual(new Set(taken.map((o) => o.id)));
    const open = stored.filter((o) => o.status === "PLACED" || o.status === "READY");
    expect(open).toHaveLength(taken.length - COLLECTED);
    expect(open.length).toBeLessThanOrEqual(SIZE);
    expect(new Set(open.map((o) => o.number)).size).toBe(open.length);
    // A number given twice: every holder but the last was collected first (the index let it go round).
    const byNumber = new Map<number, typeof stored>();
    for (const o of stored) byNumber.set(o.number, [...(byNumber.get(o.number) ?? []), o]);
    for (const [n, holders] of byNumber) {
      expect(holders.filter((o) => o.status !== "COLLECTED").length, `R${n}`).toBeLessThanOrEqual(1);
    }
    expect(byNumber.size).toBe(SIZE);
    const reissued = taken.length - SIZE;
    // The floor never held one number twice, nor more than the series' 50.
    expect(snapshots.length).toBeGreaterThan(0);
    expect(snapshots.filter((s) => s.shared.length > 0)).toEqual([]);
    expect(Math.max(...snapshots.map((s) => s.open))).toBeLessThanOrEqual(SIZE);
    // The counter never handed out a ticket already stored.
    expect(h.duplicates).toEqual([]);
    console.log(
      `  rush: ${taken.length} taken (${reissued} numbers handed out again after a collect), ${refused.length} SERIES_FULL, ${snapshots.length} snapshots of the floor, most open at once ${Math.max(...snapshots.map((s) => s.open))}`,
    );
  });
});
