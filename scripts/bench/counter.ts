/**
 * Benchmark: numbers/s and latency of the counter, against raw ioredis INCR measured in
 * the same run with the same client (the limit). Not a test: it prints figures.
 *
 *   npm run bench:counter [-- --seconds 5 --rounds 3 --tenants 200]
 *
 * - raw INCR: `INCR` on one key per tenant, through the same ioredis client (auto-pipelined);
 * - issue path: NumberIssuer.issue (batched Lua script calls, block refills from
 *   PostgreSQL in the background), at 1, 10, 100 and 500 concurrent callers over many tenants;
 * - 1,000 numbers/s, open loop: p50/p99 of the issue path at a steady restaurant-chain rate,
 *   and of raw INCR at the same rate (how noisy the machine is in this run);
 * - database fallback alone: NumberIssuer.issue with Redis unreachable (10 and 100 callers, 1,000/s);
 * - series: the same issue path and fallback for a series' tickets (its own key and
 *   SeriesCeiling, decision 0027), beside the default series' in the same rounds.
 * Starts its own database and Redis key prefix; cleans up after.
 */
import { NumberIssuer } from "@/lib/core/numbering";
import type { Tenant } from "@/lib/core/tenants";
import { RedisCounter, tenantKey } from "@/lib/adapters/redis/counter.server";
import { defineScripts } from "@/lib/adapters/redis/scripts.server";
import { createPrisma } from "@/lib/adapters/postgres/prisma.server";
import { createLedgerPool, PgCounterLedger } from "@/lib/adapters/postgres/counter-ledger.server";
import { createRedis } from "@/lib/server/wiring/redis-clients.server";
import { createTestDatabase } from "../../tests/support/db";
import { testKeyPrefix, TEST_REDIS_URL } from "../../tests/support/app-server";
import { freePort } from "../../tests/support/ports";
import { benchArgs, closedLoop, machine, median, pct, runBench } from "./common";
import { toTenant } from "@/lib/adapters/postgres/rows.server";

const { seconds, rounds, tenants: tenantCount } = benchArgs({ seconds: 5, rounds: 3, tenants: 200 });
const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} } as never;

interface Figures {
  perSecond: number;
  p50: number;
  p99: number;
}

/** Starts `rate` calls per second regardless of completions (open loop); latency per call. */
async function openLoop(rate: number, op: (i: number) => Promise<unknown>): Promise<Figures> {
  const latencies: number[] = [];
  const total = rate * seconds;
  const start = performance.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const t0 = performance.now();
    pending.push(op(i).then(() => void latencies.push(performance.now() - t0)));
  }
  await Promise.all(pending);
  latencies.sort((a, b) => a - b);
  return { perSecond: latencies.length / ((performance.now() - start) / 1000), p50: pct(latencies, 0.5), p99: pct(latencies, 0.99) };
}

async function main() {
  const db = await createTestDatabase("bench_counter");
  const prisma = createPrisma(db.url, { max: 10 });
  const ledgerPool = createLedgerPool(db.url, silent, 10);
  const prefix = testKeyPrefix("bench-counter");
  const redis = createRedis(TEST_REDIS_URL, silent, "bench", { failFast: true });
  const deadRedis = createRedis(`redis://127.0.0.1:${await freePort()}`, silent, "bench-dead", { failFast: true });
  defineScripts(redis);
  defineScripts(deadRedis);
  try {
    await prisma.tenant.createMany({
      data: Array.from({ length: tenantCount }, (_, i) => ({ slug: `bench-${i}`, name: `Bench ${i}`, timeZone: "UTC", dayStartMinutes: 0 })),
    });
    const tenants: Tenant[] = (await prisma.tenant.findMany()).map((r) => toTenant(r));
    const ledger = new PgCounterLedger(ledgerPool);
    const counter = new RedisCounter(redis, prefix, silent);
    const issuer = new NumberIssuer(counter, ledger);
    const fallback = new NumberIssuer(new RedisCounter(deadRedis, prefix, silent), ledger);
    const tenantAt = (i: number) => tenants[i % tenants.length]!;
    // One series per tenant: its tickets are counted on their own key and ceilings.
    const seriesIds = new Map<string, string>();
    for (const t of tenants) seriesIds.set(t.id, (await prisma.numberSeries.create({ data: { tenantId: t.id, name: "Bench", prefix: "B" } })).id);
    const seriesOfAt = (i: number) => seriesIds.get(tenantAt(i).id)!;

    // Warm up: load the scripts, create every counter and its first block.
    await Promise.all(tenants.map((t) => issuer.issue(t)));
    await Promise.all(tenants.map((t) => issuer.issue(t, seriesIds.get(t.id))));
    await Promise.all(tenants.map((t) => redis.incr(tenantKey(prefix, t.id, "raw"))));

    const rows: Record<string, Figures[]> = {};
    const add = (name: string, f: Figures) => (rows[name] ??= []).push(f);
    for (let r = 0; r < rounds; r++) {
      for (const callers of [1, 10, 100, 500]) {
        add(`raw INCR, ${callers} callers`, await closedLoop(callers, seconds, (i) => redis.incr(tenantKey(prefix, tenantAt(i).id, "raw"))));
        add(`issue path, ${callers} callers`, await closedLoop(callers, seconds, (i) => issuer.issue(tenantAt(i))));
        add(`series issue path, ${callers} callers`, await closedLoop(callers, seconds, (i) => issuer.issue(tenantAt(i), seriesOfAt(i))));
      }
      add("raw INCR, 1,000 numbers/s open loop", await openLoop(1000, (i) => redis.incr(tenantKey(prefix, tenantAt(i).id, "raw"))));
      add("issue path, 1,000 numbers/s open loop", await openLoop(1000, (i) => issuer.issue(tenantAt(i))));
      add("database fallback, 10 callers", await closedLoop(10, seconds, (i) => fallback.issue(tenantAt(i))));
      add("database fallback, 100 callers", await closedLoop(100, seconds, (i) => fallback.issue(tenantAt(i))));
      add("series database fallback, 100 callers", await closedLoop(100, seconds, (i) => fallback.issue(tenantAt(i), seriesOfAt(i))));
      add("database fallback, 1,000 numbers/s open loop", await openLoop(1000, (i) => fallback.issue(tenantAt(i))));
      process.stderr.write(`round ${r + 1}/${rounds} done\n`);
    }

    const summary = Object.entries(rows).map(([name, fs]) => ({
      name,
      perSecond: Math.round(median(fs.map((f) => f.perSecond))),
      p50ms: Number(median(fs.map((f) => f.p50)).toFixed(2)),
      p99ms: Number(median(fs.map((f) => f.p99)).toFixed(2)),
    }));
    const ratio = (c: number) => {
      const raw = summary.find((s) => s.name === `raw INCR, ${c} callers`)!.perSecond;
      const ours = summary.find((s) => s.name === `issue path, ${c} callers`)!.perSecond;
      return Number((ours / raw).toFixed(2));
    };
    process.stdout.write(
      JSON.stringify(
        {
          machine: machine(),
          seconds,
          rounds,
          tenants: tenantCount,
          results: summary,
          issueToRawRatio: { 1: ratio(1), 10: ratio(10), 100: ratio(100), 500: ratio(500) },
        },
        null,
        2,
      ) + "\n",
    );
    counter.shutdown();
  } finally {
    redis.disconnect();
    deadRedis.disconnect();
    await Promise.all([prisma.$disconnect(), ledgerPool.end()]);
    await db.drop();
  }
}

runBench(main);
