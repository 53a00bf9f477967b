/**
 * The order statements written in SQL (lib/adapters/postgres/order-sql.server.ts) against
 * the Prisma queries they replace, on the real PostgreSQL of the run: the same rows must
 * come back as the same Order, field for field and type for type (dates, nulls, items),
 * whichever path wrote them. Here: the idempotency-key lookup of an order placement, and the
 * inserts of one event-loop turn batched into one statement, each caller with its own outcome.
 */
import { randomUUID } from "node:crypto";
import type pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it, vi } from "vitest";
import { insertOrder } from "@/lib/adapters/postgres/order-sql.server";
import { poolFor, prismaFor } from "@/lib/adapters/postgres/prisma.server";
import type { Order } from "@/lib/core/orders";
import { DuplicateIdempotencyKeyError, DuplicateNumberError, NumberOpenError, type OrderRecord } from "@/lib/core/ports";
import { uniqueSlug } from "../support/fixtures";
import { nextEuropeanSpringForward } from "../support/clock";
import { addDays } from "@/lib/core/business-day";
import { PrismaOrderRepository } from "@/lib/adapters/postgres/order-repository.server";

const databaseUrl = inject("databaseUrl");
const db = prismaFor(databaseUrl);
const pool = poolFor(databaseUrl);
/** The same repository twice: through Prisma only, and with the statements in SQL. */
const viaPrisma = new PrismaOrderRepository(db);
const viaSql = new PrismaOrderRepository(db, undefined, pool);

const DAY = nextEuropeanSpringForward(); // a DST change in Europe: a date must not move with the local zone
let tenantId: string;
let otherTenantId: string;
let thirdTenantId: string;

/** The scope of the integrator whose keys these tests use, unless a test names another. */
const SCOPE = "api-key:00000000-0000-4000-8000-00000000000a";

const record = (over: Partial<OrderRecord>): OrderRecord => ({
  tenantId,
  businessDay: DAY,
  shift: 1,
  number: 1,
  prefix: "",
  seriesId: null,
  seriesName: null,
  ticket: null,
  items: [],
  channel: "kiosk",
  idempotencyKey: null,
  // A key comes with its caller's scope, as the order service stores it.
  idempotencyScope: over.idempotencyKey ? SCOPE : null,
  requestHash: null,
  placedBy: null,
  ...over,
});

beforeAll(async () => {
  const make = async (label: string) => (await db.tenant.create({ data: { slug: uniqueSlug(label), name: label, timeZone: "Europe/Berlin" } })).id;
  tenantId = await make("order-sql");
  otherTenantId = await make("order-sql-other");
  thirdTenantId = await make("order-sql-third");
});

afterAll(async () => {
  await db.tenant.deleteMany({ where: { id: { in: [tenantId, otherTenantId, thirdTenantId] } } });
  await db.$disconnect();
  if (!pool.ended) await pool.end();
});

/** Both paths' answer for the key: identical, down to the order of the JSON keys. */
async function byKey(tenant: string, day: string, key: string, scope = SCOPE): Promise<Order | null> {
  const [sql, prisma] = await Promise.all([viaSql.findByIdempotencyKey(tenant, day, scope, key), viaPrisma.findByIdempotencyKey(tenant, day, scope, key)]);
  expect(sql).toStrictEqual(prisma);
  expect(JSON.stringify(sql)).toBe(JSON.stringify(prisma));
  return sql;
}

// Each test stores rows of its own: what earlier tests left open must not hold their numbers (decision 0027).
beforeEach(async () => {
  await db.order.updateMany({
    where: { tenantId: { in: [tenantId, otherTenantId, thirdTenantId] }, status: { in: ["PLACED", "READY"] } },
    data: { status: "COLLECTED" },
  });
});

describe("the index over open numbers (decision 0027)", () => {
  it("refuses a number an open order of another shift or day shows, through SQL and Prisma; a collected or cleared one is free again", async () => {
    const open = await viaSql.insert(record({ shift: 21, number: 71 }));
    const later = addDays(DAY, 1);
    await expect(viaSql.insert(record({ shift: 22, number: 71 }))).rejects.toBeInstanceOf(NumberOpenError);
    await expect(viaPrisma.insert(record({ businessDay: later, shift: 21, number: 71 }))).rejects.toBeInstanceOf(NumberOpenError);
    // In a batch: the row is retried alone and gets the same error; its neighbours are stored.
    const batch = await Promise.allSettled([71, 72].map((n) => insertOrder(pool, record({ businessDay: later, shift: 23, number: n }))));
    expect(batch.map((b) => b.status)).toEqual(["rejected", "fulfilled"]);
    // Another restaurant's 71 is its own.
    await viaSql.insert(record({ tenantId: otherTenantId, shift: 21, number: 71 }));
    expect([...(await viaSql.openNumbers(tenantId))].sort((a, b) => a - b)).toEqual([71, 72]);

    await db.order.update({ where: { id: open.id }, data: { clearedAt: new Date() } });
    const again = await viaSql.insert(record({ shift: 22, number: 71 }));
    expect(again.number).toBe(71);
    await db.order.update({ where: { id: again.id }, data: { status: "COLLECTED" } });
    expect((await viaPrisma.insert(record({ businessDay: later, shift: 21, number: 71 }))).number).toBe(71);
  });
});

describe("findByIdempotencyKey in SQL", () => {
  it("returns the order as Prisma does, whichever path inserted it, with the types of an Order", async () => {
    const items = [
      { name: "Ramen", qty: 2, menuItemId: "9b2d7c1e-4f0a-4c55-9d0e-2f6a8f1b3c4d", priceCents: 1250 },
      { name: 'Gyōza «extra» "crispy"', qty: 1 },
    ];
    const inserted = await viaSql.insert(
      record({ number: 1, items, note: "no onions", channel: "api", idempotencyKey: "till-1", requestHash: "a".repeat(64) }),
    );
    const found = await byKey(tenantId, DAY, "till-1");
    // The replay answers exactly what the first attempt answered.
    expect(found).toStrictEqual(inserted);
    expect(JSON.stringify(found)).toBe(JSON.stringify(inserted));
    expect(found).toMatchObject({
      businessDay: DAY,
      shift: 1,
      number: 1,
      status: "PLACED",
      items,
      note: "no onions",
      channel: "api",
      readyAt: null,
      clearedAt: null,
    });
    expect(found!.createdAt).toBeInstanceOf(Date);

    const viaPrismaInsert = await viaPrisma.insert(record({ number: 2, idempotencyKey: "till-2" }));
    expect(await byKey(tenantId, DAY, "till-2")).toStrictEqual(viaPrismaInsert);
  });

  it("carries every stamp, to the millisecond", async () => {
    const order = await viaSql.insert(record({ number: 3, items: [{ name: "Soba", qty: 1 }], idempotencyKey: "till-3" }));
    const stamps = {
      // Around the change (01:00Z), to the millisecond.
      readyAt: new Date(`${DAY}T00:59:59.123Z`),
      collectedAt: new Date(`${DAY}T01:00:00.456Z`),
      cancelledAt: new Date(`${DAY}T01:30:00.789Z`),
      clearedAt: new Date(`${DAY}T02:00:00.001Z`),
    };
    await db.order.update({ where: { id: order.id }, data: { status: "CANCELLED", ...stamps } });
    expect(await byKey(tenantId, DAY, "till-3")).toStrictEqual({ ...order, status: "CANCELLED", ...stamps });
  });

  it("finds nothing for another key, day or tenant", async () => {
    await viaSql.insert(record({ number: 4, idempotencyKey: "till-4" }));
    expect(await byKey(tenantId, DAY, "till-5")).toBeNull();
    expect(await byKey(tenantId, addDays(DAY, -1), "till-4")).toBeNull();
    expect(await byKey(tenantId, addDays(DAY, 1), "till-4")).toBeNull();
    expect(await byKey(otherTenantId, DAY, "till-4")).toBeNull();
  });

  it("after the unique index refuses a second order with the key, the lookup finds the first", async () => {
    const first = await viaSql.insert(record({ number: 5, items: [{ name: "Udon", qty: 1 }], idempotencyKey: "till-6" }));
    await expect(viaSql.insert(record({ number: 6, idempotencyKey: "till-6" }))).rejects.toBeInstanceOf(DuplicateIdempotencyKeyError);
    await expect(viaPrisma.insert(record({ number: 7, idempotencyKey: "till-6" }))).rejects.toBeInstanceOf(DuplicateIdempotencyKeyError);
    expect(await byKey(tenantId, DAY, "till-6")).toStrictEqual(first);
  });
});

describe("idempotency keys scoped per caller, beside rows of the release before (decision 0025)", () => {
  const other = "api-key:00000000-0000-4000-8000-00000000000b";
  const third = "session:5f0c2a1e-0000-4000-8000-000000000003";

  it("the same key of two callers is two orders, each found by its own caller only", async () => {
    const mine = await viaSql.insert(record({ number: 20, idempotencyKey: "order-1001" }));
    const theirs = await viaPrisma.insert(record({ number: 21, idempotencyKey: "order-1001", idempotencyScope: other }));
    expect(theirs.id).not.toBe(mine.id);
    expect(await byKey(tenantId, DAY, "order-1001")).toStrictEqual(mine);
    expect(await byKey(tenantId, DAY, "order-1001", other)).toStrictEqual(theirs);
    expect(await byKey(tenantId, DAY, "order-1001", third)).toBeNull();
    // Within one caller the key stays unique, through either path.
    await expect(viaSql.insert(record({ number: 22, idempotencyKey: "order-1001", idempotencyScope: other }))).rejects.toBeInstanceOf(
      DuplicateIdempotencyKeyError,
    );
    await expect(viaPrisma.insert(record({ number: 23, idempotencyKey: "order-1001" }))).rejects.toBeInstanceOf(DuplicateIdempotencyKeyError);
  });

  it("an order an old node stored without a scope is found by any caller, after the caller's own; old nodes still get one row per key", async () => {
    const legacy = await viaSql.insert(record({ number: 30, idempotencyKey: "till-9", idempotencyScope: null }));
    expect(await byKey(tenantId, DAY, "till-9")).toStrictEqual(legacy);
    expect(await byKey(tenantId, DAY, "till-9", third)).toStrictEqual(legacy);
    // What an old node relies on: a second unscoped row with the key is refused (the old index, now partial).
    await expect(viaSql.insert(record({ number: 31, idempotencyKey: "till-9", idempotencyScope: null }))).rejects.toBeInstanceOf(DuplicateIdempotencyKeyError);
    await expect(viaPrisma.insert(record({ number: 32, idempotencyKey: "till-9", idempotencyScope: null }))).rejects.toBeInstanceOf(
      DuplicateIdempotencyKeyError,
    );
    // A new node's scoped row with the same key is allowed, and its caller then finds its own.
    const scoped = await viaSql.insert(record({ number: 33, idempotencyKey: "till-9", idempotencyScope: other }));
    expect(await byKey(tenantId, DAY, "till-9", other)).toStrictEqual(scoped);
    expect(await byKey(tenantId, DAY, "till-9")).toStrictEqual(legacy);
  });
});

/** Runs `work` counting the statements sent on the pool (by prepared name, else text). */
async function counted<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const spy = vi.spyOn(pool, "query");
  try {
    const result = await work();
    const statements = spy.mock.calls.map(([q]) => (typeof q === "string" ? q : ((q as pg.QueryConfig).name ?? (q as pg.QueryConfig).text)));
    return { result, statements };
  } finally {
    spy.mockRestore();
  }
}

/** Inserts all of `records` in one turn of the event loop, as concurrent requests do. */
const insertAll = (records: OrderRecord[]) => counted(() => Promise.allSettled(records.map((r) => insertOrder(pool, r))));

const BATCH_DAY = addDays(DAY, 1);
const NUMBER_KEY = "Order_tenantId_businessDay_shift_number_key";
const IDEMPOTENCY_KEY = "Order_tenantId_businessDay_idempotencyScope_idempotencyKey_key";

const stored = (tenant: string, shift: number, number: number) =>
  db.order.count({ where: { tenantId: tenant, businessDay: new Date(`${BATCH_DAY}T00:00:00Z`), shift, number } });

describe("inserts batched per turn of the event loop", () => {
  it("sends a lone insert as the single-row statement", async () => {
    const { result, statements } = await counted(() => insertOrder(pool, record({ businessDay: BATCH_DAY, shift: 9, number: 1 })));
    expect(statements).toEqual(["nextup-order-insert"]);
    expect(await viaPrisma.findById(tenantId, result.id)).toStrictEqual(result);
  });

  it("stores the inserts of one turn, several tenants, with one statement, each caller getting its own row", async () => {
    const tenants = [tenantId, otherTenantId, thirdTenantId];
    // Numbers descending and tenants interleaved: the statement's rows come back in another order than asked.
    const records = Array.from({ length: 30 }, (_, i) =>
      record({
        tenantId: tenants[i % 3]!,
        businessDay: BATCH_DAY,
        shift: 10,
        number: 30 - i,
        // Quotes, backslashes, braces, commas and "NULL" must survive the statement's array parameters.
        items: [{ name: i % 5 ? `Dish ${i}` : `Gyōza «${i}» "crispy", {x} \\ \\"`, qty: i + 1 }],
        note: i % 2 ? `note ${i}` : i % 3 ? "NULL" : undefined,
        channel: i % 2 ? "api" : "kiosk",
        idempotencyKey: i % 4 ? `batch-${i}` : null,
        requestHash: i % 4 ? String(i).repeat(8) : null,
      }),
    );
    const { result, statements } = await insertAll(records);
    expect(statements).toEqual(["nextup-order-insert-batch"]);
    for (const [i, outcome] of result.entries()) {
      expect(outcome.status).toBe("fulfilled");
      const order = (outcome as PromiseFulfilledResult<Order>).value;
      const r = records[i]!;
      expect(order).toMatchObject({ tenantId: r.tenantId, businessDay: BATCH_DAY, shift: 10, number: r.number, status: "PLACED" });
      expect(order).toMatchObject({
        items: r.items,
        note: r.note ?? null,
        channel: r.channel,
        idempotencyKey: r.idempotencyKey,
        idempotencyScope: r.idempotencyScope,
        requestHash: r.requestHash,
      });
      // Field for field what Prisma reads back, types included.
      expect(await viaPrisma.findById(r.tenantId, order.id)).toStrictEqual(order);
    }
    expect(new Set(result.map((o) => (o as PromiseFulfilledResult<Order>).value.id)).size).toBe(30);
  });

  it("gives one of two requests for the same number the row, the other the unique violation, like one stored before", async () => {
    await insertOrder(pool, record({ businessDay: BATCH_DAY, shift: 11, number: 3 }));
    const records = [
      record({ businessDay: BATCH_DAY, shift: 11, number: 1, note: "first" }),
      record({ businessDay: BATCH_DAY, shift: 11, number: 2 }),
      record({ businessDay: BATCH_DAY, shift: 11, number: 1, note: "second" }),
      record({ businessDay: BATCH_DAY, shift: 11, number: 3 }),
      record({ tenantId: otherTenantId, businessDay: BATCH_DAY, shift: 11, number: 1 }),
    ];
    const { result, statements } = await insertAll(records);
    const [a, b, a2, c, other] = result;
    expect([a, a2].filter((o) => o!.status === "fulfilled")).toHaveLength(1);
    for (const refused of [[a, a2].find((o) => o!.status === "rejected"), c]) {
      expect((refused as PromiseRejectedResult).reason).toMatchObject({ code: "23505", constraint: NUMBER_KEY });
    }
    expect(b).toMatchObject({ status: "fulfilled", value: { number: 2, tenantId } });
    expect(other).toMatchObject({ status: "fulfilled", value: { number: 1, tenantId: otherTenantId } });
    const winner = ([a, a2].find((o) => o!.status === "fulfilled") as PromiseFulfilledResult<Order>).value;
    expect(winner.note).toBe(winner === (a as PromiseFulfilledResult<Order>).value ? "first" : "second");
    expect(statements).toEqual(["nextup-order-insert-batch", "nextup-order-insert", "nextup-order-insert"]);
    expect(await stored(tenantId, 11, 1)).toBe(1);
    expect(await stored(tenantId, 11, 3)).toBe(1);
  });

  it("gives one of two requests with the same idempotency key the row, the other the unique violation", async () => {
    const records = [
      record({ businessDay: BATCH_DAY, shift: 12, number: 1, idempotencyKey: "batch-twice" }),
      record({ businessDay: BATCH_DAY, shift: 12, number: 2, idempotencyKey: "batch-once" }),
      record({ businessDay: BATCH_DAY, shift: 12, number: 3, idempotencyKey: "batch-twice" }),
    ];
    const { result, statements } = await insertAll(records);
    const [a, b, a2] = result;
    expect([a, a2].filter((o) => o!.status === "fulfilled")).toHaveLength(1);
    expect(([a, a2].find((o) => o!.status === "rejected") as PromiseRejectedResult).reason).toMatchObject({ code: "23505", constraint: IDEMPOTENCY_KEY });
    expect(b).toMatchObject({ status: "fulfilled", value: { number: 2, idempotencyKey: "batch-once" } });
    expect(statements).toEqual(["nextup-order-insert-batch", "nextup-order-insert"]);
    expect(await db.order.count({ where: { tenantId, idempotencyKey: "batch-twice" } })).toBe(1);
  });

  it("when one row fails the whole statement, stores the others and fails only that caller, with its own error", async () => {
    const records = [
      record({ businessDay: BATCH_DAY, shift: 13, number: 1 }),
      record({ tenantId: randomUUID(), businessDay: BATCH_DAY, shift: 13, number: 2 }), // no such tenant: a foreign-key violation
      record({ tenantId: otherTenantId, businessDay: BATCH_DAY, shift: 13, number: 3 }),
    ];
    const { result, statements } = await insertAll(records);
    const [good, bad, otherGood] = result;
    expect(good).toMatchObject({ status: "fulfilled", value: { tenantId, number: 1 } });
    expect(otherGood).toMatchObject({ status: "fulfilled", value: { tenantId: otherTenantId, number: 3 } });
    expect((bad as PromiseRejectedResult).reason).toMatchObject({ code: "23503", constraint: "Order_tenantId_fkey" });
    expect(statements).toEqual(["nextup-order-insert-batch", "nextup-order-insert", "nextup-order-insert", "nextup-order-insert"]);
    expect(await stored(tenantId, 13, 1)).toBe(1);
    expect(await stored(otherTenantId, 13, 3)).toBe(1);
  });

  it("through the repository, a duplicate in a batch is still a DuplicateNumberError or DuplicateIdempotencyKeyError", async () => {
    const at = (over: Partial<OrderRecord>) => viaSql.insert(record({ businessDay: BATCH_DAY, shift: 14, ...over }));
    const { result, statements } = await counted(() =>
      Promise.allSettled([
        at({ number: 1 }),
        at({ number: 1 }),
        at({ number: 2, idempotencyKey: "repo-twice" }),
        at({ number: 3, idempotencyKey: "repo-twice" }),
      ]),
    );
    expect(statements[0]).toBe("nextup-order-insert-batch");
    expect(result.filter((o) => o.status === "fulfilled")).toHaveLength(2);
    const errors = result.flatMap((o) => (o.status === "rejected" ? [o.reason as unknown] : []));
    expect(errors).toHaveLength(2);
    expect(errors.filter((e) => e instanceof DuplicateNumberError)).toHaveLength(1);
    expect(errors.filter((e) => e instanceof DuplicateIdempotencyKeyError)).toHaveLength(1);
  });
});

describe("a station's part of an order (issue #40)", () => {
  const GRILL = "00000000-0000-4000-8000-0000000000a1";
  const BAR = "00000000-0000-4000-8000-0000000000b1";
  const open = [
    { id: GRILL, name: "Grill", doneAt: null, doneBy: null },
    { id: BAR, name: "Bar", doneAt: null, doneBy: null },
  ];
  const at = new Date(Date.now());
  const doneBy = (id: string, by: string) => open.map((p) => (p.id === id ? { ...p, doneAt: at.toISOString(), doneBy: by } : p));

  it.each([
    ["SQL", viaSql],
    ["Prisma", viaPrisma],
  ])("stores the parts with the order and changes them only from the parts as read (%s)", async (_, repo) => {
    const order = await repo.insert(record({ number: 900 + (repo === viaSql ? 1 : 2), items: [{ name: "Burger", qty: 1, stationId: GRILL }], stations: open }));
    expect(order.stations).toEqual(open);
    expect(order.items).toEqual([{ name: "Burger", qty: 1, stationId: GRILL }]);
    // Two stations read the same parts; the first write wins, the second (still expecting none done) changes nothing.
    const grill = await repo.updateParts(tenantId, order.id, { from: "PLACED", to: "PLACED" }, { from: open, to: doneBy(GRILL, "Ana") }, at, "Ana");
    expect(grill?.stations).toEqual(doneBy(GRILL, "Ana"));
    const stale = await repo.updateParts(tenantId, order.id, { from: "PLACED", to: "READY" }, { from: open, to: doneBy(BAR, "Ben") }, at, "Ben");
    expect(stale).toBeNull();
    const read = await repo.findById(tenantId, order.id);
    expect(read).toMatchObject({ status: "PLACED", stations: doneBy(GRILL, "Ana") });
    expect(await repo.moves(tenantId, order.id)).toEqual([]);
    // From the parts as they are now, the last Done moves it, with its entry in the history.
    const both = doneBy(GRILL, "Ana").map((p) => (p.id === BAR ? { ...p, doneAt: at.toISOString(), doneBy: "Ben" } : p));
    const ready = await repo.updateParts(tenantId, order.id, { from: "PLACED", to: "READY" }, { from: doneBy(GRILL, "Ana"), to: both }, at, "Ben");
    expect(ready).toMatchObject({ status: "READY", readyAt: at, stations: both });
    expect(await repo.moves(tenantId, order.id)).toEqual([{ status: "READY", at, by: "Ben" }]);
  });
});
