/**
 * Outages produced for real become typed errors, and 503s: PostgreSQL and Redis on ports
 * where nothing listens, connections cut under a query (a TCP proxy resets them), the
 * server shutting a connection down, a partitioned database. What the server answers
 * (a unique violation) and a caller's own bug stay what they are: not an outage.
 */
import { afterAll, describe, expect, inject, it } from "vitest";
import pg from "pg";
import { createPrisma } from "@/lib/adapters/postgres/prisma.server";
import { createLedgerPool, PgCounterLedger } from "@/lib/adapters/postgres/counter-ledger.server";
import { createPool } from "@/lib/adapters/postgres/pool.server";
import { RedisCounter } from "@/lib/adapters/redis/counter.server";
import { defineScripts } from "@/lib/adapters/redis/scripts.server";
import { createRedis } from "@/lib/server/wiring/redis-clients.server";
import { toAppError, unavailableStore } from "@/lib/server/ops/translate-error.server";
import { isUnavailableError, CounterUnavailableError } from "@/lib/core/ports";
import { freePort } from "../support/ports";
import { TcpProxy } from "../support/tcp-proxy";

const databaseUrl = inject("databaseUrl");
const silent = { info() {}, warn() {}, error() {} };

/** The test database's URL with another port. */
function at(port: number): string {
  const u = new URL(databaseUrl);
  u.port = String(port);
  return u.toString();
}
const pgPort = Number(new URL(databaseUrl).port || 5432);

const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** The error `p` rejects with (fails the test if it resolves). */
async function failure(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    (v) => expect.fail(`expected a failure, got ${JSON.stringify(v)}`),
    (e: unknown) => e,
  );
}

function expect503(e: unknown, store: "database" | "redis") {
  expect(unavailableStore(e), String(e)).toBe(store);
  expect(toAppError(e)).toMatchObject({ code: "UNAVAILABLE", httpStatus: 503 });
}

describe("PostgreSQL unreachable", () => {
  it("nothing listening: Prisma and the counter ledger throw UnavailableError('database')", async () => {
    const closed = at(await freePort());
    const db = createPrisma(closed, { max: 1 });
    const ledgerPool = createLedgerPool(closed, silent, 1);
    cleanups.push(
      () => db.$disconnect(),
      () => ledgerPool.end(),
    );

    const viaPrisma = await failure(db.tenant.findFirst());
    expect(isUnavailableError(viaPrisma)).toBe(true);
    expect((viaPrisma as Error).cause).toMatchObject({ code: "ECONNREFUSED" });
    expect503(viaPrisma, "database");

    const viaLedger = await failure(new PgCounterLedger(ledgerPool).issueDirect("00000000-0000-4000-8000-000000000000", "2030-01-01"));
    expect503(viaLedger, "database");
  });

  it("a connection reset under a query: Prisma, a Prisma transaction and the ledger's pool", async () => {
    const proxy = await TcpProxy.start(pgPort, { label: "pg" });
    const url = at(proxy.port);
    const db = createPrisma(url, { max: 2 });
    const pool = createLedgerPool(url, silent, 1);
    cleanups.push(
      () => db.$disconnect(),
      () => pool.end(),
      () => proxy.close(),
    );
    await db.$queryRaw`SELECT 1`;
    await pool.query("SELECT 1");

    const raw = failure(db.$queryRaw`SELECT pg_sleep(5)`);
    const inTransaction = failure(
      db.$transaction(async (tx) => {
        await tx.$queryRaw`SELECT 1`;
        await tx.$queryRaw`SELECT pg_sleep(5)`;
      }),
    );
    const direct = failure(pool.query("SELECT pg_sleep(5)"));
    await new Promise((r) => setTimeout(r, 300));
    proxy.cutAll();
    for (const e of await Promise.all([raw, inTransaction, direct])) {
      // pg's own report is a plain Error ("Connection terminated unexpectedly"); the pool types it.
      expect(isUnavailableError(e), String(e)).toBe(true);
      expect503(e, "database");
    }
  });

  it("the server shutting the connection down (57P01): still the server's DatabaseError, and a 503", async () => {
    const db = createPrisma(databaseUrl, { max: 1 });
    const pool = createLedgerPool(databaseUrl, silent, 1);
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    cleanups.push(
      () => db.$disconnect(),
      () => pool.end(),
      () => admin.end(),
    );
    const prismaPid = (await db.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`)[0]!.pid;
    const { rows } = await pool.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");

    const viaPrisma = failure(db.$queryRaw`SELECT pg_sleep(5)`);
    const viaPool = failure(pool.query("SELECT pg_sleep(5)"));
    await new Promise((r) => setTimeout(r, 300));
    await admin.query("SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid", [[prismaPid, rows[0]!.pid]]);

    const fromPool = await viaPool;
    expect(fromPool).toBeInstanceOf(pg.DatabaseError);
    expect(fromPool).toMatchObject({ code: "57P01" });
    expect503(fromPool, "database");
    // Prisma reports it as a raw-query error carrying the driver adapter's SQLSTATE.
    const fromPrisma = await viaPrisma;
    expect(fromPrisma).toMatchObject({ code: "P2010", meta: { driverAdapterError: { cause: { originalCode: "57P01" } } } });
    expect503(fromPrisma, "database");
  });

  it("a partitioned database: the connect timeout, and a full pool's wait, are UnavailableError", async () => {
    const proxy = await TcpProxy.start(pgPort, { label: "pg" });
    const pool = createPool({ connectionString: at(proxy.port), max: 1, connectionTimeoutMillis: 300 });
    cleanups.push(
      () => pool.end(),
      () => proxy.close(),
    );
    const held = await pool.connect();
    // The one connection is taken: the next caller waits for it, then gives up.
    const waited = await failure(pool.query("SELECT 1"));
    expect503(waited, "database");
    held.release();
    await pool.query("SELECT 1");

    proxy.blackhole(true);
    proxy.cutAll();
    const timedOut = await failure(pool.query("SELECT 1"));
    expect(isUnavailableError(timedOut)).toBe(true);
    expect503(timedOut, "database");
    proxy.blackhole(false);
  });

  it("what the server answers, and a caller's bug, pass through as they are: not outages", async () => {
    const pool = createPool({ connectionString: databaseUrl, max: 1 });
    cleanups.push(() => pool.end());
    await pool.query("CREATE TEMP TABLE outage_probe (n int PRIMARY KEY)");
    await pool.query("INSERT INTO outage_probe VALUES (1)");
    const duplicate = await failure(pool.query("INSERT INTO outage_probe VALUES (1)"));
    expect(duplicate).toBeInstanceOf(pg.DatabaseError);
    expect(duplicate).toMatchObject({ code: "23505", constraint: "outage_probe_pkey" });
    expect(toAppError(duplicate).code).toBe("INTERNAL");

    const bug = await failure(pool.query("SELECT $1::int", "not an array" as never));
    expect(isUnavailableError(bug)).toBe(false);
    expect(toAppError(bug).code).toBe("INTERNAL");
    // The pool is still fine.
    expect((await pool.query<{ n: number }>("SELECT 2 AS n")).rows[0]!.n).toBe(2);
  });
});

describe("Redis unreachable", () => {
  it("the counter's client (fail fast) on a closed port: CounterUnavailableError, a 503", async () => {
    const redis = createRedis(`redis://127.0.0.1:${await freePort()}`, silent as never, "outage", { failFast: true });
    defineScripts(redis);
    const counter = new RedisCounter(redis, "outage:", silent, { timeoutMs: 2_000, resetMs: 60_000 });
    cleanups.push(
      () => counter.shutdown(),
      () => redis.disconnect(),
    );
    const e = await failure(counter.next("00000000-0000-4000-8000-000000000000", "2030-01-01", Date.now(), Date.now() + 3_600_000));
    expect(e).toBeInstanceOf(CounterUnavailableError);
    expect503(e, "redis");
  });

  it("a queuing client on a closed port gives up with MaxRetriesPerRequestError: a 503", async () => {
    const redis = createRedis(`redis://127.0.0.1:${await freePort()}`, silent as never, "outage");
    cleanups.push(() => redis.disconnect());
    const e = await failure(redis.get("anything"));
    expect((e as Error).name).toBe("MaxRetriesPerRequestError");
    expect503(e, "redis");
  });
});
