/**
 * An order's history names who moved it (issue #38, item 3), on the real PostgreSQL:
 *  - over REST on the run's server: an order taken by one key, moved by two others and
 *    undone, answers its whole history, oldest first; the webhook messages stored with each
 *    change say who; the CSV export's last column says who marked each order ready;
 *  - in the repository, on both ways an order moves (SQL on the pool, and the transaction
 *    that writes its webhook rows): the move and its history entry are one statement — a
 *    move its condition refuses writes no entry, and an entry that cannot be written takes
 *    its move with it.
 * The same rules on in-memory ports, every edge included: tests/unit/order-history.test.ts.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { PrismaOrderRepository } from "@/lib/adapters/postgres/order-repository.server";
import { createPrisma, poolFor, prismaFor, type Db } from "@/lib/adapters/postgres/prisma.server";
import { WebhookOutbox } from "@/lib/adapters/postgres/webhook-outbox.server";
import type { WebhookQueue } from "@/lib/adapters/postgres/webhook-queue.server";
import type { Order, OrderStatus } from "@/lib/core/orders";
import { NumberOpenError, type OrderRecord } from "@/lib/core/ports";
import { ORDER_CSV_COLUMNS } from "@/lib/core/reports/orders-csv";
import { orderMoved } from "@/lib/core/webhooks/events";
import { createTestDatabase, type TestDatabase } from "../support/db";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { apiClient, expectStatus, ISO_TIMESTAMP, type OrderJson } from "../support/http";
import { ContractChecker } from "../support/openapi-contract";
import { provisionTenants, type TestTenant } from "../support/tenants";

const call = apiClient(inject("baseUrl"));
const contract = new ContractChecker();

type HistoryJson = { status: OrderStatus; at: string; by: string | null }[];
type OrderWithHistoryJson = OrderJson & { history: HistoryJson; estimate: unknown };

/** A strict RFC 4180 reader (records end with CRLF; quoted fields may hold anything). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  while (i < text.length) {
    let field = "";
    if (text[i] === '"') {
      i++;
      while (!(text[i] === '"' && text[i + 1] !== '"')) {
        if (i >= text.length) throw new Error("unterminated quoted field");
        field += text[i];
        i += text[i] === '"' ? 2 : 1;
      }
      i++;
    } else {
      while (i < text.length && text[i] !== "," && text[i] !== "\r") field += text[i++];
    }
    row.push(field);
    if (text[i] === ",") {
      i++;
    } else if (text.startsWith("\r\n", i)) {
      rows.push(row);
      row = [];
      i += 2;
    } else throw new Error(`expected , or CRLF at ${i}`);
  }
  return rows;
}

describe("over REST: two kitchen keys and an Undo", () => {
  let t: TestTenant;
  let db: Db;
  const base = () => `/api/v1/orgs/${t.slug}`;
  /** Keys with labels, as a manager makes them: the label is who the history names. */
  const keys = { till: "", pass: "", expo: "" };

  beforeAll(async () => {
    const slug = uniqueSlug("history");
    t = (await provisionTenants(inject("databaseUrl"), [stableDaySpec(slug)]))[slug]!;
    db = createPrisma(inject("databaseUrl"), { max: 1 });
    // An endpoint before the restaurant's first order, so every change writes its webhook messages with it. The
    // run's server refuses to send to 127.0.0.1 (WEBHOOKS_ALLOW_PRIVATE is off): the stored messages are what we read.
    await db.webhookEndpoint.create({
      data: {
        id: randomUUID(),
        tenantId: t.id,
        url: "http://127.0.0.1:9/hook",
        secretEnc: "unused",
        events: ["order.created", "order.ready", "order.collected", "order.cancelled"],
      },
    });
    const make = async (role: string, name: string) =>
      expectStatus(await call<{ key: string }>("POST", `${base()}/keys`, { key: t.apiKeys.manager, json: { role, name } }), 201).key;
    keys.till = await make("cashier", "Till 2");
    keys.pass = await make("kitchen", "Pass screen");
    keys.expo = await make("kitchen", "Expo screen");
  });
  afterAll(async () => {
    await db?.$disconnect();
  });

  const place = async (key = keys.till) =>
    expectStatus(await call<OrderJson>("POST", `${base()}/orders`, { key, json: { items: [{ name: "Beef noodles", qty: 1 }] } }), 201);
  const move = async (o: { id: string }, status: OrderStatus, key: string) =>
    expectStatus(await call<OrderJson>("POST", `${base()}/orders/${o.id}/status`, { key, json: { status } }), 200);
  const history = async (o: { id: string }, key = keys.till) => expectStatus(await call<OrderWithHistoryJson>("GET", `${base()}/orders/${o.id}`, { key }), 200);

  let undone: OrderJson;
  let readied: OrderJson;
  let untouched: OrderJson;

  it("GET …/orders/{id} answers who took the order and who moved it, oldest first, an Undo included", async () => {
    undone = await place();
    const ready1 = await move(undone, "READY", keys.pass);
    const back = await move(undone, "PLACED", keys.expo); // Undo of Ready
    expect(back.readyAt).toBeNull();
    const ready2 = await move(undone, "READY", keys.expo);
    const collected = await move(undone, "COLLECTED", keys.pass);

    const got = await history(undone, keys.pass);
    expect(got.history.map(({ status, by }) => [status, by])).toEqual([
      ["PLACED", "Till 2"],
      ["READY", "Pass screen"],
      ["PLACED", "Expo screen"],
      ["READY", "Expo screen"],
      ["COLLECTED", "Pass screen"],
    ]);
    // The times are the order's own stamps: taken at createdAt, each move at the stamp it set.
    expect(got.history.map((h) => h.at)).toEqual([undone.createdAt, ready1.readyAt, got.history[2]!.at, ready2.readyAt, collected.collectedAt]);
    for (const h of got.history) expect(h.at).toMatch(ISO_TIMESTAMP);
    const times = got.history.map((h) => Date.parse(h.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    // Besides the history, the order as every other answer gives it.
    const order: Partial<OrderWithHistoryJson> = { ...got };
    delete order.history;
    // A collected order is told no wait (decision 0052).
    expect(order.estimate).toBeNull();
    delete order.estimate;
    expect(order).toEqual(collected);

    readied = await place();
    await move(readied, "READY", keys.pass);
    untouched = await place();
    expect((await history(untouched)).history).toEqual([{ status: "PLACED", at: untouched.createdAt, by: "Till 2" }]);
  });

  it("the webhook messages stored with each change say who made it, in the contract's OrderEventData", async () => {
    const rows = await db.webhookDelivery.findMany({ where: { tenantId: t.id }, orderBy: { createdAt: "asc" } });
    const events = rows.map((r) => JSON.parse(r.body) as { type: string; data: { id: string; by: string | null } });
    for (const e of events) expect(contract.schemaProblems("OrderEventData", { $ref: "#/components/schemas/OrderEventData" }, e.data)).toEqual([]);
    const of = (o: OrderJson) => events.filter((e) => e.data.id === o.id).map((e) => [e.type, e.data.by]);
    // An Undo back to PLACED sends no message; every other change names its key.
    expect(of(undone)).toEqual([
      ["order.created", "Till 2"],
      ["order.ready", "Pass screen"],
      ["order.ready", "Expo screen"],
      ["order.collected", "Pass screen"],
    ]);
    expect(of(readied)).toEqual([
      ["order.created", "Till 2"],
      ["order.ready", "Pass screen"],
    ]);
    expect(of(untouched)).toEqual([["order.created", "Till 2"]]);
  });

  it("the CSV's readyBy column says who marked each order ready last; empty for one never ready", async () => {
    const day = undone.businessDay;
    const res = await call<string>("GET", `${base()}/orders.csv?from=${day}&to=${day}`, { key: t.apiKeys.manager });
    expect(res.status).toBe(200);
    const [header, ...lines] = parseCsv(res.body.replace(/^\uFEFF/, ""));
    expect(header).toEqual([...ORDER_CSV_COLUMNS]);
    // The columns of before keep their places: a spreadsheet reading by position reads the same.
    expect(header!.indexOf("display")).toBe(13);
    expect(header!.indexOf("readyBy")).toBe(14);
    expect(lines.map((r) => [r[2], r[3], r[14]])).toEqual([
      [String(undone.number), "COLLECTED", "Expo screen"],
      [String(readied.number), "READY", "Pass screen"],
      [String(untouched.number), "PLACED", ""],
    ]);
  });
});

describe("the move and its history entry are one statement", () => {
  let database: TestDatabase;
  let db: Db;
  let tenantId: string;
  const DAY = "2026-01-15";
  /** A queue that takes every message and sends none: the outbox's rows are written, nothing is delivered. */
  const idleQueue = { enqueue: async () => {}, wake: () => {} } as unknown as WebhookQueue;
  let number = 0;

  beforeAll(async () => {
    database = await createTestDatabase("order_history");
    db = prismaFor(database.url);
    tenantId = (await db.tenant.create({ data: { slug: uniqueSlug("history-sql"), name: "History", timeZone: "UTC" } })).id;
    // Every move of this restaurant is a transaction with its webhook rows (when the repository has an outbox).
    await db.webhookEndpoint.create({
      data: { id: randomUUID(), tenantId, url: "http://127.0.0.1:9/hook", secretEnc: "unused", events: ["order.ready", "order.collected", "order.cancelled"] },
    });
    // A history entry this constraint refuses: its move must not happen either.
    await db.$executeRawUnsafe(`ALTER TABLE "OrderEvent" ADD CONSTRAINT "test_refused_by" CHECK (by IS DISTINCT FROM 'refused')`);
  });
  afterAll(async () => {
    const pool = poolFor(database.url);
    await db?.$disconnect();
    if (!pool.ended) await pool.end();
    await database?.drop();
  });

  const record = (over: Partial<OrderRecord> = {}): OrderRecord => ({
    tenantId,
    businessDay: DAY,
    shift: 1,
    number: ++number,
    prefix: "",
    seriesId: null,
    seriesName: null,
    ticket: null,
    items: [],
    channel: "counter",
    idempotencyKey: null,
    idempotencyScope: null,
    requestHash: null,
    placedBy: "Till 2",
    ...over,
  });
  const entries = async (orderId: string) =>
    db.orderEvent.findMany({ where: { orderId }, orderBy: [{ at: "asc" }, { id: "asc" }], select: { status: true, at: true, by: true } });
  const deliveries = async (order: Order) => (await db.webhookDelivery.findMany({ where: { tenantId } })).filter((d) => d.body.includes(order.id)).length;

  /** The three ways a repository moves an order, made once the database exists. */
  const PATHS = {
    sql: ["SQL on the pool (no webhooks)", () => new PrismaOrderRepository(db, undefined, poolFor(database.url))],
    outbox: ["the outbox's transaction (webhooks)", () => new PrismaOrderRepository(db, new WebhookOutbox(idleQueue, db), poolFor(database.url))],
    prisma: ["Prisma alone (tools)", () => new PrismaOrderRepository(db)],
  } as const;

  for (const [name, [label, on]] of Object.entries(PATHS)) {
    const moved = (tenant: string) => orderMoved({ slug: tenant }, null);

    it(`${label}: a move stores who made it, at its stamp, with the row it updated (${name})`, async () => {
      const r = on();
      const order = await r.insert(record());
      expect(order.placedBy).toBe("Till 2");
      const at = new Date(Date.now() - 60_000);
      const ready = await r.updateStatus(tenantId, order.id, "PLACED", "READY", at, "Li Wei", orderMoved({ slug: "history" }, "Li Wei"));
      expect(ready).toMatchObject({ status: "READY", readyAt: at, placedBy: "Till 2" });
      const back = await r.updateStatus(tenantId, order.id, "READY", "PLACED", new Date(at.getTime() + 1_000), "Ana", moved("history"));
      expect(back).toMatchObject({ status: "PLACED", readyAt: null });
      expect(await entries(order.id)).toEqual([
        { status: "READY", at, by: "Li Wei" },
        { status: "PLACED", at: new Date(at.getTime() + 1_000), by: "Ana" },
      ]);
      // What the order service reads as its history: the same, whichever way the repository reads.
      expect(await r.moves(tenantId, order.id)).toEqual(await entries(order.id));
      expect(await r.moves(randomUUID(), order.id)).toEqual([]);
    });

    it(`${label}: a move its condition refuses writes no entry and no message (${name})`, async () => {
      const r = on();
      const order = await r.insert(record());
      expect(await r.updateStatus(tenantId, order.id, "PLACED", "READY", new Date(), "Li Wei", moved("history"))).not.toBeNull();
      const before = { entries: (await entries(order.id)).length, deliveries: await deliveries(order) };
      // Another screen's stale view: it read PLACED.
      expect(await r.updateStatus(tenantId, order.id, "PLACED", "READY", new Date(), "Bo", moved("history"))).toBeNull();
      // Cleared off the floor meanwhile.
      await db.order.update({ where: { id: order.id }, data: { clearedAt: new Date() } });
      expect(await r.updateStatus(tenantId, order.id, "READY", "COLLECTED", new Date(), "Bo", moved("history"))).toBeNull();
      expect(await entries(order.id)).toHaveLength(before.entries);
      expect(await deliveries(order)).toBe(before.deliveries);
    });

    it(`${label}: an entry that cannot be written takes its move with it (${name})`, async () => {
      const r = on();
      const order = await r.insert(record());
      await expect(r.updateStatus(tenantId, order.id, "PLACED", "READY", new Date(), "refused", moved("history"))).rejects.toThrow();
      expect(await db.order.findUnique({ where: { id: order.id } })).toMatchObject({ status: "PLACED", readyAt: null });
      expect(await entries(order.id)).toEqual([]);
      expect(await deliveries(order)).toBe(0);
    });

    it(`${label}: an Undo meeting the open-number index moves nothing and stores nothing (${name})`, async () => {
      const r = on();
      const first = await r.insert(record());
      await r.updateStatus(tenantId, first.id, "PLACED", "READY", new Date(), "Li Wei");
      await r.updateStatus(tenantId, first.id, "READY", "COLLECTED", new Date(), "Li Wei");
      await r.insert(record({ shift: 2, number: first.number })); // its number, open again in another shift
      await expect(r.updateStatus(tenantId, first.id, "COLLECTED", "READY", new Date(), "Ana", moved("history"))).rejects.toBeInstanceOf(NumberOpenError);
      expect((await entries(first.id)).map((e) => e.status)).toEqual(["READY", "COLLECTED"]);
    });
  }

  it("rows a node of the release before writes (no placedBy, moves without entries) read as a history that lacks them", async () => {
    const r = PATHS.sql[1]();
    const order = await r.insert(record({ placedBy: null }));
    // The previous release's move: the same conditional UPDATE, no entry.
    await db.$executeRaw`UPDATE "Order" SET status = 'READY', "readyAt" = now() WHERE id = ${order.id}::uuid AND status = 'PLACED' AND "clearedAt" IS NULL`;
    expect((await r.findById(tenantId, order.id))!.placedBy).toBeNull();
    expect(await r.moves(tenantId, order.id)).toEqual([]);
    // A move by this release after it is stored as usual.
    await r.updateStatus(tenantId, order.id, "READY", "COLLECTED", new Date(), "Li Wei");
    expect((await r.moves(tenantId, order.id)).map((m) => [m.status, m.by])).toEqual([["COLLECTED", "Li Wei"]]);
  });
});
