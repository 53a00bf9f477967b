/**
 * OrderService's rules for taking an order, on in-memory ports (tests/support/in-memory-core.ts):
 * a number only for an order that is stored, none for a refused one, one number per
 * idempotency key, another number when the database refuses one as already stored. The
 * same paths on Redis and PostgreSQL: tests/integration/counter*.test.ts.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/core/errors";
import type { MenuItem } from "@/lib/core/menu";
import { DuplicateNumberError, isUnavailableError, UnavailableError, type OrderRecord } from "@/lib/core/ports";
import { DEFAULT_SERIES, numberOfTicket, type Series } from "@/lib/core/series";
import type { Tenant } from "@/lib/core/tenants";
import { localDate, movableClock, wallTime } from "../support/clock";
import { memoryCore, memoryTenant } from "../support/in-memory-core";

const BERLIN = "Europe/Berlin";
const today = localDate(BERLIN);

const menu: MenuItem[] = [
  { id: randomUUID(), categoryId: randomUUID(), name: "Ramen", priceCents: 1250, available: true, position: 0, stationId: null, optionGroups: [] },
  { id: randomUUID(), categoryId: randomUUID(), name: "Gyoza", priceCents: 600, available: false, position: 1, stationId: null, optionGroups: [] },
];
const [ramen, gyoza] = menu as [MenuItem, MenuItem];

function setup() {
  const core = memoryCore({ clock: movableClock(wallTime(BERLIN, "12:00")), menu });
  return { core, tenant: memoryTenant(), place: core.orderService.place.bind(core.orderService) };
}

/** What was asked of the number counter and the ledger so far. */
const numberCalls = (core: ReturnType<typeof memoryCore>) => core.counter.calls.length + core.ledger.calls.length;

describe("OrderService.place", () => {
  it("stores the order under the number it drew, then broadcasts and counts it", async () => {
    const { core, tenant, place } = setup();
    const { order, created } = await place(tenant, { items: [{ menuItemId: ramen.id, qty: 2 }], note: "no onions" }, { channel: "kiosk", by: null });
    expect(created).toBe(true);
    expect(order).toMatchObject({ businessDay: today, shift: 1, number: 1, status: "PLACED", channel: "kiosk", note: "no onions" });
    // The menu line is stored with the name and price it had when the order was taken.
    expect(order.items).toEqual([{ name: "Ramen", qty: 2, menuItemId: ramen.id, priceCents: 1250 }]);
    expect(core.db.orders.map((o) => o.number)).toEqual([1]);
    expect(core.recorder.events).toEqual([{ type: "order:created", payload: expect.objectContaining({ number: 1, status: "PLACED" }) }]);
    expect(core.recorder.placed).toEqual(["kiosk"]);
    expect(core.recorder.issuedFrom).toEqual(["redis"]);
    expect((await place(tenant, {}, { channel: "counter", by: null })).order.number).toBe(2);
  });

  it("a refused order spends no number: bad input, an unknown menu item, a sold-out one", async () => {
    const { core, tenant, place } = setup();
    const refusals: [unknown, string, string | undefined][] = [
      [{ items: [{ name: "Tea", qty: 0 }] }, "BAD_INPUT", undefined],
      [{ items: [{ menuItemId: randomUUID(), qty: 1 }] }, "BAD_INPUT", "unknownMenuItem"],
      [{ items: [{ menuItemId: gyoza.id, qty: 1 }] }, "CONFLICT", "menuItemUnavailable"],
      [null, "BAD_INPUT", undefined],
    ];
    for (const [input, code, reason] of refusals) {
      const e = await place(tenant, input, { channel: "kiosk", by: null }).catch((err: unknown) => err);
      expect(e, JSON.stringify(input)).toBeInstanceOf(AppError);
      expect(e).toMatchObject({ code, ...(reason ? { reason } : {}) });
    }
    // Neither the counter nor the ledger was asked; the next order gets number 1.
    expect(numberCalls(core)).toBe(0);
    expect(core.db.orders).toEqual([]);
    expect(core.recorder.events).toEqual([]);
    expect((await place(tenant, { items: [{ name: "Tea", qty: 1 }] }, { channel: "kiosk", by: null })).order.number).toBe(1);
  });
});

describe("OrderService.place: idempotency keys", () => {
  it("a retry with the same key and order gets the first order back and draws no number", async () => {
    const { core, tenant, place } = setup();
    const input = { items: [{ name: "Tea", qty: 1 }] };
    const first = await place(tenant, input, { channel: "api", idempotencyKey: "k-1", idempotencyScope: "api-key:test", by: null });
    const calls = numberCalls(core);
    const again = await place(tenant, input, { channel: "api", idempotencyKey: "k-1", idempotencyScope: "api-key:test", by: null });
    expect(again).toEqual({ order: first.order, created: false, printer: null });
    expect(numberCalls(core)).toBe(calls);
    expect(core.recorder.placed).toEqual(["api"]); // a replay is not counted
    expect((await place(tenant, input, { channel: "api", by: null })).order.number).toBe(2);
  });

  it("the same key with a different order is a conflict, and draws no number", async () => {
    const { core, tenant, place } = setup();
    await place(tenant, { items: [{ name: "Tea", qty: 1 }] }, { channel: "api", idempotencyKey: "k-2", idempotencyScope: "api-key:test", by: null });
    const calls = numberCalls(core);
    const e = await place(
      tenant,
      { items: [{ name: "Tea", qty: 2 }] },
      { channel: "api", idempotencyKey: "k-2", idempotencyScope: "api-key:test", by: null },
    ).catch((err: unknown) => err);
    expect(e).toMatchObject({ code: "CONFLICT" });
    expect(numberCalls(core)).toBe(calls);
  });

  it("two concurrent attempts with one key: one order, one number", async () => {
    const { core, tenant, place } = setup();
    const input = { items: [{ name: "Tea", qty: 1 }] };
    const [a, b] = await Promise.all([
      place(tenant, input, { channel: "api", idempotencyKey: "k-3", idempotencyScope: "api-key:test", by: null }),
      place(tenant, input, { channel: "api", idempotencyKey: "k-3", idempotencyScope: "api-key:test", by: null }),
    ]);
    expect(a.order.id).toBe(b.order.id);
    expect([a.created, b.created].sort()).toEqual([false, true]);
    expect(core.db.orders).toHaveLength(1);
    expect(core.recorder.issuedFrom).toHaveLength(1);
  });

  it("a twin that won the insert (claims unavailable) is the answer; the number drawn is skipped, not reused", async () => {
    const { core, tenant, place } = setup();
    const input = { items: [{ name: "Tea", qty: 1 }] };
    let twin: Promise<unknown> | null = null;
    core.orders.beforeInsert = async (record: OrderRecord) => {
      if (twin || record.number !== 1) return;
      // Another node, whose claim did not stop it, stores the same order first.
      core.orders.beforeInsert = null;
      twin = core.orders.insert({ ...record, number: 99 });
      await twin;
    };
    const { order, created } = await place(tenant, input, { channel: "api", idempotencyKey: "k-4", idempotencyScope: "api-key:test", by: null });
    expect(created).toBe(false);
    expect(order.number).toBe(99);
    expect(core.recorder.uniqueViolations).toEqual(["idempotencyKey"]);
    expect((await place(tenant, input, { channel: "api", by: null })).order.number).toBe(2);
  });

  it("a failed attempt releases its claim: the retry goes ahead at once instead of waiting for it", async () => {
    const { core, tenant, place } = setup();
    const input = { items: [{ name: "Tea", qty: 1 }] };
    core.orders.beforeInsert = () => {
      core.orders.beforeInsert = null;
      throw new UnavailableError("database", "connection lost under the insert");
    };
    const e = await place(tenant, input, { channel: "api", idempotencyKey: "k-5", idempotencyScope: "api-key:test", by: null }).catch((err: unknown) => err);
    expect(isUnavailableError(e) && e.store).toBe("database");
    const started = Date.now();
    const retry = await place(tenant, input, { channel: "api", idempotencyKey: "k-5", idempotencyScope: "api-key:test", by: null });
    expect(retry.created).toBe(true);
    expect(Date.now() - started).toBeLessThan(1_000); // not the 5 s a live claim would cost
    // The failed attempt's number 1 was drawn and is skipped.
    expect(retry.order.number).toBe(2);
  });
});

describe("OrderService.place: a number still open from an earlier shift (decision 0027)", () => {
  it("is skipped, never handed out twice; a collected one is free again, and nothing open is spent", async () => {
    const { core, tenant, place } = setup();
    const first = await Promise.all([1, 2, 3, 4, 5].map(() => place(tenant, {}, { channel: "counter", by: null })));
    expect(first.map((r) => r.order.number)).toEqual([1, 2, 3, 4, 5]);
    await core.orderService.changeStatus(tenant, first[2]!.order.id, { status: "READY" }, null);
    await core.orderService.changeStatus(tenant, first[2]!.order.id, { status: "COLLECTED" }, null);
    const { shift, nextNumber } = await core.shiftService.start(tenant, { openOrders: "keep" }, "manager");
    expect(shift.shift).toBe(2);
    expect(nextNumber).toBe(3); // what the manager's screen says: not 1, which is still open

    const next = [];
    for (let i = 0; i < 3; i++) next.push((await place(tenant, {}, { channel: "counter", by: null })).order);
    // 1, 2, 4 and 5 are still open (shift 1); 3 was collected.
    expect(next.map((o) => [o.shift, o.number])).toEqual([
      [2, 3],
      [2, 6],
      [2, 7],
    ]);
    const open = core.db.orders.filter((o) => o.status === "PLACED" || o.status === "READY").map((o) => o.number);
    expect(new Set(open).size).toBe(open.length);
    expect(core.recorder.duplicates).toEqual([]);
  });

  it("an Undo of a collect whose number was given out since is a 409 the screens can say, and changes nothing", async () => {
    const { core, tenant, place } = setup();
    const first = (await place(tenant, {}, { channel: "counter", by: null })).order;
    await core.orderService.changeStatus(tenant, first.id, { status: "READY" }, null);
    await core.orderService.changeStatus(tenant, first.id, { status: "COLLECTED" }, null);
    await core.shiftService.start(tenant, {}, "manager");
    expect((await place(tenant, {}, { channel: "counter", by: null })).order.number).toBe(1);
    const refused = await core.orderService.changeStatus(tenant, first.id, { status: "READY" }, null).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: "CONFLICT", reason: "numberReissued", details: { number: 1 } });
    expect((await core.orderService.get(tenant, first.id)).status).toBe("COLLECTED");
  });

  it("concurrent orders after a new shift that kept 20 open: all distinct, none an open number", async () => {
    const { core, tenant, place } = setup();
    for (let i = 0; i < 20; i++) await place(tenant, {}, { channel: "counter", by: null });
    await core.shiftService.start(tenant, { openOrders: "keep" }, "manager");
    const taken = await Promise.all(Array.from({ length: 30 }, () => place(tenant, {}, { channel: "kiosk", by: null })));
    expect(taken.map((r) => r.order.number).sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => 21 + i));
  });
});

describe("OrderService.place: a number already stored", () => {
  it("is refused by the database; the counter's block is burnt and the order gets a fresh number above it", async () => {
    const { core, tenant, place } = setup();
    // Number 1 is stored already (a promoted replica's counter that missed it).
    await core.orders.insert({
      tenantId: tenant.id,
      businessDay: today,
      shift: 1,
      number: 1,
      prefix: "",
      seriesId: null,
      seriesName: null,
      ticket: null,
      channel: "kiosk",
      items: [],
      idempotencyKey: null,
      idempotencyScope: null,
      requestHash: null,
      placedBy: null,
    });
    const { order } = await place(tenant, {}, { channel: "kiosk", by: null });
    expect(order.number).toBe(41);
    expect(core.recorder.duplicates).toEqual([tenant.slug]);
    expect(core.recorder.uniqueViolations).toEqual(["number"]);
    expect(core.counter.calls.filter((c) => c.method === "burn")).toMatchObject([
      { detail: { issued: { businessDay: today, shift: 1, number: 1 }, storedUpTo: 1 } },
    ]);
    expect(core.recorder.logs.filter((l) => l.level === "error").map((l) => l.msg)).toEqual([
      "counter issued a number that is already stored; issuing another",
    ]);
  });

  it("gives up after five refused numbers with UNAVAILABLE (503), never storing a duplicate", async () => {
    const { core, tenant, place } = setup();
    core.orders.beforeInsert = (r) => {
      throw new DuplicateNumberError(r.businessDay, r.shift, r.number);
    };
    const e = await place(tenant, {}, { channel: "kiosk", by: null }).catch((err: unknown) => err);
    expect(e).toMatchObject({ code: "UNAVAILABLE", httpStatus: 503 });
    expect(core.counter.calls.filter((c) => c.method === "burn")).toHaveLength(5);
    expect(core.db.orders).toEqual([]);
  });
});

describe("OrderService.place: a series whose numbers come round (decision 0027)", () => {
  /** A tenant with series W11–W13 for the kiosk: three numbers, tickets 1, 2, 3 show W11, W12, W13. */
  function seriesSetup() {
    const { core, place } = setup();
    const w: Series = { id: randomUUID(), name: "Window", prefix: "W", first: 11, last: 13, channels: ["kiosk"], isDefault: false };
    const tenant: Tenant = { ...memoryTenant(), series: [DEFAULT_SERIES, w] };
    const kiosk = async () => (await place(tenant, {}, { channel: "kiosk", by: null })).order;
    const collect = async (id: string) => {
      await core.orderService.changeStatus(tenant, id, { status: "READY" }, null);
      await core.orderService.changeStatus(tenant, id, { status: "COLLECTED" }, null);
    };
    /** Tickets the series' counter handed out so far (stored or skipped). */
    const drawn = () => core.recorder.issuedFrom.length;
    return { core, tenant, w, kiosk, collect, drawn };
  }
  const shown = (o: { prefix: string; number: number; ticket: number | null }) => [`${o.prefix}${o.number}`, o.ticket];

  it("comes round to first after last", async () => {
    const { kiosk, collect } = seriesSetup();
    const lap = [await kiosk(), await kiosk(), await kiosk()];
    expect(lap.map(shown)).toEqual([
      ["W11", 1],
      ["W12", 2],
      ["W13", 3],
    ]);
    for (const o of lap) await collect(o.id);
    expect(shown(await kiosk())).toEqual(["W11", 4]);
    expect(shown(await kiosk())).toEqual(["W12", 5]);
  });

  it("skips a number still open: its ticket is drawn, the number is not spent and comes round", async () => {
    const { core, kiosk, collect, drawn } = seriesSetup();
    const [w11, w12, w13] = [await kiosk(), await kiosk(), await kiosk()];
    await collect(w12.id);
    await collect(w13.id);
    // Ticket 4 shows W11, still open: skipped; ticket 5 shows W12.
    expect(shown(await kiosk())).toEqual(["W12", 5]);
    expect(drawn()).toBe(5);
    expect(core.recorder.uniqueViolations).toEqual(["openNumber"]);
    await collect(w11.id);
    // Ticket 6 shows W13, free again; ticket 7 shows W11, collected meanwhile: it comes round.
    expect(shown(await kiosk())).toEqual(["W13", 6]);
    expect(shown(await kiosk())).toEqual(["W11", 7]);
    const open = core.db.orders.filter((o) => o.status === "PLACED" || o.status === "READY").map((o) => `${o.prefix}${o.number}`);
    expect(open.sort()).toEqual(["W11", "W12", "W13"]);
    expect(core.recorder.duplicates).toEqual([]);
  });

  it("SERIES_FULL when every number is open: nothing stored or broadcast; the next order after a collect gets that number", async () => {
    const { core, tenant, kiosk, collect } = seriesSetup();
    const lap = [await kiosk(), await kiosk(), await kiosk()];
    const events = core.recorder.events.length;
    for (let i = 0; i < 2; i++) {
      const e = await kiosk().catch((err: unknown) => err);
      expect(e).toBeInstanceOf(AppError);
      expect(e).toMatchObject({ code: "SERIES_FULL", httpStatus: 409, reason: "seriesFull", details: { series: "Window", first: "W11", last: "W13" } });
    }
    expect(core.db.orders).toHaveLength(3);
    expect(core.recorder.events).toHaveLength(events);
    expect(core.recorder.placed).toEqual(["kiosk", "kiosk", "kiosk"]);
    // The default series is not concerned.
    expect((await place(tenant)).number).toBe(1);

    await collect(lap[1]!.id);
    expect((await kiosk()).number).toBe(12);
    expect(await kiosk().catch((err: unknown) => err)).toMatchObject({ code: "SERIES_FULL" });
    await collect(lap[0]!.id);
    expect((await kiosk()).number).toBe(11);
    const open = core.db.orders.filter((o) => o.prefix === "W" && (o.status === "PLACED" || o.status === "READY")).map((o) => o.number);
    expect(open.sort()).toEqual([11, 12, 13]);

    async function place(t: Tenant) {
      return (await core.orderService.place(t, {}, { channel: "counter", by: null })).order;
    }
  });

  it("an order that skipped a whole lap on the numbers it read reads them again: SERIES_FULL once the last free one was taken", async () => {
    // Other cashiers draw every ticket showing W13 (their draws interleave with this order's:
    // the rush of tests/integration/series-concurrency.test.ts); the second time, one of them
    // has stored W13. This order then only ever draws W11 and W12.
    const { core, tenant, w, kiosk, drawn } = seriesSetup();
    await kiosk();
    await kiosk();
    const next = core.counter.next.bind(core.counter);
    let elsewhere = 0;
    core.counter.next = async (...args: Parameters<typeof next>) => {
      for (;;) {
        const r = await next(...args);
        if (r.kind !== "issued" || typeof args[0] === "string" || numberOfTicket(w, r.issued.number) !== 13) return r;
        if (++elsewhere === 2) {
          await core.orders.insert({
            tenantId: tenant.id,
            businessDay: r.issued.businessDay,
            shift: r.issued.shift,
            number: 13,
            prefix: "W",
            seriesId: w.id,
            seriesName: w.name,
            ticket: r.issued.number,
            channel: "kiosk",
            items: [],
            idempotencyKey: null,
            idempotencyScope: null,
            requestHash: null,
            placedBy: null,
          });
        }
      }
    };
    const before = drawn();
    // Ticket 4 shows W11: refused, W11 and W12 read as open, W13 free. Ticket 6 (W13) goes to
    // another cashier, who stores it; tickets 5, 7 and 8 show W12, W11, W12: a lap skipped on
    // what was read. Read again, every number is open.
    const e = await kiosk().catch((err: unknown) => err);
    expect(e).toMatchObject({ code: "SERIES_FULL" });
    expect(drawn() - before).toBe(4);
    expect(core.db.orders.filter((o) => o.prefix === "W").map((o) => o.number)).toEqual([11, 12, 13]);
  });

  it("a new shift restarts the series at its first number (ticket 1), past numbers kept open", async () => {
    const { core, tenant, kiosk, collect } = seriesSetup();
    const [w11, w12] = [await kiosk(), await kiosk()];
    await collect(w11.id);
    await core.shiftService.start(tenant, { openOrders: "keep" }, "manager");
    // W11 was collected: shift 2's ticket 1 shows it again.
    const next = await kiosk();
    expect([next.shift, next.prefix, next.number, next.ticket]).toEqual([2, "W", 11, 1]);
    // W12 is still open from shift 1: ticket 2 is skipped, ticket 3 shows W13.
    expect([(await kiosk()).number, core.db.orders.at(-1)!.ticket]).toEqual([13, 3]);
    await collect(w12.id);

    await core.shiftService.start(tenant, { openOrders: "clear" }, "manager");
    // Shift 3 cleared the floor: every number is free, and the series starts at W11 again.
    expect(shown(await kiosk())).toEqual(["W11", 1]);
    expect(core.db.orders.at(-1)!.shift).toBe(3);
  });
});

describe("OrderService.floor and forgotten orders", () => {
  it("leaves out a forgotten order another request cleared between its read and its own clearing", async () => {
    const { core, tenant, place } = setup();
    const { order: old } = await place(tenant, { items: [{ menuItemId: ramen.id, qty: 1 }] }, { channel: "kiosk", by: null });
    const { order: recent } = await place(tenant, { items: [{ menuItemId: ramen.id, qty: 1 }] }, { channel: "kiosk", by: null });
    core.db.orders.find((o) => o.id === old.id)!.createdAt = new Date(old.createdAt.getTime() - 13 * 3_600_000);
    // The other request's update wins the row: this one's clears nothing.
    const clear = core.orders.clearForgotten.bind(core.orders);
    core.orders.clearForgotten = async (...args) => {
      await clear(...args);
      return [];
    };
    const floor = await core.orderService.floor(tenant);
    expect(floor.open.map((o) => o.id)).toEqual([recent.id]);
  });
});
