/**
 * Benchmark: how cost grows with the number of tenants and with the orders of one day.
 * Not a test: it prints figures, each a median over rounds next to a baseline of the same run.
 *
 *   npm run build && npm run bench:growth [-- --part all --tenants 1,1000,100000 --callers 100 --seconds 3 --rounds 3
 *                                            --orders 100000 --small 10 --rate 200 --post-seconds 4 --board-rate 20]
 *
 * Part "counter" (no app server): for each tenant count N (tenants as rows inserted by raw
 * SQL), the counter as scripts/bench/counter.ts builds it (NumberIssuer over RedisCounter and
 * PgCounterLedger, its own key prefix) issues numbers round-robin over the N tenants from
 * `--callers` closed-loop callers; baseline: raw INCR on one key per tenant, same callers
 * and tenants. Redis memory per tenant-day: MEMORY USAGE summed over the run's keys (SCAN on
 * the prefix) / N, and INFO used_memory's delta while the keys were created; then one
 * counter hash field by field, and the same hash under the production prefix `nextup:`.
 *
 * Part "day" (one app server): per round, a fresh tenant whose current shift already holds
 * `--small` orders, and one holding `--orders` orders (inserted by one SQL statement; all
 * but the last `--small` collected, so both boards show the same open orders), with the
 * counter's ceiling set as the app leaves it after a Redis restart, so numbers continue at
 * N + 1. Then GET …/board at `--board-rate`/s and POST …/orders at `--rate`/s (open loop:
 * common.ts's openLoop), small tenant first. Checks: 0 errors, numbers unique and
 * continuing after the inserted ones.
 *
 * Its own database and key prefixes; cleans up after.
 */
import pg from "pg";
import type { Redis } from "ioredis";
import { NumberIssuer } from "@/lib/core/numbering";
import { businessDayAt } from "@/lib/core/business-day";
import type { Tenant } from "@/lib/core/tenants";
import { RedisCounter, tenantKey } from "@/lib/adapters/redis/counter.server";
import { defineScripts } from "@/lib/adapters/redis/scripts.server";
import { createLedgerPool, PgCounterLedger } from "@/lib/adapters/postgres/counter-ledger.server";
import { createRedis } from "@/lib/server/wiring/redis-clients.server";
import { createTestDatabase, type TestDatabase } from "../../tests/support/db";
import { SHARED_SERVER_ENV, startAppServer, testKeyPrefix, TEST_REDIS_URL } from "../../tests/support/app-server";
import { provisionTenants } from "../../tests/support/tenants";
import { scrape, valueOf } from "../../tests/support/prometheus";
import { benchArgs, closedLoop, machine, median, openLoop, runBench, type LoadFigures, type LoadRequest, round2 } from "./common";
import { toTenant } from "@/lib/adapters/postgres/rows.server";

const args = benchArgs({
  part: "all",
  tenants: "1,1000,100000",
  callers: 100,
  seconds: 3,
  rounds: 3,
  orders: 100000,
  small: 10,
  rate: 200,
  "post-seconds": 4,
  "board-rate": 20,
});
const { part, callers, seconds, rounds, orders: bigDay, small: smallDay, rate, "post-seconds": postSeconds, "board-rate": boardRate } = args;
const tenantCounts = args.tenants.split(",").map(Number);

const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} } as never;

/** Runs `op` once per item with `callers` workers (every tenant's first number of the day). */
async function eachOnce<T>(items: readonly T[], op: (t: T) => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(callers, items.length) }, async () => {
      while (next < items.length) await op(items[next++]!);
    }),
  );
  return items.length / ((performance.now() - t0) / 1000);
}

async function usedMemory(redis: Redis): Promise<number> {
  return Number(/used_memory:(\d+)/.exec(await redis.info("memory"))![1]);
}

async function scanKeys(redis: Redis, pattern: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = "0";
  do {
    const [c, batch] = await redis.scan(cursor, "MATCH", pattern, "COUNT", 5000);
    cursor = c;
    keys.push(...batch);
  } while (cursor !== "0");
  return keys;
}

/** MEMORY USAGE summed over `keys`, 1,000 per pipeline. */
async function memoryUsage(redis: Redis, keys: readonly string[]): Promise<number> {
  let sum = 0;
  for (let i = 0; i < keys.length; i += 1000) {
    const p = redis.pipeline();
    for (const k of keys.slice(i, i + 1000)) p.memory("USAGE", k);
    for (const [e, v] of (await p.exec())!) sum += e ? 0 : Number(v);
  }
  return sum;
}

async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  const keys = await scanKeys(redis, `${prefix}*`);
  for (let i = 0; i < keys.length; i += 1000) await redis.unlink(...keys.slice(i, i + 1000));
}

/** N tenants as bare rows (all a counter needs: CounterCeiling references them). */
async function insertTenants(pool: pg.Pool, label: string, n: number): Promise<Tenant[]> {
  const { rows } = await pool.query(
    `INSERT INTO "Tenant" ("id", "slug", "name", "timeZone", "dayStartMinutes")
     SELECT gen_random_uuid(), $1 || '-' || i, 'Growth ' || i, 'Europe/Berlin', 240 FROM generate_series(1, $2::int) AS i
     RETURNING *`,
    [label, n],
  );
  return rows.map((r) => toTenant(r as Parameters<typeof toTenant>[0]));
}

/** Bytes of one listpack entry (Redis 7): integer encodings for canonical integers, else a string, plus its back-length. */
function listpackEntryBytes(v: string): number {
  let body: number;
  if (/^(0|-?[1-9]\d{0,17})$/.test(v)) {
    const n = Math.abs(Number(v));
    body = Number(v) >= 0 && n <= 127 ? 1 : n < 4096 ? 2 : n < 32768 ? 3 : n < 8388608 ? 4 : n < 2147483648 ? 5 : 9;
  } else {
    const len = Buffer.byteLength(v);
    body = (len < 64 ? 1 : len < 4096 ? 2 : 5) + len;
  }
  return body + (body <= 127 ? 1 : 2);
}

/**
 * One counter hash taken apart: its fields, MEMORY USAGE with all of them, then with each
 * removed in turn (on a copy), and a copy under the production prefix `nextup:` (a random
 * sibling of it, deleted at once) to show what the test prefix's longer name adds.
 */
async function anatomy(redis: Redis, key: string, prefix: string) {
  const fields = await redis.hgetall(key);
  const usage = Number(await redis.memory("USAGE", key));
  const copy = `${prefix}anatomy-copy`;
  const withoutField: Record<string, number> = {};
  for (const f of Object.keys(fields)) {
    await redis.copy(key, copy, "REPLACE");
    await redis.hdel(copy, f);
    withoutField[f] = usage - Number(await redis.memory("USAGE", copy));
  }
  await redis.del(copy);
  // Same length as the production prefix "nextup:" (7 characters); never a real deployment's key.
  const short = key.replace(prefix, `nx${Math.random().toString(16).slice(2, 6)}:`);
  await redis.copy(key, short, "REPLACE");
  const shortUsage = Number(await redis.memory("USAGE", short));
  await redis.del(short);
  const perField = Object.fromEntries(Object.entries(fields).map(([f, v]) => [f, listpackEntryBytes(f) + listpackEntryBytes(v)]));
  return {
    key,
    keyNameBytes: Buffer.byteLength(key),
    encoding: await redis.object("ENCODING", key),
    ttlHours: round2((await redis.pttl(key)) / 3_600_000),
    fields,
    // The hash's payload: 6 bytes of header and 1 of end, plus each field and its value.
    listpackBytesPerField: perField,
    listpackBytes: 7 + Object.values(perField).reduce((a, b) => a + b, 0),
    memoryUsage: usage,
    memoryUsageWithProductionPrefix: shortUsage,
    savedByRemovingField: withoutField,
  };
}

async function counterPart(db: TestDatabase) {
  const pool = new pg.Pool({ connectionString: db.url, max: 2 });
  const ledgerPool = createLedgerPool(db.url, silent, 10);
  const redis = createRedis(TEST_REDIS_URL, silent, "bench-growth", { failFast: true });
  defineScripts(redis);
  const out = [];
  try {
    for (const n of tenantCounts) {
      const prefix = testKeyPrefix(`bench-growth-${n}`);
      const tenants = await insertTenants(pool, `g${n}`, n);
      const counter = new RedisCounter(redis, prefix, silent);
      const issuer = new NumberIssuer(counter, new PgCounterLedger(ledgerPool));
      const rawKeys = tenants.map((t) => tenantKey(prefix, t.id, "raw"));
      try {
        // Creating the keys: each tenant's first number of the day (the counter restores from
        // the ledger: one PostgreSQL statement per tenant), then each raw key's first INCR.
        const m0 = await usedMemory(redis);
        const firstNumbersPerSecond = await eachOnce(tenants, (t) => issuer.issue(t));
        const m1 = await usedMemory(redis);
        const firstIncrPerSecond = await eachOnce(rawKeys, (k) => redis.incr(k));
        const m2 = await usedMemory(redis);
        const counterKeys = await scanKeys(redis, `${prefix}*:n`);
        const counterBytesAtStart = await memoryUsage(redis, counterKeys);
        const rawBytesAtStart = await memoryUsage(redis, rawKeys);

        const raw = [];
        const issue = [];
        for (let r = 0; r < rounds; r++) {
          raw.push(await closedLoop(callers, seconds, (i) => redis.incr(rawKeys[i % n]!)));
          issue.push(await closedLoop(callers, seconds, (i) => issuer.issue(tenants[i % n]!)));
        }
        const counterBytes = await memoryUsage(redis, counterKeys);
        const rawBytes = await memoryUsage(redis, rawKeys);
        const rawPerSecond = median(raw.map((f) => f.perSecond));
        const issuePerSecond = median(issue.map((f) => f.perSecond));
        const row = {
          tenants: n,
          callers,
          counterKeys: counterKeys.length,
          rawIncrPerSecond: Math.round(rawPerSecond),
          rawIncrP50ms: round2(median(raw.map((f) => f.p50))),
          rawIncrP99ms: round2(median(raw.map((f) => f.p99))),
          issuePerSecond: Math.round(issuePerSecond),
          issueP50ms: round2(median(issue.map((f) => f.p50))),
          issueP99ms: round2(median(issue.map((f) => f.p99))),
          issueToRawRatio: round2(issuePerSecond / rawPerSecond),
          firstNumberOfDayPerSecond: Math.round(firstNumbersPerSecond),
          firstRawIncrPerSecond: Math.round(firstIncrPerSecond),
          counterBytesPerTenantDay: Math.round(counterBytes / n),
          counterBytesPerTenantDayAtFirstNumber: Math.round(counterBytesAtStart / n),
          counterUsedMemoryDeltaPerTenant: Math.round((m1 - m0) / n),
          rawBytesPerTenant: Math.round(rawBytes / n),
          rawBytesPerTenantAtFirstIncr: Math.round(rawBytesAtStart / n),
          rawUsedMemoryDeltaPerTenant: Math.round((m2 - m1) / n),
          anatomy: await anatomy(redis, counterKeys[0]!, prefix),
        };
        process.stderr.write(
          `${n} tenants: issue ${row.issuePerSecond}/s vs raw INCR ${row.rawIncrPerSecond}/s (${row.issueToRawRatio}); ` +
            `${row.counterBytesPerTenantDay} B/tenant-day (used_memory Δ ${row.counterUsedMemoryDeltaPerTenant}) vs raw ${row.rawBytesPerTenant} B\n`,
        );
        out.push(row);
      } finally {
        counter.shutdown();
        await deleteKeys(redis, prefix);
      }
    }
  } finally {
    redis.disconnect();
    await Promise.all([pool.end(), ledgerPool.end()]);
  }
  return out;
}

/**
 * `count` orders in shift 1 of `day`, numbers 1…count, all but the last `open` collected;
 * and the counter's ceiling at `count`, as the ledger holds it once those numbers were issued:
 * the app's Redis counter (empty under this run's prefix) restores from it and continues at count + 1.
 */
async function fillDay(pool: pg.Pool, tenantId: string, day: string, count: number, open: number): Promise<void> {
  await pool.query(
    `INSERT INTO "Order" ("id", "tenantId", "businessDay", "shift", "number", "status", "items", "note", "channel", "createdAt", "readyAt", "collectedAt")
     SELECT gen_random_uuid(), $1::uuid, $2::date, 1, i, s.status::"OrderStatus", '[{"name":"Noodles","qty":2}]'::jsonb, 'prefill', 'api', s.at,
            CASE WHEN s.status = 'COLLECTED' THEN s.at + interval '5 minutes' END, CASE WHEN s.status = 'COLLECTED' THEN s.at + interval '6 minutes' END
     FROM generate_series(1, $3::int) AS i,
          LATERAL (SELECT CASE WHEN i > $3::int - $4::int THEN 'PLACED' ELSE 'COLLECTED' END AS status, now() - make_interval(secs => ($3::int - i) * 0.1) AS at) AS s`,
    [tenantId, day, count, open],
  );
  // A fresh tenant's first reservation: the ceiling becomes `count` (the ledger writes every ceiling).
  await new PgCounterLedger(pool).reserve(tenantId, day, 1, count);
}

const METRICS_TOKEN = "bench-growth-metrics-token";

async function dayPart(db: TestDatabase) {
  const server = await startAppServer({
    databaseUrl: db.url,
    keyPrefix: testKeyPrefix("bench-growth-day"),
    env: { ...SHARED_SERVER_ENV, API_RATE_LIMIT_PER_MINUTE: "100000000", LOG_LEVEL: "error", METRICS_TOKEN },
  });
  const pool = new pg.Pool({ connectionString: db.url, max: 2 });
  try {
    const cases = [
      { name: "small", orders: smallDay },
      { name: "big", orders: bigDay },
    ];
    const specs = Array.from({ length: rounds }, (_, r) => cases.map((c) => ({ slug: `${c.name}-${r}`, name: `${c.name} ${r}` }))).flat();
    const tenants = await provisionTenants(db.url, [{ slug: "warm", name: "Warm-up" }, ...specs]);
    // provisionTenants' default rule (Europe/Berlin, day starts 04:00).
    const day = businessDayAt(new Date(), { timeZone: "Europe/Berlin", dayStartMinutes: 240 });
    for (const s of specs) {
      const t0 = performance.now();
      const n = s.slug.startsWith("big") ? bigDay : smallDay;
      await fillDay(pool, tenants[s.slug]!.id, day, n, Math.min(smallDay, n));
      process.stderr.write(`${s.slug}: ${n} orders inserted in ${Math.round(performance.now() - t0)} ms\n`);
    }
    await pool.query("ANALYZE");

    const post = (slug: string, seconds: number) => {
      const req: LoadRequest = {
        method: "POST",
        path: `/api/v1/orgs/${slug}/orders`,
        headers: { authorization: `Bearer ${tenants[slug]!.apiKeys.cashier}`, "content-type": "application/json" },
        body: JSON.stringify({ items: [{ name: "Noodles", qty: 2 }], note: "bench" }),
      };
      return openLoop({ url: server.url, rate, seconds, connections: 50, next: () => req });
    };
    const board = (slug: string, seconds = postSeconds) => {
      const req: LoadRequest = { method: "GET", path: `/api/v1/orgs/${slug}/board`, headers: {} };
      return openLoop({ url: server.url, rate: boardRate, seconds, connections: 10, next: () => req });
    };
    // Warm up both routes (JIT, pools).
    await post("warm", 2);
    await board("warm", 2);

    const results: Record<string, { board: LoadFigures; post: LoadFigures }[]> = { small: [], big: [] };
    for (let r = 0; r < rounds; r++) {
      for (const c of cases) {
        const slug = `${c.name}-${r}`;
        const b = await board(slug);
        const p = await post(slug, postSeconds);
        results[c.name]!.push({ board: b, post: p });
        process.stderr.write(
          `round ${r + 1} ${c.name} (${c.orders} in the day): POST p50 ${p.p50} / p99 ${p.p99} ms at ${p.rps.toFixed(0)}/s, ` +
            `board p50 ${b.p50} / p99 ${b.p99} ms; failed or non-2xx ${p.bad + b.bad}\n`,
        );
      }
    }

    // Every tenant: numbers unique, and the API's numbers continue right after the inserted ones.
    const { rows: check } = await pool.query<{ slug: string; n: number; distinct: number; firstApi: number | null; max: number }>(
      `SELECT t.slug, count(*)::int AS n, count(DISTINCT (o."businessDay", o.shift, o.number))::int AS distinct,
              min(o.number) FILTER (WHERE o.note = 'bench')::int AS "firstApi", max(o.number)::int AS max
       FROM "Order" o JOIN "Tenant" t ON t.id = o."tenantId" GROUP BY t.slug ORDER BY t.slug`,
    );
    const metrics = await scrape(server.url, METRICS_TOKEN);
    const summarize = (name: string) => {
      const rs = results[name]!;
      return {
        ordersInDay: name === "big" ? bigDay : smallDay,
        postPerSecond: Math.round(median(rs.map((x) => x.post.rps))),
        postP50ms: median(rs.map((x) => x.post.p50)),
        postP99ms: median(rs.map((x) => x.post.p99)),
        boardPerSecond: Math.round(median(rs.map((x) => x.board.rps))),
        boardP50ms: median(rs.map((x) => x.board.p50)),
        boardP99ms: median(rs.map((x) => x.board.p99)),
      };
    };
    const small = summarize("small");
    const big = summarize("big");
    return {
      rate,
      boardRate,
      postSeconds,
      rounds,
      small,
      big,
      bigToSmall: {
        postP50: round2(big.postP50ms / small.postP50ms),
        postP99: round2(big.postP99ms / small.postP99ms),
        boardP50: round2(big.boardP50ms / small.boardP50ms),
        boardP99: round2(big.boardP99ms / small.boardP99ms),
      },
      // Failed requests and non-2xx answers.
      bad: Object.values(results)
        .flat()
        .reduce((s, x) => s + x.post.bad + x.board.bad, 0),
      numbersUnique: check.every((c) => c.n === c.distinct),
      // The first API number right after the inserted ones (the counter agreed with the day).
      numbersContinue: check.filter((c) => c.slug !== "warm").every((c) => c.firstApi === (c.slug.startsWith("big") ? bigDay : smallDay) + 1),
      // Numbers drawn but never stored (gaps, never duplicates): openLoop waits for every answer, so only a Redis call past its timeout leaves one.
      gaps: check.reduce((s, c) => s + c.max - c.n, 0),
      // Numbers the server took from PostgreSQL because a Redis call exceeded COUNTER_TIMEOUT_MS (each skips the rest of a block).
      numbersFromDatabase: valueOf(metrics, "nextup_number_issue_duration_seconds_count", { source: "database" }),
      counterSwitchesToDatabase: valueOf(metrics, "nextup_counter_switches_total", { to: "database" }),
      perTenant: check,
    };
  } finally {
    await pool.end();
    await server.stop();
  }
}

async function main() {
  const db = await createTestDatabase("bench_growth");
  try {
    const counter = part === "all" || part === "counter" ? await counterPart(db) : undefined;
    const day = part === "all" || part === "day" ? await dayPart(db) : undefined;
    process.stdout.write(JSON.stringify({ machine: machine(), seconds, rounds, targetBytesPerTenantDay: 200, counter, dayGrowth: day }, null, 2) + "\n");
  } finally {
    await db.drop();
  }
}

runBench(main);
