/**
 * The floor on real Redis and PostgreSQL: what the kitchen lists (open orders of every
 * shift, the last collected ones), the typed-number shortcut, Undo from collected,
 * calling a number again, and what a new shift does with orders still open.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { inject } from "vitest";
import { createCoreHarness } from "../support/core-harness";
import { testKeyPrefix } from "../support/app-server";
import { provisionTenants } from "../support/tenants";
import { AppError } from "@/lib/core/errors";
import { FORGOTTEN_AFTER_HOURS, RECENTLY_COLLECTED } from "@/lib/core/order-service";
import { earlierThan } from "@/lib/core/board";
import type { Order } from "@/lib/core/orders";
import type { Tenant } from "@/lib/core/tenants";
import { localDate, movableClock, wallTime } from "../support/clock";
import { PrismaOrderRepository } from "@/lib/adapters/postgres/order-repository.server";

const databaseUrl = inject("databaseUrl");
const redisUrl = inject("redisUrl");

const ZONE = "Europe/Berlin"; // day start 04:00
const TODAY = localDate(ZONE);

/** The AppError a promise rejects with (fails the test if it resolves or throws something else). */
async function appError(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
}

const ids = (orders: readonly Order[]) => orders.map((o) => o.id);

describe("the floor", () => {
  // Well inside the business day; each step a distinct instant, so "most recent first" is well defined.
  const clock = movableClock(wallTime(ZONE, "12:00"));
  const h = createCoreHarness({ databaseUrl, redisUrl, keyPrefix: testKeyPrefix("floor"), clock });
  const tenants: Record<string, Tenant> = {};
  const names = ["floor-list", "floor-typed", "floor-series", "floor-undo", "floor-call", "floor-clear", "floor-keep"] as const;

  beforeAll(async () => {
    const made = await provisionTenants(
      databaseUrl,
      names.map((slug) => ({ slug, name: slug, timeZone: ZONE, dayStart: "04:00" })),
    );
    for (const slug of names) tenants[slug] = (await h.tenants.findById(made[slug]!.id))!;
  });
  afterAll(() => h.close());

  const place = async (t: Tenant): Promise<Order> => {
    clock.tick();
    return (await h.orders.place(t, { items: [{ name: "Noodles", qty: 1 }] }, { channel: "kiosk", by: null })).order;
  };
  const move = (t: Tenant, o: Order, status: string) => {
    clock.tick();
    return h.orders.changeStatus(t, o.id, { status }, null);
  };
  const newShift = (t: Tenant, openOrders: "keep" | "clear" = "keep") => h.shifts.start(t, { openOrders }, "Manager (test)");

  it("lists the open orders of every shift, oldest first, and the last 20 collected, most recent first", async () => {
    const t = tenants["floor-list"]!;
    const early = [await place(t), await place(t)];
    await move(t, early[1]!, "READY");
    await newShift(t);
    const late = [await place(t), await place(t)];
    // Shift 2 restarts at 1, past the numbers shift 1 still holds open (decision 0027).
    expect(late.map((o) => [o.shift, o.number])).toEqual([
      [2, 3],
      [2, 4],
    ]);

    const collected: Order[] = [];
    for (let i = 0; i < RECENTLY_COLLECTED + 1; i++) {
      const o = await place(t);
      await move(t, o, "READY");
      collected.push(await move(t, o, "COLLECTED"));
    }
    const cancelled = await place(t);
    await move(t, cancelled, "CANCELLED");

    const floor = await h.orders.floor(t);
    expect(floor.shift).toBe(2);
    expect(floor.businessDay).toBe(TODAY);
    expect(ids(floor.open)).toEqual(ids([...early, ...late]));
    expect(floor.open.map((o) => o.status)).toEqual(["PLACED", "READY", "PLACED", "PLACED"]);
    expect(floor.recentlyCollected).toHaveLength(20);
    expect(ids(floor.recentlyCollected)).toEqual(ids(collected.slice(1).reverse()));
  });

  it("a typed number moves the open order that shows it, whatever its shift; two open twins (from before decision 0027) are ambiguous", async () => {
    const t = tenants["floor-typed"]!;
    const s1 = [await place(t), await place(t), await place(t)]; // shift 1: 1, 2, 3
    await newShift(t);
    const s2 = [await place(t), await place(t)]; // shift 2: 4, 5 (1–3 are still open)
    expect(s2.map((o) => o.number)).toEqual([4, 5]);

    const first = await h.orders.advanceByNumber(t, { number: 1 }, null);
    expect([first.id, first.status]).toEqual([s1[0]!.id, "READY"]);
    const again = await h.orders.advanceByNumber(t, { number: "1" }, null);
    expect([again.id, again.status]).toEqual([s1[0]!.id, "COLLECTED"]);
    expect((await h.orders.advanceByNumber(t, { number: 4 }, null)).id).toBe(s2[0]!.id);

    const unknown = await appError(h.orders.advanceByNumber(t, { number: 999 }, null));
    expect(unknown.code).toBe("NOT_FOUND");
    expect(unknown).toMatchObject({ reason: "noOpenOrder", details: { number: 999 } });

    // A twin an old release made before the open-number index (the migration marks it
    // sharedOpenNumber): typing 2 is ambiguous, and the screen says so.
    const twin = await h.db.order.create({
      data: { tenantId: t.id, businessDay: new Date(`${TODAY}T00:00:00Z`), shift: 2, number: 2, channel: "kiosk", sharedOpenNumber: true },
    });
    await newShift(t);
    const several = await appError(h.orders.advanceByNumber(t, { number: 2 }, null));
    expect(several.code).toBe("CONFLICT");
    expect(several).toMatchObject({ reason: "severalOpen", details: { number: 2, display: "2", shifts: [2, 1] } });
    // Each twin is listed, newest shift first, so the screen can offer both.
    expect((several.details as { candidates: { id: string }[] }).candidates.map((c) => c.id)).toEqual([twin.id, s1[1]!.id]);
    const stillPlaced = await Promise.all([h.orders.get(t, s1[1]!.id), h.orders.get(t, twin.id)]);
    expect(stillPlaced.map((o) => o.status)).toEqual(["PLACED", "PLACED"]);

    for (const bad of [0, "abc", "", -3, 1.5, undefined]) {
      expect((await appError(h.orders.advanceByNumber(t, { number: bad }, null))).code, `number ${String(bad)}`).toBe("BAD_INPUT");
    }
  });

  it("a typed number with series: K12 and k12 name the kiosk's, 12 the one without letters, 12 that only lettered ones show is a 409 listing them, unknown letters are a typo", async () => {
    let t = tenants["floor-series"]!;
    // Kiosk K1–K99 and delivery D1–D99 beside the default numbers (decision 0027).
    await h.series.create(t, { name: "Kiosk", prefix: "K", first: 1, last: 99, channels: ["kiosk"] }, "Manager (test)");
    await h.series.create(t, { name: "Delivery", prefix: "D", first: 1, last: 99, channels: ["delivery"] }, "Manager (test)");
    t = (await h.tenants.findById(t.id))!;
    const placeAt = async (channel: string) => {
      clock.tick();
      return (await h.orders.place(t, { items: [{ name: "Noodles", qty: 1 }] }, { channel, by: null })).order;
    };
    const [counter1, kiosk1, kiosk2, delivery1] = [await placeAt("counter"), await placeAt("kiosk"), await placeAt("kiosk"), await placeAt("delivery")];
    expect([counter1, kiosk1, kiosk2, delivery1].map((o) => `${o.prefix}${o.number}`)).toEqual(["1", "K1", "K2", "D1"]);

    // The letters say which, in either case; the order moves one step.
    expect(await h.orders.advanceByNumber(t, { number: "K2" }, null)).toMatchObject({ id: kiosk2.id, status: "READY" });
    expect(await h.orders.advanceByNumber(t, { number: "k2" }, null)).toMatchObject({ id: kiosk2.id, status: "COLLECTED" });
    expect(await h.orders.advanceByNumber(t, { number: " d1 " }, null)).toMatchObject({ id: delivery1.id, status: "READY" });

    // 1 is shown by three open orders: digits alone mean the one without letters.
    expect(await h.orders.advanceByNumber(t, { number: "1" }, null)).toMatchObject({ id: counter1.id, status: "READY" });
    expect(await h.orders.advanceByNumber(t, { number: 1 }, null)).toMatchObject({ id: counter1.id, status: "COLLECTED" });

    // Now only K1 and D1 show 1: nothing moves, the 409 lists each as the screens show it.
    const several = await appError(h.orders.advanceByNumber(t, { number: "1" }, null));
    expect(several.code).toBe("CONFLICT");
    expect(several).toMatchObject({ reason: "severalOpen", details: { number: 1, prefix: null, display: "1", shifts: [1, 1] } });
    const candidates = (several.details as { candidates: { id: string; display: string; series: string; status: string }[] }).candidates;
    expect(candidates.map((c) => [c.display, c.series, c.status, c.id])).toEqual([
      ["D1", "Delivery", "READY", delivery1.id],
      ["K1", "Kiosk", "PLACED", kiosk1.id],
    ]);
    const untouched = await Promise.all([kiosk1, delivery1].map((o) => h.orders.get(t, o.id)));
    expect(untouched.map((o) => o.status)).toEqual(["PLACED", "READY"]);
    // 1 sent as a JSON number is the same question.
    expect(await appError(h.orders.advanceByNumber(t, { number: 1 }, null))).toMatchObject({ reason: "severalOpen" });

    // 2 is the kiosk's alone, and collected: no open order shows it, with or without its letter.
    expect(await appError(h.orders.advanceByNumber(t, { number: "2" }, null))).toMatchObject({
      code: "NOT_FOUND",
      reason: "noOpenOrder",
      details: { display: "2" },
    });
    expect(await appError(h.orders.advanceByNumber(t, { number: "K2" }, null))).toMatchObject({
      code: "NOT_FOUND",
      reason: "noOpenOrder",
      details: { display: "K2" },
    });
    // No series and no open order uses X: a typo, said as such.
    expect(await appError(h.orders.advanceByNumber(t, { number: "X1" }, null))).toMatchObject({
      code: "NOT_FOUND",
      reason: "unknownPrefix",
      details: { prefix: "X" },
    });
    for (const bad of ["K", "K0", "1K", "ABCD1", "K-1", "１"]) {
      expect((await appError(h.orders.advanceByNumber(t, { number: bad }, null))).code, `number ${bad}`).toBe("BAD_INPUT");
    }

    // Once D1 is collected too, 1 means the kiosk's alone.
    await h.orders.advanceByNumber(t, { number: "D1" }, null);
    expect(await h.orders.advanceByNumber(t, { number: "1" }, null)).toMatchObject({ id: kiosk1.id, status: "READY" });
  });

  it("Undo from collected puts the order back to ready: collectedAt cleared, a new readyAt, back on the board", async () => {
    const t = tenants["floor-undo"]!;
    const o = await place(t);
    const ready = await move(t, o, "READY");
    const collected = await move(t, o, "COLLECTED");
    expect(collected.collectedAt).not.toBeNull();
    expect((await h.orders.board(t)).ready).toEqual([]);

    const back = await move(t, o, "READY");
    expect(back.status).toBe("READY");
    expect(back.collectedAt).toBeNull();
    expect(back.readyAt!.getTime()).toBeGreaterThan(ready.readyAt!.getTime());
    expect((await h.orders.board(t)).ready.map((b) => b.number)).toEqual([o.number]);
    const floor = await h.orders.floor(t);
    expect(ids(floor.open)).toEqual([o.id]);
    expect(floor.recentlyCollected).toEqual([]);

    // And READY → PLACED, one more step back, drops readyAt.
    const placed = await move(t, o, "PLACED");
    expect([placed.status, placed.readyAt]).toEqual(["PLACED", null]);
  });

  it("Call again publishes order:called for a ready order, stamps it ready anew, and refuses one that is not ready", async () => {
    const t = tenants["floor-call"]!;
    const o = await place(t);
    const refused = await appError(h.orders.callAgain(t, o.id));
    expect(refused.code).toBe("CONFLICT");
    expect(refused).toMatchObject({ reason: "notReady", details: { number: o.number } });
    expect(h.events.events.filter((e) => e.type === "order:called" && e.tenant === t.slug)).toEqual([]);

    const ready = await move(t, o, "READY");
    // Off the board by now (15 min > readyClearMinutes): calling it again brings it back.
    clock.tick(15 * 60_000);
    const again = await h.orders.callAgain(t, o.id);
    expect(again.readyAt!.getTime()).toBe(ready.readyAt!.getTime() + 15 * 60_000);
    expect((await h.orders.board(t)).ready.map((b) => b.number)).toEqual([o.number]);
    await h.orders.callAgain(t, o.id);
    const called = h.events.events.filter((e) => e.type === "order:called" && e.tenant === t.slug);
    expect(called).toHaveLength(2);
    expect(called[0]!.payload).toMatchObject({ key: `${TODAY}/1/${o.number}`, number: o.number, status: "READY" });
    expect(called[0]!.payload).not.toHaveProperty("id");
  });

  it("a ready order cleared while it is being called is refused as cleared, not as 'not ready'", async () => {
    const t = tenants["floor-call"]!;
    const o = await move(t, await place(t), "READY");
    // A manager's new shift clears it between the read and the conditional update (the real rows, another writer).
    const spy = vi.spyOn(PrismaOrderRepository.prototype, "readyAgain").mockImplementationOnce(async function (this: PrismaOrderRepository, tenantId, id, at) {
      await h.db.order.update({ where: { id }, data: { clearedAt: new Date() } });
      // The spy again, now with the real implementation (the mock was once).
      return PrismaOrderRepository.prototype.readyAgain.call(this, tenantId, id, at);
    });
    try {
      expect(await appError(h.orders.callAgain(t, o.id))).toMatchObject({ code: "CONFLICT", reason: "orderCleared", details: { number: o.number } });
      expect(spy).toHaveBeenCalledTimes(2);
    } finally {
      spy.mockRestore();
    }
  });

  it('a new shift with openOrders "clear" takes the open orders of earlier shifts off the floor and the board', async () => {
    const t = tenants["floor-clear"]!;
    const open = [await place(t), await place(t)];
    await move(t, open[1]!, "READY");
    const done = await place(t);
    await move(t, done, "READY");
    await move(t, done, "COLLECTED");
    expect(await h.shifts.openCount(t)).toBe(2);

    const started = await newShift(t, "clear");
    expect(started.cleared).toBe(2);
    const now = await place(t);
    const floor = await h.orders.floor(t);
    expect(ids(floor.open)).toEqual([now.id]);
    const board = await h.orders.board(t);
    expect([board.preparing.map((b) => b.key), board.ready]).toEqual([[`${TODAY}/2/${now.number}`], []]);
    expect(await h.shifts.openCount(t)).toBe(1);
    // Cleared, not collected or cancelled: the status is kept, and the typed number no longer finds it.
    expect((await h.orders.get(t, open[0]!.id)).status).toBe("PLACED");
    expect((await h.orders.get(t, open[0]!.id)).clearedAt).not.toBeNull();
    expect(floor.recentlyCollected.map((o) => o.id)).toEqual([done.id]);
    // A cleared order stays as it was: no screen shows it, so it cannot be moved or called.
    for (const attempt of [() => move(t, open[0]!, "READY"), () => move(t, open[1]!, "COLLECTED"), () => h.orders.callAgain(t, open[1]!.id)]) {
      expect(await appError(attempt())).toMatchObject({ code: "CONFLICT", reason: "orderCleared", details: { number: expect.any(Number) } });
    }
    expect((await h.orders.get(t, open[1]!.id)).status).toBe("READY");
  });

  it('a new shift with openOrders "keep" (the default) leaves them on the floor and the board, marked with their shift', async () => {
    const t = tenants["floor-keep"]!;
    const open = [await place(t), await place(t)];
    await move(t, open[1]!, "READY");
    expect(await h.shifts.openCount(t)).toBe(2);

    const started = await h.shifts.start(t, {}, "Manager (test)");
    expect(started.cleared).toBe(0);
    const now = await place(t);
    expect(ids((await h.orders.floor(t)).open)).toEqual(ids([...open, now]));
    const board = await h.orders.board(t);
    expect(board.shift).toBe(2);
    expect(board.preparing.map((b) => [b.shift, b.number])).toEqual([
      [1, open[0]!.number],
      [2, now.number],
    ]);
    expect(board.ready.map((b) => [b.shift, b.number])).toEqual([[1, open[1]!.number]]);
    expect(await h.shifts.openCount(t)).toBe(3);
  });
});

describe("the floor across business days", () => {
  // 23:10 in Berlin: 06:10 of the next day in Shanghai (the service that broke).
  const clock = movableClock(wallTime(ZONE, "23:10"));
  const h = createCoreHarness({ databaseUrl, redisUrl, keyPrefix: testKeyPrefix("floor-days"), clock });
  const tenants: Record<string, Tenant> = {};
  const names = ["floor-tz", "floor-turnover", "floor-forgotten"] as const;

  beforeAll(async () => {
    const made = await provisionTenants(
      databaseUrl,
      names.map((slug) => ({ slug, name: slug, timeZone: ZONE, dayStart: "04:00" })),
    );
    for (const slug of names) tenants[slug] = (await h.tenants.findById(made[slug]!.id))!;
  });
  afterAll(() => h.close());

  const place = async (t: Tenant, channel = "kiosk"): Promise<Order> => {
    clock.tick();
    return (await h.orders.place(t, { items: [{ name: "Noodles", qty: 1 }] }, { channel, by: null })).order;
  };
  const ready = (t: Tenant, o: Order) => {
    clock.tick();
    return h.orders.changeStatus(t, o.id, { status: "READY" }, null);
  };
  const keys = (orders: readonly { businessDay: string; shift: number; number: number }[]) => orders.map((o) => `${o.businessDay}/${o.shift}/${o.number}`);

  it("a time-zone change that starts a later business day keeps every open order on the board, the kitchen and its customer's page", async () => {
    const berlin = tenants["floor-tz"]!;
    const open = [await place(berlin), await place(berlin, "delivery"), await place(berlin)];
    await ready(berlin, open[1]!);
    // The manager switches to Asia/Shanghai, where it is already the next business day.
    const shanghai: Tenant = { ...berlin, timeZone: "Asia/Shanghai" };
    expect(h.issuer.today(shanghai)).toBe(localDate(ZONE, 1));

    const floor = await h.orders.floor(shanghai);
    expect(floor.businessDay).toBe(localDate(ZONE, 1));
    expect(ids(floor.open)).toEqual(ids(open));
    const board = await h.orders.board(shanghai);
    expect(keys(board.preparing)).toEqual(keys([open[0]!, open[2]!]));
    expect(keys(board.ready)).toEqual(keys([open[1]!]));
    expect(board.preparing.every((o) => earlierThan(o, board) === "day")).toBe(true);
    // The customer of the ready order still reads "ready", with one order ahead of the next one.
    expect((await h.orders.track(shanghai, open[1]!.id)).order.status).toBe("READY");
    expect((await h.orders.track(shanghai, open[2]!.id)).aheadKeys).toEqual(keys([open[0]!]));

    // The new day numbers from 1, past yesterday's 1–3 still open (decision 0027).
    const next = await place(shanghai);
    expect([next.businessDay, next.shift, next.number]).toEqual([localDate(ZONE, 1), 1, 4]);
    expect(keys((await h.orders.board(shanghai)).preparing)).toEqual(keys([open[0]!, open[2]!, next]));
    // A typed number finds the one open order that shows it, of either day.
    expect((await h.orders.advanceByNumber(shanghai, { number: 4 }, null)).id).toBe(next.id);
    expect((await h.orders.advanceByNumber(shanghai, { number: open[2]!.number }, null)).id).toBe(open[2]!.id);
  });

  it("the business day turning over keeps yesterday's open orders until someone collects, cancels or clears them", async () => {
    const t = tenants["floor-turnover"]!;
    const late = [await place(t), await place(t)];
    clock.set(wallTime(ZONE, "05:00", 1)); // the next business day has begun
    expect(ids((await h.orders.floor(t)).open)).toEqual(ids(late));
    await h.orders.changeStatus(t, late[0]!.id, { status: "CANCELLED" }, null);
    expect(ids((await h.orders.floor(t)).open)).toEqual(ids([late[1]!]));
    // A new shift that clears takes earlier days' open orders off too.
    const started = await h.shifts.start(t, { openOrders: "clear" }, "Manager (test)");
    expect(started.cleared).toBe(1);
    expect((await h.orders.floor(t)).open).toEqual([]);
  });

  it(`an order forgotten for ${FORGOTTEN_AFTER_HOURS} hours is cleared off the floor once, audited and announced to the screens`, async () => {
    const t = tenants["floor-forgotten"]!;
    const [old, recent] = [await place(t), await place(t)];
    // Taken long ago by the database's clock, which decides (this node's clock is ahead of it here).
    const takenAgo = async (o: Order, minutes: number) =>
      h.db.$executeRaw`UPDATE "Order" SET "createdAt" = now() - make_interval(mins => ${minutes}::int) WHERE id = ${o.id}::uuid`;
    await takenAgo(old, FORGOTTEN_AFTER_HOURS * 60 - 2);
    await takenAgo(recent, 60);
    expect(ids((await h.orders.floor(t)).open)).toEqual(ids([old, recent]));

    await takenAgo(old, FORGOTTEN_AFTER_HOURS * 60 + 1);
    const [a, b] = await Promise.all([h.orders.board(t), h.orders.floor(t)]);
    expect(keys(a.preparing)).toEqual(keys([recent]));
    expect(ids(b.open)).toEqual(ids([recent]));
    expect((await h.orders.get(t, old.id)).clearedAt).not.toBeNull();
    const audit = await h.db.auditEntry.findMany({ where: { tenantId: t.id, action: "orders.clearForgotten" } });
    expect(audit).toHaveLength(1);
    expect(audit[0]!.details).toMatchObject({
      hours: FORGOTTEN_AFTER_HOURS,
      count: 1,
      orders: [{ businessDay: old.businessDay, shift: 1, number: old.number }],
    });
    const announced = h.events.events.filter((e) => e.type === "order:updated" && e.tenant === t.slug);
    expect(announced.map((e) => e.payload)).toEqual([expect.objectContaining({ key: keys([old])[0], cleared: true })]);
  });
});
