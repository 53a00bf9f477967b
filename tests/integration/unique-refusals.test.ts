/**
 * Why an order was refused does not depend on the order PostgreSQL checks the unique
 * indexes in (decision 0034). PostgreSQL names the first index a row breaks, in the order
 * the indexes were created; a dump and restore recreates them in another. Here: a database
 * as migrated, and one whose Order unique indexes were dropped and recreated in reverse
 * order, each given the same collisions, through SQL and through Prisma — a number repeated
 * in its shift (with or without an open order still showing it), a number only open in an
 * earlier shift, a series' repeated ticket, and a repeated idempotency key on top.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PrismaOrderRepository } from "@/lib/adapters/postgres/order-repository.server";
import { createPrisma, poolFor, prismaFor } from "@/lib/adapters/postgres/prisma.server";
import { DuplicateIdempotencyKeyError, DuplicateNumberError, NumberOpenError, type OrderRecord } from "@/lib/core/ports";
import { createTestDatabase, type TestDatabase } from "../support/db";
import { insertSeries } from "../support/tenants";

const DAY = "2026-03-02";

/** The unique indexes of "Order", in the order PostgreSQL checks them (creation order). */
async function uniqueIndexes(url: string): Promise<{ name: string; def: string }[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; def: string }>(
      `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS def FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
       WHERE i.indrelid = '"Order"'::regclass AND i.indisunique AND NOT i.indisprimary ORDER BY i.indexrelid`,
    );
    return rows;
  } finally {
    await client.end();
  }
}

/** Drops the unique indexes of "Order" and creates them again, last first. */
async function reverseIndexes(url: string): Promise<void> {
  const indexes = await uniqueIndexes(url);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const ix of indexes) await client.query(`DROP INDEX "${ix.name}"`);
    for (const ix of [...indexes].reverse()) await client.query(ix.def);
  } finally {
    await client.end();
  }
}

describe.each([
  ["as migrated", false],
  ["with its unique indexes recreated in reverse order", true],
] as const)("a database %s", (_, reversed) => {
  let database: TestDatabase;
  let tenantId: string;
  let seriesId: string;
  let repos: [string, PrismaOrderRepository][];
  let shift = 0;

  beforeAll(async () => {
    database = await createTestDatabase(reversed ? "refusals-reversed" : "refusals");
    if (reversed) await reverseIndexes(database.url);
    const setup = createPrisma(database.url, { max: 1 });
    tenantId = (await setup.tenant.create({ data: { slug: `refusals-${reversed}`, name: "Refusals", timeZone: "Europe/Berlin" } })).id;
    await setup.$disconnect();
    seriesId = await insertSeries(database.url, tenantId, { name: "Kiosk", prefix: "K", first: 1, last: 99 });
    const db = prismaFor(database.url);
    repos = [
      ["SQL", new PrismaOrderRepository(db, undefined, poolFor(database.url))],
      ["Prisma", new PrismaOrderRepository(db)],
    ];
  });

  afterAll(async () => {
    await prismaFor(database.url).$disconnect();
    await database.drop();
  });

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
    idempotencyScope: null,
    requestHash: null,
    placedBy: null,
    ...over,
  });
  const inSeries = (over: Partial<OrderRecord>) => record({ prefix: "K", seriesId, seriesName: "Kiosk", ...over });

  it(reversed ? "checks the open-number index first now (the setup is what it claims)" : "checks the shift's index before the open-number index", async () => {
    const names = (await uniqueIndexes(database.url)).map((ix) => ix.name);
    const open = names.indexOf("Order_open_number_key");
    const perShift = names.indexOf("Order_tenantId_businessDay_shift_number_key");
    expect(open >= 0 && perShift >= 0).toBe(true);
    expect(open < perShift).toBe(reversed);
    // What PostgreSQL itself names for a row that breaks both.
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const insert = (n: number) =>
        client.query(`INSERT INTO "Order" (id, "tenantId", "businessDay", shift, number) VALUES (gen_random_uuid(), $1, $2, 99, $3)`, [tenantId, DAY, n]);
      await insert(9_001);
      const named = await insert(9_001).then(
        () => null,
        (e: { constraint?: string }) => e.constraint,
      );
      expect(named).toBe(reversed ? "Order_open_number_key" : "Order_tenantId_businessDay_shift_number_key");
    } finally {
      await client.end();
    }
  });

  describe.each(["SQL", "Prisma"])("through %s", (path) => {
    const repo = () => repos.find(([name]) => name === path)![1];
    const next = () => (shift += 10);
    // Each path its own numbers: what the other left open must not be what collides.
    const n = (k: number) => k + (path === "SQL" ? 0 : 50);

    it("a number repeated in its shift while the first is still open is a DuplicateNumberError (the block is distrusted)", async () => {
      const s = next();
      await repo().insert(record({ shift: s, number: n(5) }));
      const e = await repo()
        .insert(record({ shift: s, number: n(5) }))
        .catch((x: unknown) => x);
      expect(e).toBeInstanceOf(DuplicateNumberError);
      expect(e).toMatchObject({ shift: s, number: n(5) });
    });

    it("a number repeated in its shift after the first was collected is a DuplicateNumberError", async () => {
      const s = next();
      const first = await repo().insert(record({ shift: s, number: n(6) }));
      await repo().updateStatus(tenantId, first.id, "PLACED", "READY", new Date(), null);
      await repo().updateStatus(tenantId, first.id, "READY", "COLLECTED", new Date(), null);
      await expect(repo().insert(record({ shift: s, number: n(6) }))).rejects.toBeInstanceOf(DuplicateNumberError);
    });

    it("a number only open in an earlier shift is a NumberOpenError (skipped)", async () => {
      const s = next();
      await repo().insert(record({ shift: s, number: n(7) }));
      const e = await repo()
        .insert(record({ shift: s + 1, number: n(7) }))
        .catch((x: unknown) => x);
      expect(e).toBeInstanceOf(NumberOpenError);
      expect(e).toMatchObject({ number: n(7), prefix: "" });
    });

    it("a series' ticket repeated in its shift, its number still open, is a DuplicateNumberError naming the ticket", async () => {
      const s = next();
      await repo().insert(inSeries({ shift: s, number: n(8), ticket: n(8) }));
      const e = await repo()
        .insert(inSeries({ shift: s, number: n(8), ticket: n(8) }))
        .catch((x: unknown) => x);
      expect(e).toBeInstanceOf(DuplicateNumberError);
      expect(e).toMatchObject({ shift: s, number: n(8) });
      // Another ticket coming round to the open K8 is skipped.
      await expect(repo().insert(inSeries({ shift: s, number: n(8), ticket: n(107) }))).rejects.toBeInstanceOf(NumberOpenError);
    });

    it("a repeated idempotency key, on a repeated open number, is a DuplicateIdempotencyKeyError (the replay answers)", async () => {
      const s = next();
      const keyed = { idempotencyKey: `till-${s}`, idempotencyScope: "api-key:test" };
      await repo().insert(record({ shift: s, number: n(9), ...keyed }));
      await expect(repo().insert(record({ shift: s, number: n(9), ...keyed }))).rejects.toBeInstanceOf(DuplicateIdempotencyKeyError);
    });
  });
});
