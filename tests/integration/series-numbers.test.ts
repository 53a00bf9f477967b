/**
 * Number series on real Redis and PostgreSQL (decision 0027): an order's series, its
 * prefixed number, wrap-around past open numbers, SERIES_FULL spending nothing, and a new
 * shift restarting every series at its first number.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { createCoreHarness } from "../support/core-harness";
import { testKeyPrefix } from "../support/app-server";
import { provisionTenants } from "../support/tenants";
import { AppError } from "@/lib/core/errors";
import { orderJson } from "@/lib/core/order-json";
import type { Order } from "@/lib/core/orders";
import type { Tenant } from "@/lib/core/tenants";

const databaseUrl = inject("databaseUrl");
const redisUrl = inject("redisUrl");

async function refusal(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
}

describe("number series", () => {
  const h = createCoreHarness({ databaseUrl, redisUrl, keyPrefix: testKeyPrefix("series") });
  const ids: Record<string, string> = {};
  const names = ["series-basic", "series-wrap", "series-shift"] as const;

  beforeAll(async () => {
    const made = await provisionTenants(
      databaseUrl,
      names.map((slug) => ({ slug, name: slug, timeZone: "UTC", dayStart: "00:00" })),
    );
    for (const slug of names) ids[slug] = made[slug]!.id;
  });
  afterAll(() => h.close());

  /** The tenant as the app reads it: with its series. */
  const tenant = async (slug: string): Promise<Tenant> => (await h.tenants.findById(ids[slug]!))!;
  const place = async (t: Tenant, body: Record<string, unknown> = {}): Promise<Order> =>
    (await h.orders.place(t, { items: [{ name: "Tea", qty: 1 }], ...body }, { channel: "counter", by: null })).order;
  const collect = async (t: Tenant, o: Order) => {
    await h.orders.changeStatus(t, o.id, { status: "READY" }, null);
    await h.orders.changeStatus(t, o.id, { status: "COLLECTED" }, null);
  };
  const stored = async (tenantId: string) => h.db.order.count({ where: { tenantId } });

  it("takes the series an order names, else its channel's, else the default; shows the prefix", async () => {
    const manager = "Manager (test)";
    let t = await tenant("series-basic");
    await h.series.create(t, { name: "Kiosk", prefix: "k", first: 1, last: 99, channels: ["kiosk"] }, manager);
    await h.series.create(t, { name: "Delivery", prefix: "D", first: 1, last: 99, channels: ["delivery"] }, manager);
    t = await tenant("series-basic");
    const counter = await place(t);
    const kiosk = await place(t, { channel: "kiosk" });
    const delivery = await place(t, { channel: "delivery" });
    const named = await place(t, { series: "kiosk", channel: "kiosk" });
    expect([counter, kiosk, delivery, named].map((o) => orderJson(o, t).display)).toEqual(["1", "K1", "D1", "K2"]);
    expect(orderJson(named, t)).toMatchObject({ series: "Kiosk", prefix: "K", number: 2 });
    expect(orderJson(counter, t)).toMatchObject({ series: "Default", prefix: "", number: 1 });

    const before = await stored(t.id);
    const e = await refusal(place(t, { series: "Nope" }));
    expect(e.code).toBe("BAD_INPUT");
    expect(await stored(t.id)).toBe(before);

    // A retry with the same key names the same series (any case); another series is another order.
    const keyed = (series: string) =>
      h.orders.place(
        t,
        { items: [{ name: "Tea", qty: 1 }], series },
        { channel: "kiosk", idempotencyKey: "series-1", idempotencyScope: "api-key:test", by: null },
      );
    const placed = await keyed("Kiosk");
    const replayed = await keyed("KIOSK");
    expect([placed.created, replayed.created, replayed.order.id]).toEqual([true, false, placed.order.id]);
    expect((await refusal(keyed("Default"))).code).toBe("CONFLICT");
  });

  it("comes round after last, skipping numbers still open; a full series is a 409 that spends nothing", async () => {
    let t = await tenant("series-wrap");
    await h.series.create(t, { name: "Short", prefix: "S", first: 1, last: 3, channels: ["kiosk"] }, "Manager (test)");
    t = await tenant("series-wrap");
    const [one, two, three] = [await place(t, { channel: "kiosk" }), await place(t, { channel: "kiosk" }), await place(t, { channel: "kiosk" })];
    expect([one, two, three].map((o) => o.number)).toEqual([1, 2, 3]);
    await collect(t, two);
    // S1 and S3 still open: the next one is S2, the only free number.
    expect((await place(t, { channel: "kiosk" })).number).toBe(2);

    const before = await stored(t.id);
    const e = await refusal(place(t, { channel: "kiosk" }));
    expect(e.code).toBe("SERIES_FULL");
    expect(e.message).toContain("S1–S3");
    expect(await stored(t.id)).toBe(before);

    await collect(t, three);
    expect((await place(t, { channel: "kiosk" })).number).toBe(3);
  });

  it("restarts every series at its first number at a new shift, past numbers still open", async () => {
    let t = await tenant("series-shift");
    await h.series.create(t, { name: "Kiosk", prefix: "K", first: 5, last: 50, channels: ["kiosk"] }, "Manager (test)");
    t = await tenant("series-shift");
    const first = await place(t, { channel: "kiosk" });
    const second = await place(t, { channel: "kiosk" });
    expect([first.number, second.number]).toEqual([5, 6]);
    await collect(t, second);
    await h.shifts.start(t, {}, "Manager (test)");
    const next = await place(t, { channel: "kiosk" });
    // K5 is still open from shift 1: shift 2 starts at K6.
    expect([next.shift, next.number]).toEqual([2, 6]);
  });
});
