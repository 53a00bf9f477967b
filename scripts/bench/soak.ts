/**
 * Soak: one app server takes orders at a steady rate over several tenants for minutes; does
 * its memory or latency drift? Not a test: it prints figures.
 *
 *   npm run build && npm run bench:soak [-- --minutes 10 --rate 300 --tenants 10 --connections 100 --window 30]
 *
 * POST /api/v1/orgs/{slug}/orders in open loop (common.ts: each request sent at its due time,
 * timed from it), the tenants in turn, one window of `--window` seconds after another. After
 * each window, a full garbage collection through the server's inspector and the heap that
 * survived it: the live set, which a leak raises and the collector's timing does not. Also
 * RSS (/api/metrics) and the window's rate and latencies. Prints the series, the slopes over
 * the second half (MB/min, least squares) and, as the run's own baseline, the first half
 * against the second. At the end: 0 errors, every stored number unique, stored orders = 2xx.
 * Its own database and key prefix; cleans up after.
 */
import pg from "pg";
import { createTestDatabase } from "../../tests/support/db";
import { SHARED_SERVER_ENV, startAppServer, testKeyPrefix } from "../../tests/support/app-server";
import { freePort } from "../../tests/support/ports";
import { provisionTenants } from "../../tests/support/tenants";
import { scrape, valueOf } from "../../tests/support/prometheus";
import { benchArgs, machine, median, openLoop, runBench, serverNodeArgs, type LoadRequest, round2 } from "./common";
import { connectInspector } from "./inspector";

const {
  minutes,
  rate,
  tenants: tenantCount,
  connections,
  window: windowSeconds,
} = benchArgs({ minutes: 10, rate: 300, tenants: 10, connections: 100, window: 30 });
const METRICS_TOKEN = "bench-soak-metrics-token";
const MB = 2 ** 20;

interface Sample {
  atMinutes: number;
  rssMB: number;
  /** Heap used right after a full collection. */
  liveHeapMB: number;
  /** The window that ended at this sample (none for the first one). */
  window?: { rps: number; p50: number; p99: number; bad: number };
}

/** Least-squares slope of y over x. */
function slope(points: { x: number; y: number }[]): number {
  const n = points.length;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const num = points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0);
  const den = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  return den === 0 ? NaN : num / den;
}

async function main() {
  const db = await createTestDatabase("bench_soak");
  const inspectPort = await freePort();
  const server = await startAppServer({
    databaseUrl: db.url,
    keyPrefix: testKeyPrefix("bench-soak"),
    env: { ...SHARED_SERVER_ENV, API_RATE_LIMIT_PER_MINUTE: "100000000", LOG_LEVEL: "error", METRICS_TOKEN },
    nodeArgs: [`--inspect=127.0.0.1:${inspectPort}`, ...serverNodeArgs()],
  });
  const inspector = await connectInspector(inspectPort);
  const pool = new pg.Pool({ connectionString: db.url, max: 1 });
  try {
    const slugs = Array.from({ length: tenantCount }, (_, i) => `soak-${i}`);
    const tenants = await provisionTenants(
      db.url,
      slugs.map((slug) => ({ slug, name: slug })),
    );
    const body = JSON.stringify({ items: [{ name: "Noodles", qty: 2 }], note: "soak" });
    let turn = 0;
    const nextOrder = (): LoadRequest => {
      const slug = slugs[turn++ % slugs.length]!;
      return {
        method: "POST",
        path: `/api/v1/orgs/${slug}/orders`,
        headers: { authorization: `Bearer ${tenants[slug]!.apiKeys.cashier}`, "content-type": "application/json" },
        body,
      };
    };
    const load = (seconds: number) => openLoop({ url: server.url, rate, seconds, connections, next: nextOrder });
    const startedAt = performance.now();
    const sample = async (): Promise<Sample> => {
      const liveHeapMB = round2((await inspector.liveHeapBytes()) / MB);
      const m = await scrape(server.url, METRICS_TOKEN);
      return { atMinutes: round2((performance.now() - startedAt) / 60_000), rssMB: round2(valueOf(m, "process_resident_memory_bytes") / MB), liveHeapMB };
    };

    // Warm-up (JIT, pools, caches); its orders count in the checks but not in the series.
    const warm = await load(10);
    let sent = Math.round(rate * 10);
    let bad = warm.bad;

    const samples: Sample[] = [await sample()];
    for (let w = 1; w * windowSeconds <= minutes * 60; w++) {
      const figures = await load(windowSeconds);
      sent += Math.round(rate * windowSeconds);
      bad += figures.bad;
      const s = await sample();
      s.window = { rps: Math.round(figures.rps), p50: figures.p50, p99: figures.p99, bad: figures.bad };
      samples.push(s);
      process.stderr.write(
        `${s.atMinutes.toFixed(1)} min: rss ${s.rssMB} MB, live heap ${s.liveHeapMB} MB; ${s.window.rps}/s, p50 ${s.window.p50} ms, p99 ${s.window.p99} ms, bad ${s.window.bad}\n`,
      );
    }

    const end = samples[samples.length - 1]!.atMinutes;
    const secondHalf = samples.filter((s) => s.atMinutes >= end / 2);
    const windows = samples.flatMap((s) => (s.window ? [s.window] : []));
    const half = (ws: NonNullable<Sample["window"]>[]) => ({
      p50ms: median(ws.map((w) => w.p50)),
      p99ms: median(ws.map((w) => w.p99)),
      rps: median(ws.map((w) => w.rps)),
    });
    const first = windows.length > 1 ? half(windows.slice(0, Math.floor(windows.length / 2))) : undefined;
    const last = half(windows.slice(Math.floor(windows.length / 2)));

    const { rows } = await pool.query<{ n: number; distinct: number }>(
      `SELECT count(*)::int AS n, count(DISTINCT ("tenantId", "businessDay", shift, number))::int AS distinct FROM "Order"`,
    );
    const metrics = await scrape(server.url, METRICS_TOKEN);
    const summary = {
      machine: machine(),
      minutes,
      rate,
      tenants: tenantCount,
      connections,
      windowSeconds,
      series: samples,
      liveHeapSlopeSecondHalfMBPerMin: round2(slope(secondHalf.map((s) => ({ x: s.atMinutes, y: s.liveHeapMB })))),
      rssSlopeSecondHalfMBPerMin: round2(slope(secondHalf.map((s) => ({ x: s.atMinutes, y: s.rssMB })))),
      liveHeapEndToStart: round2(samples[samples.length - 1]!.liveHeapMB / samples[0]!.liveHeapMB),
      rssEndToStart: round2(samples[samples.length - 1]!.rssMB / samples[0]!.rssMB),
      firstHalf: first,
      secondHalf: last,
      secondToFirstHalf: first ? { p50: round2(last.p50ms / first.p50ms), p99: round2(last.p99ms / first.p99ms) } : undefined,
      // Non-2xx answers and failed requests, warm-up included.
      bad,
      ordersStored: rows[0]!.n,
      // Every request was answered before its window ended, so each stored order is a 2xx.
      storedMinus2xx: rows[0]!.n - (sent - bad),
      numbersUnique: rows[0]!.n === rows[0]!.distinct,
      // Numbers taken from PostgreSQL because a Redis call exceeded COUNTER_TIMEOUT_MS (a loaded machine).
      numbersFromDatabase: valueOf(metrics, "nextup_number_issue_duration_seconds_count", { source: "database" }),
    };
    process.stdout.write(JSON.stringify(summary, null, 2) + "\n");
  } finally {
    inspector.close();
    await pool.end();
    await server.stop();
    await db.drop();
  }
}

runBench(main);
