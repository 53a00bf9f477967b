/**
 * Benchmark: orders through the REST API across several restaurants, at saturation and at
 * fixed rates, beside the limits measured in the same run (a bare node:http route, raw
 * PostgreSQL inserts of the same row, the floor: a bare server doing an order's INCR and
 * INSERT, floor-server.ts; the app's cheapest route). Not a test: it prints figures,
 * medians of the rounds.
 *
 *   npm run build && npm run bench:api [-- --seconds 8 --rounds 3 --connections 64 --tenants 8 --series B]
 *   (--series B: each restaurant's orders go to a series with prefix B, counted on its own key: decision 0027)
 *   BENCH_CPU_PROF=/tmp/prof npm run bench:api   # also writes the server's CPU profile there
 *
 * Starts its own database, Redis key prefix and production server; cleans up after.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { randomUUID } from "node:crypto";
import autocannon from "autocannon";
import pg from "pg";
import { createTestDatabase } from "../../tests/support/db";
import { startAppServer, testKeyPrefix, TEST_REDIS_URL } from "../../tests/support/app-server";
import { provisionTenants } from "../../tests/support/tenants";
import { benchArgs, closedLoop, serverNodeArgs, machine, median, openLoop, runBench, ordersRoundRobin, type LoadFigures } from "./common";

const { seconds, rounds, connections, tenants: tenantCount, series } = benchArgs({ seconds: 8, rounds: 3, connections: 64, tenants: 8, series: "" });
/** Open-loop rates (orders/s over all restaurants). */
const RATES = [100, 500, 1000];
const ORDER_BODY = JSON.stringify({ items: [{ name: "Noodles", qty: 2 }], note: "bench", ...(series ? { series: "Bench" } : {}) });
/** The floor knows nothing of series: its body stays the plain order. */
const FLOOR_BODY = JSON.stringify({ items: [{ name: "Noodles", qty: 2 }], note: "bench" });

type Figures = LoadFigures;

/** Closed loop: `connections` clients, each sending its next request when answered. */
async function load(opts: autocannon.Options): Promise<Figures> {
  const r = await autocannon({ ...opts, duration: seconds, connections });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, bad: r.non2xx + r.errors + r.timeouts };
}

/** A server in its own process that prints its port. */
async function startProcess(args: string[]): Promise<{ url: string; stop(): void }> {
  const proc = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  const [line] = (await once(proc.stdout, "data")) as [Buffer];
  return { url: `http://127.0.0.1:${line.toString().trim()}/`, stop: () => proc.kill() };
}

/** A node:http server answering a fixed JSON: the limit of HTTP on this machine. */
const startBareServer = () =>
  startProcess([
    "-e",
    `require("node:http").createServer((q, s) => { s.writeHead(200, { "content-type": "application/json" }); s.end('{"ok":true}'); })
    .listen(0, "127.0.0.1", function () { console.log(this.address().port); });`,
  ]);

/** Closed-loop INSERTs of an order row (a restaurant of its own, numbers 1, 2, 3…) through node-postgres. */
async function rawInserts(databaseUrl: string, tenantId: string, start: number): Promise<Figures & { next: number }> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 16 });
  let next = start;
  const r = await closedLoop(16, seconds, () =>
    pool.query({
      name: "bench-insert-order",
      text: `INSERT INTO "Order" (id, "tenantId", "businessDay", shift, number, items, note, channel) VALUES ($1, $2, CURRENT_DATE, 1, $3, $4, 'bench', 'api') RETURNING *`,
      values: [randomUUID(), tenantId, next++, JSON.stringify([{ name: "Noodles", qty: 2 }])],
    }),
  );
  await pool.end();
  return { rps: r.perSecond, p50: Number(r.p50.toFixed(1)), p99: Number(r.p99.toFixed(1)), bad: 0, next };
}

async function main() {
  const db = await createTestDatabase("bench");
  const server = await startAppServer({
    databaseUrl: db.url,
    keyPrefix: testKeyPrefix("bench"),
    // Its cheapest route is /api/health from one address: not limited here.
    env: { API_RATE_LIMIT_PER_MINUTE: "100000000", PROBE_REQUESTS_PER_SECOND: "100000000", LOG_LEVEL: "error" },
    nodeArgs: serverNodeArgs(),
  });
  const bare = await startBareServer();
  let floor: { url: string; stop(): void } | undefined;
  try {
    const specs = Array.from({ length: tenantCount }, (_, i) => ({ slug: `bench-${i}`, name: `Bench ${i}` }));
    const made = await provisionTenants(db.url, [...specs, { slug: "bench-raw", name: "Raw inserts" }, { slug: "bench-floor", name: "Floor" }]);
    const tenants = specs.map((s) => made[s.slug]!);
    if (series) {
      // Before the server first reads these restaurants: a series without an end, so nothing fills up.
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      await client.query(
        `INSERT INTO "NumberSeries" (id, "tenantId", name, prefix, first, last, channels) SELECT gen_random_uuid(), t, 'Bench', $2, 1, NULL, '{}' FROM unnest($1::uuid[]) AS t`,
        [tenants.map((t) => t.id), series],
      );
      await client.end();
    }
    const floorKey = `${testKeyPrefix("bench-floor")}n`;
    floor = await startProcess([
      "--import",
      "tsx",
      new URL("./floor-server.ts", import.meta.url).pathname,
      db.url,
      TEST_REDIS_URL,
      made["bench-floor"]!.id,
      floorKey,
    ]);
    const floorOrders: autocannon.Options = { url: floor.url, method: "POST", headers: { "content-type": "application/json" }, body: FLOOR_BODY };
    // Each request goes to the next restaurant, with its own cashier key.
    const nextOrder = ordersRoundRobin(tenants, ORDER_BODY);
    const orders: autocannon.Options = { url: server.url, requests: [{ setupRequest: (req) => ({ ...req, ...nextOrder(), method: "POST" }) }] };
    const health: autocannon.Options = { url: `${server.url}/api/health` };

    // Warm up (JIT, pools, key caches).
    await autocannon({ ...orders, duration: 3, connections });
    await autocannon({ ...health, duration: 2, connections });
    await autocannon({ ...floorOrders, duration: 2, connections });

    type Round = Record<string, Figures>;
    const results: Round[] = [];
    let rawNext = 1;
    for (let i = 0; i < rounds; i++) {
      const r: Round = {};
      r.bare = await load({ url: bare.url });
      const raw = await rawInserts(db.url, made["bench-raw"]!.id, rawNext);
      rawNext = raw.next;
      r.rawInsert = raw;
      r.floor = await load(floorOrders);
      r["floor@500"] = await openLoop({
        url: floor.url,
        rate: 500,
        seconds,
        connections,
        next: () => ({ method: "POST", path: "/", headers: { "content-type": "application/json" }, body: FLOOR_BODY }),
      });
      r.health = await load(health);
      r.orders = await load(orders);
      for (const rate of RATES) r[`orders@${rate}`] = await openLoop({ url: server.url, rate, seconds, connections, next: nextOrder });
      results.push(r);
      process.stderr.write(
        `round ${i + 1}: ${Object.entries(r)
          .map(([k, f]) => `${k} ${f.rps.toFixed(0)}/s p50 ${f.p50} p99 ${f.p99}${f.bad ? ` bad ${f.bad}` : ""}`)
          .join(" · ")}\n`,
      );
    }

    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const dupes = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT 1 FROM "Order" GROUP BY "tenantId", "businessDay", shift, number HAVING count(*) > 1) d`,
    );
    const stored = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM "Order" WHERE channel = 'api' AND note = 'bench' AND "tenantId" <> ALL($1::uuid[])`,
      [[made["bench-raw"]!.id, made["bench-floor"]!.id]],
    );
    await client.end();

    const med = (k: string, f: keyof Figures) => median(results.map((r) => r[k]![f]));
    const scenario = (k: string) => ({
      perSecond: Math.round(med(k, "rps")),
      p50Ms: med(k, "p50"),
      p99Ms: med(k, "p99"),
      bad: results.reduce((n, r) => n + r[k]!.bad, 0),
    });
    const figures = Object.fromEntries(Object.keys(results[0]!).map((k) => [k, scenario(k)]));
    const ratio = (a: string, b: string) => Number((med(a, "rps") / med(b, "rps")).toFixed(3));
    process.stdout.write(
      JSON.stringify(
        {
          machine: machine(),
          connections,
          tenants: tenantCount,
          seconds,
          rounds,
          figures,
          ratios: {
            ordersToBare: ratio("orders", "bare"),
            ordersToRawInsert: ratio("orders", "rawInsert"),
            ordersToFloor: ratio("orders", "floor"),
            ordersToHealth: ratio("orders", "health"),
          },
          ordersStored: stored.rows[0]!.n,
          duplicateNumbers: dupes.rows[0]!.n,
        },
        null,
        2,
      ) + "\n",
    );
  } finally {
    bare.stop();
    floor?.stop();
    await server.stop();
    await db.drop();
  }
}

runBench(main);
