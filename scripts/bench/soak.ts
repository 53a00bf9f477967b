/**
 * Soak: one app server takes orders at a fixed rate over several tenants for minutes; does
 * its memory or latency drift? Not a test: it prints figures.
 *
 *   npm run build && npm run bench:soak [-- --minutes 10 --rate 300 --tenants 10 --connections 100 --window 30]
 *
 * POST /api/v1/orgs/{slug}/orders at `--rate`/s in total (autocannon overallRate; each
 * connection waits for its answer, so a slow server gets less than the rate: the achieved
 * rate is printed), each connection cycling through the tenants. Latencies are raw:
 * autocannon's coordinated-omission fill, with a rate set, back-fills at 1 ms steps and
 * halves the percentiles instead of raising them.
 * Every `--window` seconds it reads the server's /api/metrics (process_resident_memory_bytes,
 * nodejs_heap_size_used_bytes) and that window's p50/p99. Prints the series, then the slope of
 * heap used over the second half (MB/min, least squares) and, as the run's own baseline, the
 * first half against the second (latency medians, memory). At the end: 0 errors, every stored
 * number unique, stored orders = 2xx answers.
 * Its own database and key prefix; cleans up after.
 */
import autocannon from "autocannon";
import pg from "pg";
import { createTestDatabase } from "../../tests/support/db";
import { SHARED_SERVER_ENV, startAppServer, testKeyPrefix } from "../../tests/support/app-server";
import { provisionTenants } from "../../tests/support/tenants";
import { scrape, valueOf } from "../../tests/support/prometheus";
import { benchArgs, machine, median, pct, runBench } from "./common";

const {
  minutes,
  rate,
  tenants: tenantCount,
  connections,
  window: windowSeconds,
} = benchArgs({ minutes: 10, rate: 300, tenants: 10, connections: 100, window: 30 });
const METRICS_TOKEN = "bench-soak-metrics-token";
const MB = 2 ** 20;
const round2 = (x: number) => Number(x.toFixed(2));

interface Sample {
  atMinutes: number;
  rssMB: number;
  heapUsedMB: number;
  /** The window that ended at this sample (none for the first one). */
  /** The lowest heap used seen in the window (polled every 5 s). */
  heapFloorMB?: number;
  window?: { rps: number; p50: number; p99: number; ok: number; errors: number; non2xx: number };
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
  const server = await startAppServer({
    databaseUrl: db.url,
    keyPrefix: testKeyPrefix("bench-soak"),
    env: { ...SHARED_SERVER_ENV, API_RATE_LIMIT_PER_MINUTE: "100000000", LOG_LEVEL: "error", METRICS_TOKEN },
  });
  const pool = new pg.Pool({ connectionString: db.url, max: 1 });
  try {
    const slugs = Array.from({ length: tenantCount }, (_, i) => `soak-${i}`);
    const tenants = await provisionTenants(
      db.url,
      slugs.map((slug) => ({ slug, name: slug })),
    );
    const body = JSON.stringify({ items: [{ name: "Noodles", qty: 2 }], note: "soak" });
    const orders = (duration: number): autocannon.Options => ({
      url: server.url,
      // Each connection cycles through the tenants.
      requests: slugs.map((slug) => ({
        method: "POST",
        path: `/api/v1/orgs/${slug}/orders`,
        headers: { authorization: `Bearer ${tenants[slug]!.apiKeys.cashier}`, "content-type": "application/json" },
        body,
      })),
      duration,
      connections,
      overallRate: rate,
      ignoreCoordinatedOmission: true,
    });
    const memory = async (startedAt: number): Promise<Sample> => {
      const m = await scrape(server.url, METRICS_TOKEN);
      return {
        atMinutes: round2((performance.now() - startedAt) / 60_000),
        rssMB: round2(valueOf(m, "process_resident_memory_bytes") / MB),
        heapUsedMB: round2(valueOf(m, "nodejs_heap_size_used_bytes") / MB),
      };
    };

    // Warm-up (JIT, pools); its orders count in the uniqueness check but not in the series.
    const warm = await autocannon(orders(5));

    // One continuous run; responses are put into windows by the time they arrive.
    const startedAt = performance.now();
    const samples: Sample[] = [await memory(startedAt)];
    let times: number[] = [];
    let ok = 0;
    let errors = 0;
    let non2xx = 0;
    let heapFloor = Infinity;
    let settle: (r: autocannon.Result) => void = () => {};
    let fail: (e: unknown) => void = () => {};
    const finished = new Promise<autocannon.Result>((resolve, reject) => ([settle, fail] = [resolve, reject]));
    const run = autocannon(orders(minutes * 60), (err: unknown, r: autocannon.Result) => (err ? fail(err) : settle(r)));
    run.on("response", (_client, status, _bytes, ms) => {
      times.push(ms);
      if (status >= 200 && status < 300) ok++;
      else non2xx++;
    });
    run.on("reqError", () => errors++);
    // Heap used between the 30 s samples too: its lowest value (after a collection) is the floor a leak would raise.
    const poll = setInterval(
      () =>
        void memory(startedAt).then(
          (m) => (heapFloor = Math.min(heapFloor, m.heapUsedMB)),
          () => {},
        ),
      5_000,
    );
    const windowsDone = (async () => {
      for (let w = 1; w * windowSeconds <= minutes * 60; w++) {
        await new Promise((r) => setTimeout(r, startedAt + w * windowSeconds * 1000 - performance.now()));
        const s = await memory(startedAt);
        const sorted = times.sort((a, b) => a - b);
        s.heapFloorMB = Math.min(heapFloor, s.heapUsedMB);
        s.window = {
          rps: Math.round(sorted.length / windowSeconds),
          p50: Math.round(pct(sorted, 0.5)),
          p99: Math.round(pct(sorted, 0.99)),
          ok,
          errors,
          non2xx,
        };
        [times, ok, errors, non2xx, heapFloor] = [[], 0, 0, 0, Infinity];
        samples.push(s);
        process.stderr.write(
          `${s.atMinutes.toFixed(1)} min: rss ${s.rssMB} MB, heap used ${s.heapUsedMB} MB (floor ${s.heapFloorMB}); ${s.window.rps}/s, ` +
            `p50 ${s.window.p50} ms, p99 ${s.window.p99} ms, errors ${s.window.errors}, non-2xx ${s.window.non2xx}\n`,
        );
      }
    })();
    const result = await finished;
    clearInterval(poll);
    await windowsDone;

    const end = samples[samples.length - 1]!.atMinutes;
    const secondHalf = samples.filter((s) => s.atMinutes >= end / 2);
    const windowed = samples.filter((s) => s.window);
    const firstWindows = windowed.slice(0, Math.floor(windowed.length / 2)).map((s) => s.window!);
    const lastWindows = windowed.slice(Math.floor(windowed.length / 2)).map((s) => s.window!);
    const half = (ws: NonNullable<Sample["window"]>[]) => ({
      p50ms: median(ws.map((w) => w.p50)),
      p99ms: median(ws.map((w) => w.p99)),
      rps: median(ws.map((w) => w.rps)),
    });

    const { rows } = await pool.query<{ n: number; distinct: number }>(
      `SELECT count(*)::int AS n, count(DISTINCT ("tenantId", "businessDay", shift, number))::int AS distinct FROM "Order"`,
    );
    const metrics = await scrape(server.url, METRICS_TOKEN);
    const first = firstWindows.length ? half(firstWindows) : undefined;
    const last = half(lastWindows);
    const summary = {
      machine: machine(),
      minutes,
      rate,
      tenants: tenantCount,
      connections,
      windowSeconds,
      series: samples,
      heapUsedSlopeSecondHalfMBPerMin: round2(slope(secondHalf.map((s) => ({ x: s.atMinutes, y: s.heapUsedMB })))),
      heapFloorSlopeSecondHalfMBPerMin: round2(slope(secondHalf.filter((s) => s.heapFloorMB).map((s) => ({ x: s.atMinutes, y: s.heapFloorMB! })))),
      rssSlopeSecondHalfMBPerMin: round2(slope(secondHalf.map((s) => ({ x: s.atMinutes, y: s.rssMB })))),
      firstHalf: first,
      secondHalf: last,
      secondToFirstHalf: first ? { p50: round2(last.p50ms / first.p50ms), p99: round2(last.p99ms / first.p99ms) } : undefined,
      rssEndToStart: round2(samples[samples.length - 1]!.rssMB / samples[0]!.rssMB),
      // autocannon's own totals for the whole run.
      run: { rps: Math.round(result.requests.average), p50ms: result.latency.p50, p99ms: result.latency.p99 },
      errors: result.errors + result.timeouts + warm.errors + warm.timeouts,
      non2xx: result.non2xx + warm.non2xx,
      ordersStored: rows[0]!.n,
      // Stored orders minus 2xx answers: requests still in flight when autocannon stopped (at most one per connection per run).
      storedWithoutAnswer: rows[0]!.n - result["2xx"] - warm["2xx"],
      numbersUnique: rows[0]!.n === rows[0]!.distinct,
      // Numbers taken from PostgreSQL because a Redis call exceeded COUNTER_TIMEOUT_MS (a loaded machine).
      numbersFromDatabase: valueOf(metrics, "nextup_number_issue_duration_seconds_count", { source: "database" }),
    };
    process.stdout.write(JSON.stringify(summary, null, 2) + "\n");
  } finally {
    await pool.end();
    await server.stop();
    await db.drop();
  }
}

runBench(main);
