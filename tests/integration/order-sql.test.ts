/**
 * The order statements written in SQL (lib/adapters/postgres/order-sql.server.ts) against
 * the Prisma queries they replace, on the real PostgreSQL of the run: the same rows must
 * come back as the same Order, field for field and type for type (dates, nulls, items),
 * whichever path wrote them. Here: the idempotency-key lookup of an order placement.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { poolFor, prismaFor } from "@/lib/adapters/postgres/prisma.server";
import { PrismaOrderRepository } from "@/lib/adapters/postgres/repositories.server";
import type { Order } from "@/lib/core/orders";
import { DuplicateIdempotencyKeyError, type OrderRecord } from "@/lib/core/ports";
import { uniqueSlug } from "../support/fixtures";

const databaseUrl = inject("databaseUrl");
const db = prismaFor(databaseUrl);
const pool = poolFor(databaseUrl);
/** The same repository twice: through Prisma only, and with the statements in SQL. */
const viaPrisma = new PrismaOrderRepository(db);
const viaSql = new PrismaOrderRepository(db, undefined, pool);

const DAY = "2026-03-29"; // a DST change in Europe: a date must not move with the local zone
let tenantId: string;
let otherTenantId: string;

const record = (over: Partial<OrderRecord>): OrderRecord => ({
  tenantId,
  businessDay: DAY,
  shift: 1,
  number: 1,
  items: [],
  channel: "kiosk",
  idempotencyKey: null,
  requestHash: null,
  ...over,
});

beforeAll(async () => {
  const make = async (label: string) => (await db.tenant.create({ data: { slug: uniqueSlug(label), name: label, timeZone: "Europe/Berlin" } })).id;
  tenantId = await make("order-sql");
  otherTenantId = await make("order-sql-other");
});

afterAll(async () => {
  await db.tenant.deleteMany({ where: { id: { in: [tenantId, otherTenantId] } } });
  await db.$disconnect();
  if (!pool.ended) await pool.end();
});

/** Both paths' answer for the key: identical, down to the order of the JSON keys. */
async function byKey(tenant: string, day: string, key: string): Promise<Order | null> {
  const [sql, prisma] = await Promise.all([viaSql.findByIdempotencyKey(tenant, day, key), viaPrisma.findByIdempotencyKey(tenant, day, key)]);
  expect(sql).toStrictEqual(prisma);
  expect(JSON.stringify(sql)).toBe(JSON.stringify(prisma));
  return sql;
}

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
      readyAt: new Date("2026-03-29T00:59:59.123Z"),
      collectedAt: new Date("2026-03-29T01:00:00.456Z"),
      cancelledAt: new Date("2026-03-29T01:30:00.789Z"),
      clearedAt: new Date("2026-03-29T02:00:00.001Z"),
    };
    await db.order.update({ where: { id: order.id }, data: { status: "CANCELLED", ...stamps } });
    expect(await byKey(tenantId, DAY, "till-3")).toStrictEqual({ ...order, status: "CANCELLED", ...stamps });
  });

  it("finds nothing for another key, day or tenant", async () => {
    await viaSql.insert(record({ number: 4, idempotencyKey: "till-4" }));
    expect(await byKey(tenantId, DAY, "till-5")).toBeNull();
    expect(await byKey(tenantId, "2026-03-28", "till-4")).toBeNull();
    expect(await byKey(tenantId, "2026-03-30", "till-4")).toBeNull();
    expect(await byKey(otherTenantId, DAY, "till-4")).toBeNull();
  });

  it("after the unique index refuses a second order with the key, the lookup finds the first", async () => {
    const first = await viaSql.insert(record({ number: 5, items: [{ name: "Udon", qty: 1 }], idempotencyKey: "till-6" }));
    await expect(viaSql.insert(record({ number: 6, idempotencyKey: "till-6" }))).rejects.toBeInstanceOf(DuplicateIdempotencyKeyError);
    await expect(viaPrisma.insert(record({ number: 7, idempotencyKey: "till-6" }))).rejects.toBeInstanceOf(DuplicateIdempotencyKeyError);
    expect(await byKey(tenantId, DAY, "till-6")).toStrictEqual(first);
  });
});
