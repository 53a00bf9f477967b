/**
 * PgCounterLedger's batched `reserveCurrent` (lost counters, and `issueDirect`: every number
 * while Redis is down) on a real PostgreSQL: the calls of one turn of the event loop go out
 * as one statement, a tenant's blocks are disjoint and follow each other in request order,
 * two nodes doing it at once neither collide nor deadlock, the day and shift rules of the
 * single-row statement hold (which a call alone in its turn still uses), and a failing
 * statement fails every caller of its batch.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import pg from "pg";
import { createLedgerPool, PgCounterLedger } from "@/lib/adapters/postgres/counter-ledger.server";
import { createPrisma } from "@/lib/adapters/postgres/prisma.server";
import { addDays } from "@/lib/core/business-day";
import type { Block } from "@/lib/core/ports";

const databaseUrl = inject("databaseUrl");
const silent = { warn: () => {} };
// Days of their own for fresh tenants (PostgreSQL only): relative to today, never pinned.
const DAY = addDays(new Date().toISOString().slice(0, 10), 2);
const NEXT_DAY = addDays(DAY, 1);

/** A ledger on its own pool (one app node), counting the statements it sends. */
function node(): { pool: pg.Pool; ledger: PgCounterLedger; statements: () => number; texts: string[] } {
  const pool = createLedgerPool(databaseUrl, silent);
  let statements = 0;
  const texts: string[] = [];
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  pool.query = ((...args: unknown[]) => {
    statements++;
    if (typeof args[0] === "string") texts.push(args[0]);
    return query(...args);
  }) as never;
  return { pool, ledger: new PgCounterLedger(pool), statements: () => statements, texts };
}

/** One caller: `size` 1 through `issueDirect` (the fallback), anything else through `reserveCurrent`. */
async function call(ledger: PgCounterLedger, tenantId: string, size: number, day = DAY): Promise<Block> {
  if (size !== 1) return ledger.reserveCurrent(tenantId, day, size);
  const n = await ledger.issueDirect(tenantId, day);
  return { businessDay: n.businessDay, shift: n.shift, lo: n.number - 1, hi: n.number };
}

/** The blocks of one tenant are pairwise disjoint and together exactly (0, total]. */
function expectExactCover(blocks: Block[], total: number) {
  const numbers = blocks.flatMap((b) => Array.from({ length: b.hi - b.lo }, (_, k) => b.lo + 1 + k)).sort((x, y) => x - y);
  expect(numbers).toEqual(Array.from({ length: total }, (_, k) => k + 1));
}

describe("the ledger's batched reserveCurrent", () => {
  const db = createPrisma(databaseUrl, { max: 2 });
  const a = node();
  const b = node();
  let seq = 0;

  async function freshTenants(n: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const t = await db.tenant.create({ data: { slug: `ledger-batch-${process.pid}-${Date.now()}-${seq++}`, name: "Ledger", timeZone: "UTC" } });
      ids.push(t.id);
    }
    return ids;
  }
  const ceiling = async (tenantId: string, day: string, shift: number) =>
    (
      await a.pool.query<{ ceiling: number }>(`SELECT "ceiling" FROM "CounterCeiling" WHERE "tenantId" = $1 AND "businessDay" = $2 AND "shift" = $3`, [
        tenantId,
        day,
        shift,
      ])
    ).rows[0]?.ceiling;

  beforeAll(async () => {
    await db.$connect();
  });
  afterAll(async () => {
    await Promise.all([a.pool.end(), b.pool.end()]);
    await db.$disconnect();
  });

  it("sends the calls of one turn as one statement; a tenant's blocks of mixed sizes follow each other in request order", async () => {
    const [t1, t2, t3] = await freshTenants(3);
    // Repeated tenants, interleaved, sizes 1 (issueDirect), 40 (a restore) and others.
    const asked: [string, number][] = [
      [t1!, 1],
      [t2!, 40],
      [t1!, 40],
      [t3!, 1],
      [t1!, 1],
      [t2!, 7],
      [t3!, 1],
      [t1!, 3],
      [t2!, 1],
      [t3!, 40],
    ];
    const before = a.statements();
    const blocks = await Promise.all(asked.map(([t, size]) => call(a.ledger, t, size)));
    expect(a.statements() - before).toBe(1);
    expect(blocks.every((x) => x.businessDay === DAY && x.shift === 1)).toBe(true);
    // Each caller gets its own block, right above the previous caller of its tenant.
    const expected = new Map<string, number>();
    asked.forEach(([t, size], i) => {
      const lo = expected.get(t) ?? 0;
      expect([blocks[i]!.lo, blocks[i]!.hi]).toEqual([lo, lo + size]);
      expected.set(t, lo + size);
    });
    for (const t of [t1!, t2!, t3!]) expect(await ceiling(t, DAY, 1)).toBe(expected.get(t));

    // The next turn continues above.
    const next = await Promise.all([call(a.ledger, t1!, 1), call(a.ledger, t1!, 1)]);
    expect(next.map((x) => x.hi)).toEqual([46, 47]);
  });

  it("1,200 fallback numbers of one turn for 100 tenants: three statements (500 a batch), each tenant numbered 1..12", async () => {
    const tenants = await freshTenants(100);
    const before = a.statements();
    const issued = await Promise.all(Array.from({ length: 1200 }, (_, i) => a.ledger.issueDirect(tenants[i % 100]!, DAY)));
    expect(a.statements() - before).toBe(3);
    tenants.forEach((t, k) => {
      // The three statements run side by side: in order within each, not across them.
      const mine = issued.filter((_, i) => i % 100 === k).map((n) => n.number);
      expect(mine.sort((x, y) => x - y)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    });
  });

  it("a turn mixing default numbers and two series' tickets: one statement per table, each counter numbered 1..n on its own", async () => {
    const [t] = await freshTenants(1);
    const series = await Promise.all(["K", "D"].map((prefix) => db.numberSeries.create({ data: { tenantId: t!, name: prefix, prefix } })));
    const counters = [t!, ...series.map((s) => ({ tenantId: t!, seriesId: s.id }))];
    const before = a.statements();
    const issued = await Promise.all(Array.from({ length: 30 }, (_, i) => a.ledger.issueDirect(counters[i % 3]!, DAY)));
    expect(a.statements() - before).toBe(2);
    counters.forEach((_, k) => {
      const mine = issued.filter((_, i) => i % 3 === k).map((n) => n.number);
      expect(mine.sort((x, y) => x - y)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    });
    // A series' reservations follow a new shift as the default series' do.
    const [k] = await Promise.all([a.ledger.reserve(counters[1]!, DAY, 1, 40), a.ledger.reserve(counters[2]!, DAY, 1, 40)]);
    expect(k).toEqual({ businessDay: DAY, shift: 1, lo: 10, hi: 50 });
  });

  it("two nodes batching for the same tenants at once (in opposite orders) never collide and never deadlock", async () => {
    const tenants = await freshTenants(20);
    const sizes = [1, 1, 40, 1, 5, 1, 40, 2];
    const totals = new Map(tenants.map((t) => [t, 0]));
    const blocks = new Map<string, Block[]>(tenants.map((t) => [t, []]));
    for (let round = 0; round < 40; round++) {
      const onA: [string, number][] = [];
      const onB: [string, number][] = [];
      tenants.forEach((t, i) => {
        for (let k = 0; k < 3; k++) {
          onA.push([t, sizes[(i + k + round) % sizes.length]!]);
          onB.push([t, sizes[(i + 2 * k + round + 3) % sizes.length]!]);
        }
      });
      onB.reverse(); // node B asks for the tenants in the opposite order
      const [ra, rb] = await Promise.all([
        Promise.all(onA.map(([t, size]) => call(a.ledger, t, size))),
        // A block refill (reserve, the other batched statement) of node B, into the same rows.
        Promise.all([...onB.map(([t, size]) => call(b.ledger, t, size)), ...tenants.map((t) => b.ledger.reserve(t, DAY, 1, 40))]),
      ]);
      [...onA, ...onB, ...tenants.map((t): [string, number] => [t, 40])].forEach(([t, size], i) => {
        blocks.get(t)!.push([...ra, ...rb][i]!);
        totals.set(t, totals.get(t)! + size);
      });
    }
    for (const t of tenants) {
      expect(blocks.get(t)!.every((x) => x.businessDay === DAY && x.shift === 1)).toBe(true);
      expectExactCover(blocks.get(t)!, totals.get(t)!);
      expect(await ceiling(t, DAY, 1)).toBe(totals.get(t));
    }
  });

  it("locks a batch's rows in key order: blocked on the lowest row, it holds none of the others", async () => {
    const tenants = await freshTenants(20);
    await Promise.all(tenants.map((t) => call(a.ledger, t, 1))); // the rows exist: the next batch updates them
    const { rows } = await a.pool.query<{ tenantId: string }>(
      `SELECT "tenantId" FROM "CounterCeiling" WHERE "tenantId" = ANY($1::uuid[]) AND "businessDay" = $2 AND "shift" = 1 ORDER BY 1`,
      [tenants, DAY],
    );
    const [lowest, ...others] = rows.map((r) => r.tenantId);
    const holder = new pg.Client({ connectionString: databaseUrl });
    const probe = new pg.Client({ connectionString: databaseUrl });
    await Promise.all([holder.connect(), probe.connect()]);
    try {
      await holder.query("BEGIN");
      await holder.query(`SELECT 1 FROM "CounterCeiling" WHERE "tenantId" = $1 AND "businessDay" = $2 AND "shift" = 1 FOR UPDATE`, [lowest, DAY]);
      const holderPid = (await holder.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
      const batch = Promise.all([...tenants].reverse().map((t) => call(a.ledger, t, 1)));
      const waiting = async () =>
        (await probe.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))", [holderPid])).rows[0]!.n;
      for (let i = 0; (await waiting()) === 0; i++) {
        if (i > 500) throw new Error("the batch never waited for the held row");
        await new Promise((r) => setTimeout(r, 10));
      }
      const free = await probe.query(
        `SELECT 1 FROM "CounterCeiling" WHERE "tenantId" = ANY($1::uuid[]) AND "businessDay" = $2 AND "shift" = 1 FOR UPDATE SKIP LOCKED`,
        [others, DAY],
      );
      expect(free.rowCount).toBe(others.length);
      await holder.query("COMMIT");
      expect((await batch).map((x) => x.hi)).toEqual(tenants.map(() => 2));
    } finally {
      await Promise.all([holder.end(), probe.end()]);
    }
  });

  it("a shift started between batches: the next batch reserves in it, from 1", async () => {
    const [t, other] = await freshTenants(2);
    const first = await Promise.all([call(a.ledger, t!, 1), call(a.ledger, t!, 40), call(a.ledger, other!, 1)]);
    expect(first.map((x) => [x.shift, x.lo, x.hi])).toEqual([
      [1, 0, 1],
      [1, 1, 41],
      [1, 0, 1],
    ]);
    await db.shift.create({ data: { tenantId: t!, businessDay: new Date(`${DAY}T00:00:00Z`), number: 2, startedBy: "test" } });
    const before = a.statements();
    const second = await Promise.all([call(a.ledger, t!, 1), call(a.ledger, other!, 1), call(a.ledger, t!, 40), call(a.ledger, t!, 1)]);
    expect(a.statements() - before).toBe(1);
    expect(second.map((x) => [x.businessDay, x.shift, x.lo, x.hi])).toEqual([
      [DAY, 2, 0, 1],
      [DAY, 1, 1, 2],
      [DAY, 2, 1, 41],
      [DAY, 2, 41, 42],
    ]);
    expect(await ceiling(t!, DAY, 1)).toBe(41); // the old shift is left as it was
  });

  it("follows a later day another node already numbers (day + 1, not day + 2), also when the batch asks for both days", async () => {
    const [ahead, farAhead, fresh] = await freshTenants(3);
    // Another node, whose clock is ahead, numbers the next day: 10 there already.
    await b.ledger.reserve(ahead!, NEXT_DAY, 1, 10);
    await b.ledger.reserve(farAhead!, addDays(DAY, 2), 1, 10);
    const before = a.statements();
    const got = await Promise.all([
      call(a.ledger, ahead!, 1),
      call(a.ledger, farAhead!, 1),
      call(a.ledger, ahead!, 40, NEXT_DAY), // this node's own clock crossed midnight within the turn
      call(a.ledger, fresh!, 40),
      call(a.ledger, ahead!, 1),
      call(a.ledger, fresh!, 1, NEXT_DAY),
    ]);
    expect(a.statements() - before).toBe(1);
    expect(got.map((x) => [x.businessDay, x.shift, x.lo, x.hi])).toEqual([
      [NEXT_DAY, 1, 10, 11],
      [DAY, 1, 0, 1], // two days ahead is not followed
      [NEXT_DAY, 1, 11, 51], // the same row as the callers for DAY: one update, split in order
      [DAY, 1, 0, 40],
      [NEXT_DAY, 1, 51, 52],
      [NEXT_DAY, 1, 0, 1], // nothing of the next day was stored before this statement
    ]);
    expect(await ceiling(ahead!, DAY, 1)).toBeUndefined();
    expect(await ceiling(ahead!, NEXT_DAY, 1)).toBe(52);
  });

  it("a call alone in its turn goes as the single-row statement, with the same day and shift rules", async () => {
    const [ahead, farAhead, shifted] = await freshTenants(3);
    await b.ledger.reserve(ahead!, NEXT_DAY, 1, 10);
    await b.ledger.reserve(farAhead!, addDays(DAY, 2), 1, 10);
    await db.shift.create({ data: { tenantId: shifted!, businessDay: new Date(`${DAY}T00:00:00Z`), number: 2, startedBy: "test" } });
    const from = a.texts.length;
    const got: Block[] = [];
    for (const [tenant, size] of [
      [ahead!, 1],
      [farAhead!, 1],
      [shifted!, 1],
      [shifted!, 40],
      [ahead!, 1],
    ] as const)
      got.push(await call(a.ledger, tenant, size));
    const sent = a.texts.slice(from);
    expect(sent).toHaveLength(5);
    expect(sent.filter((t) => t.includes("unnest"))).toEqual([]);
    expect(got.map((x) => [x.businessDay, x.shift, x.lo, x.hi])).toEqual([
      [NEXT_DAY, 1, 10, 11], // a later day another node numbers is followed
      [DAY, 1, 0, 1], // two days ahead is not
      [DAY, 2, 0, 1], // the latest shift
      [DAY, 2, 1, 41],
      [NEXT_DAY, 1, 11, 12],
    ]);
    expect(await ceiling(ahead!, DAY, 1)).toBeUndefined();
  });

  it("a failing statement fails every caller of its batch, and reserves nothing for any of them", async () => {
    const [t] = await freshTenants(1);
    const unknown = "00000000-0000-4000-8000-000000000000"; // no such tenant: the foreign key refuses it
    const before = a.statements();
    const results = await Promise.allSettled([call(a.ledger, t!, 1), call(a.ledger, unknown, 40), call(a.ledger, t!, 40), call(a.ledger, t!, 1)]);
    expect(a.statements() - before).toBe(1);
    for (const r of results) {
      expect(r.status).toBe("rejected");
      expect(String((r as PromiseRejectedResult).reason)).toMatch(/foreign key/);
    }
    expect(await ceiling(t!, DAY, 1)).toBeUndefined();
    // The next batch is unaffected.
    expect((await call(a.ledger, t!, 1)).hi).toBe(1);
  });

  it("a closed pool rejects every caller of the batch", async () => {
    const [t] = await freshTenants(1);
    const closed = node();
    await closed.pool.end();
    const results = await Promise.allSettled([call(closed.ledger, t!, 1), call(closed.ledger, t!, 40), call(closed.ledger, t!, 1)]);
    expect(closed.statements()).toBe(1);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected", "rejected"]);
  });
});
