/**
 * The ledger's side of decision 0028 on a real PostgreSQL (a database of this file's own:
 * a jump raises every recent ceiling): a reservation never starts below the floor Redis
 * gives it and says when the ceiling was behind; after a failover every recent ceiling
 * jumps by the margin and by what its counter stored in the lookback; the facts of a
 * database without a standby read as "none" with its timeline.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { createLedgerPool, PgCounterLedger } from "@/lib/adapters/postgres/counter-ledger.server";
import { PgDatabaseFacts } from "@/lib/adapters/postgres/database-facts.server";
import { replicationOf } from "@/lib/core/replication";
import { createTestDatabase, type TestDatabase } from "../support/db";

let db: TestDatabase;
let pool: pg.Pool;
let ledger: PgCounterLedger;
let sql: pg.Client;
const DAY = new Date().toISOString().slice(0, 10);

async function tenant(slug: string): Promise<string> {
  const { rows } = await sql.query<{ id: string }>(`INSERT INTO "Tenant" (id, slug, name, "timeZone") VALUES (gen_random_uuid(), $1, $1, 'UTC') RETURNING id`, [
    slug,
  ]);
  return rows[0]!.id;
}
async function series(tenantId: string): Promise<string> {
  const { rows } = await sql.query<{ id: string }>(
    `INSERT INTO "NumberSeries" (id, "tenantId", name, prefix, first, last, channels) VALUES (gen_random_uuid(), $1, 'Kiosk', 'K', 1, 99, '{}') RETURNING id`,
    [tenantId],
  );
  return rows[0]!.id;
}
const ceiling = async (tenantId: string, day = DAY) =>
  (await sql.query<{ c: number }>(`SELECT "ceiling" AS c FROM "CounterCeiling" WHERE "tenantId" = $1 AND "businessDay" = $2`, [tenantId, day])).rows[0]?.c;

beforeAll(async () => {
  db = await createTestDatabase("counter-failover");
  pool = createLedgerPool(db.url, { warn: () => {} });
  ledger = new PgCounterLedger(pool);
  sql = new pg.Client({ connectionString: db.url });
  await sql.connect();
});
afterAll(async () => {
  await sql?.end();
  await pool?.end();
  await db?.drop();
});

describe("a reservation above Redis's floor", () => {
  it("starts above the floor where the ceiling forgot blocks, and says by how much; a ceiling above the floor is untouched by it", async () => {
    const t = await tenant("floor-a");
    expect(await ledger.reserve(t, DAY, 1, 40)).toEqual({ businessDay: DAY, shift: 1, lo: 0, hi: 40 });
    // The failover lost the next two blocks' rows: the ceiling reads 40 while Redis reached 120.
    expect(await ledger.reserve(t, DAY, 1, 40, 120)).toEqual({ businessDay: DAY, shift: 1, lo: 120, hi: 160, ceilingBehind: 80 });
    expect(await ceiling(t)).toBe(160);
    // Redis behind the ceiling (its own blocks are older): the ceiling decides, nothing said.
    expect(await ledger.reserve(t, DAY, 1, 40, 150)).toEqual({ businessDay: DAY, shift: 1, lo: 160, hi: 200 });
  });

  it("a row the failover lost entirely is behind by the whole floor; a series' tickets follow the same rule", async () => {
    const t = await tenant("floor-b");
    expect(await ledger.reserve(t, DAY, 1, 40, 80)).toEqual({ businessDay: DAY, shift: 1, lo: 80, hi: 120, ceilingBehind: 80 });
    const s = await series(t);
    expect(await ledger.reserve({ tenantId: t, seriesId: s }, DAY, 1, 10, 30)).toEqual({ businessDay: DAY, shift: 1, lo: 30, hi: 40, ceilingBehind: 30 });
    expect(await ledger.reserve({ tenantId: t, seriesId: s }, DAY, 1, 10, 40)).toEqual({ businessDay: DAY, shift: 1, lo: 40, hi: 50 });
  });

  it("requests of one turn for one row share an update: the highest floor counts, blocks follow each other", async () => {
    const t = await tenant("floor-c");
    const [a, b] = await Promise.all([ledger.reserve(t, DAY, 1, 10, 50), ledger.reserve(t, DAY, 1, 10, 70)]);
    expect([a, b]).toEqual([
      { businessDay: DAY, shift: 1, lo: 70, hi: 80, ceilingBehind: 70 },
      { businessDay: DAY, shift: 1, lo: 80, hi: 90 },
    ]);
  });
});

describe("the jump after a failover", () => {
  it("raises every recent ceiling by the margin plus the orders its counter stored in the lookback; older days stay", async () => {
    const busy = await tenant("jump-busy");
    const quiet = await tenant("jump-quiet");
    const old = "2020-01-01";
    await ledger.reserve(busy, DAY, 1, 40);
    await ledger.reserve(quiet, DAY, 1, 40);
    await ledger.reserve(quiet, old, 1, 40);
    const s = await series(busy);
    await ledger.reserve({ tenantId: busy, seriesId: s }, DAY, 1, 10);
    // busy: 12 default-series orders, the first 11 within 30 s of the last; 3 of the series.
    const order = (t: string, n: number, secondsAgo: number, seriesId: string | null = null) =>
      sql.query(
        `INSERT INTO "Order" (id, "tenantId", "businessDay", shift, number, prefix, "seriesId", ticket, items, "createdAt")
         VALUES (gen_random_uuid(), $1, $2, 1, $3, $4, $5, $6, '[]', now() - make_interval(secs => $7))`,
        [t, DAY, n, seriesId ? "K" : "", seriesId, seriesId ? n : null, secondsAgo],
      );
    await order(busy, 1, 100);
    for (let n = 2; n <= 12; n++) await order(busy, n, 20 - n);
    for (let n = 1; n <= 3; n++) await order(busy, n, 5, s);

    const jumps = await ledger.jumpPastLoss(80, 30);
    const mine = jumps
      .filter((j) => j.tenantId === busy || j.tenantId === quiet)
      .sort((x, y) => `${x.tenantId}${x.seriesId}`.localeCompare(`${y.tenantId}${y.seriesId}`));
    expect(mine).toEqual(
      expect.arrayContaining([
        { tenantId: busy, seriesId: null, seriesName: null, businessDay: DAY, shift: 1, from: 40, to: 40 + 80 + 11 },
        { tenantId: busy, seriesId: s, seriesName: "Kiosk", businessDay: DAY, shift: 1, from: 10, to: 10 + 80 + 3 },
        { tenantId: quiet, seriesId: null, seriesName: null, businessDay: DAY, shift: 1, from: 40, to: 120 },
      ]),
    );
    expect(mine).toHaveLength(3);
    expect(await ceiling(quiet, old)).toBe(40);
    expect(await ceiling(busy)).toBe(131);
  });
});

describe("the database's facts", () => {
  it("a primary without a standby: none, with its system identifier and timeline 1", async () => {
    const f = await new PgDatabaseFacts(pool).read();
    expect(f).toMatchObject({ synchronousStandbyNames: "", standbys: 0, history: { systemId: expect.stringMatching(/^\d+$/), timeline: expect.any(Number) } });
    expect(f.history!.timeline).toBeGreaterThanOrEqual(1);
    expect(replicationOf(f)).toBe("none");
  });
});
