/**
 * Benchmark: orders/s through the REST API with 60 concurrent clients, against a
 * baseline measured in the same run on the same server (GET /api/health: the HTTP stack
 * plus one PostgreSQL and one Redis round trip). Not a test: it prints figures.
 *
 *   npm run build && npm run bench:api [-- --seconds 10 --rounds 3 --connections 60]
 *
 * Starts its own database, Redis key prefix and production server; cleans up after.
 */
import autocannon from "autocannon";
import { createTestDatabase } from "../../tests/support/db";
import { startAppServer, testKeyPrefix } from "../../tests/support/app-server";
import { provisionTenants } from "../../tests/support/tenants";
import { benchArgs, machine, median, runBench } from "./common";

const { seconds, rounds, connections } = benchArgs({ seconds: 10, rounds: 3, connections: 60 });

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function run(opts: autocannon.Options): Promise<Figures> {
  const r = await autocannon({ ...opts, duration: seconds, connections });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors };
}

async function main() {
  const db = await createTestDatabase("bench");
  const server = await startAppServer({
    databaseUrl: db.url,
    keyPrefix: testKeyPrefix("bench"),
    env: { API_RATE_LIMIT_PER_MINUTE: "100000000", LOG_LEVEL: "error" },
    nodeArgs: process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [],
  });
  try {
    const tenants = await provisionTenants(db.url, [{ slug: "bench", name: "Bench Bistro" }]);
    const key = tenants.bench!.apiKeys.cashier;
    const order: autocannon.Options = {
      url: `${server.url}/api/v1/orgs/bench/orders`,
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ items: [{ name: "Noodles", qty: 2 }], note: "bench" }),
    };
    const health: autocannon.Options = { url: `${server.url}/api/health` };

    // Warm up both paths (JIT, connection pools).
    await autocannon({ ...order, duration: 2, connections });
    await autocannon({ ...health, duration: 2, connections });

    const results: { order: Figures; health: Figures }[] = [];
    for (let i = 0; i < rounds; i++) {
      const h = await run(health);
      const o = await run(order);
      results.push({ order: o, health: h });
      process.stderr.write(
        `round ${i + 1}: orders ${o.rps.toFixed(0)}/s (p50 ${o.p50} ms, p99 ${o.p99} ms, non-2xx ${o.non2xx}) · health ${h.rps.toFixed(0)}/s\n`,
      );
    }
    const stored = await fetch(`${server.url}/api/v1/orgs/bench/orders`, { headers: { authorization: `Bearer ${key}` } }).then(
      (r) => r.json() as Promise<{ orders: { number: number }[] }>,
    );
    const numbers = stored.orders.map((o) => o.number);
    const unique = new Set(numbers).size === numbers.length;

    const orderRps = median(results.map((r) => r.order.rps));
    const healthRps = median(results.map((r) => r.health.rps));
    const summary = {
      machine: machine(),
      connections,
      seconds,
      rounds,
      ordersPerSecondMedian: Math.round(orderRps),
      orderP50MsMedian: median(results.map((r) => r.order.p50)),
      orderP99MsMedian: median(results.map((r) => r.order.p99)),
      baselineHealthPerSecondMedian: Math.round(healthRps),
      ratioToBaseline: Number((orderRps / healthRps).toFixed(2)),
      non2xx: results.reduce((n, r) => n + r.order.non2xx, 0),
      ordersStored: numbers.length,
      numbersUnique: unique,
    };
    process.stdout.write(JSON.stringify(summary, null, 2) + "\n");
  } finally {
    await server.stop();
    await db.drop();
  }
}

runBench(main);
