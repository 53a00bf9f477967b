/**
 * Benchmark: what a flood of GET /api/ready from one address costs the restaurants' orders
 * (issue #36: 17,940 probes in 20 s, ~900/s, took order p50 from 6 to 121 ms). Each round
 * places orders at a fixed rate (open loop, across several restaurants) alone, then beside
 * a flood of /api/ready from one address at the issue's rate (open loop too: a flood that
 * saturates the machine measures HTTP itself, which no limit changes), and beside a flood of
 * openapi.json; it prints the medians of the rounds, the ratios in one run, and how many of
 * each flood were refused (429: the probe limit; decision 0042). Latency on a shared machine
 * moves with everything else running, so each scenario also reports what it cost: the
 * server's CPU and the database's transactions per second. Not a test: figures.
 *
 *   npm run build && npm run bench:probes [-- --seconds 8 --rounds 3 --rate 100 --flood 900 --openapiFlood 200]
 *
 * Starts its own database, Redis key prefix and production server; cleans up after.
 */
import { readFileSync } from "node:fs";
import pg from "pg";
import { createTestDatabase } from "../../tests/support/db";
import { startAppServer, testKeyPrefix } from "../../tests/support/app-server";
import { provisionTenants } from "../../tests/support/tenants";
import { benchArgs, machine, median, openLoop, runBench, serverNodeArgs, ordersRoundRobin, type LoadFigures, type LoadRequest } from "./common";

const {
  seconds,
  rounds,
  rate,
  flood,
  openapiFlood,
  tenants: tenantCount,
} = benchArgs({
  seconds: 8,
  rounds: 3,
  rate: 100,
  flood: 900,
  openapiFlood: 200,
  tenants: 4,
});
const ORDER_BODY = JSON.stringify({ items: [{ name: "Noodles", qty: 2 }], note: "bench" });

/** Orders at `rate`/s for `seconds`, beside GET `floodPath` at `floodRate`/s from the same address (none: alone). */
async function ordersBeside(
  url: string,
  next: () => LoadRequest,
  floodPath?: string,
  floodRate = 0,
  headers: Record<string, string> = {},
): Promise<{ orders: LoadFigures; flood?: LoadFigures }> {
  const flooding = floodPath
    ? openLoop({ url, rate: floodRate, seconds, connections: 32, next: () => ({ method: "GET", path: floodPath, headers }) })
    : undefined;
  const orders = await openLoop({ url, rate, seconds, connections: 32, next });
  return { orders, flood: await flooding };
}

/** A process's CPU time so far (user + system), ms: /proc/<pid>/stat's utime and stime, in clock ticks of 10 ms. */
function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

interface Cost {
  serverCpuMsPerSecond: number;
  dbTransactionsPerSecond: number;
}

async function main() {
  const db = await createTestDatabase("bench-probes");
  const server = await startAppServer({
    databaseUrl: db.url,
    keyPrefix: testKeyPrefix("bench-probes"),
    // The probes keep their default limit (PROBE_REQUESTS_PER_SECOND): the flood is one address.
    env: { API_RATE_LIMIT_PER_MINUTE: "100000000", LOG_LEVEL: "error" },
    nodeArgs: serverNodeArgs(),
  });
  const stats = new pg.Client({ connectionString: db.url });
  await stats.connect();
  const transactions = async () =>
    Number((await stats.query<{ n: string }>("SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()")).rows[0]!.n);
  /** `run`, with what it cost the server and the database per second. */
  const costOf = async <T>(run: () => Promise<T>): Promise<{ result: T; cost: Cost }> => {
    const [cpu0, tx0] = [processCpuMs(server.proc.pid!), await transactions()];
    const result = await run();
    const cpu = processCpuMs(server.proc.pid!) - cpu0;
    // A session reports its counts to the statistics at most once a second.
    await new Promise((r) => setTimeout(r, 1_500));
    const tx = (await transactions()) - tx0;
    return { result, cost: { serverCpuMsPerSecond: Math.round(cpu / seconds), dbTransactionsPerSecond: Math.round(tx / seconds) } };
  };
  try {
    const specs = Array.from({ length: tenantCount }, (_, i) => ({ slug: `probes-${i}`, name: `Probes ${i}` }));
    const made = await provisionTenants(db.url, specs);
    const tenants = specs.map((s) => made[s.slug]!);
    // Each request goes to the next restaurant, with its own cashier key.
    const nextOrder = ordersRoundRobin(tenants, ORDER_BODY);
    // Warm up (JIT, pools, key caches).
    await openLoop({ url: server.url, rate, seconds: 3, connections: 32, next: nextOrder });

    type Scenario = "alone" | "ready" | "openapi";
    type Round = Record<Scenario, LoadFigures> & Record<`${Scenario}Cost`, Cost> & { readyFlood: LoadFigures; openapiFlood: LoadFigures };
    const results: Round[] = [];
    for (let i = 0; i < rounds; i++) {
      const a = await costOf(() => ordersBeside(server.url, nextOrder));
      const r = await costOf(() => ordersBeside(server.url, nextOrder, "/api/ready", flood));
      const o = await costOf(() => ordersBeside(server.url, nextOrder, "/api/v1/openapi.json", openapiFlood, { "accept-encoding": "gzip" }));
      const [alone, ready, openapi] = [a.result.orders, r.result, o.result];
      results.push({
        alone,
        ready: ready.orders,
        openapi: openapi.orders,
        readyFlood: ready.flood!,
        openapiFlood: openapi.flood!,
        aloneCost: a.cost,
        readyCost: r.cost,
        openapiCost: o.cost,
      });
      process.stderr.write(
        `round ${i + 1}: alone p50 ${alone.p50} p99 ${alone.p99} · beside /api/ready (${ready.flood!.rps.toFixed(0)}/s, ${ready.flood!.bad} refused) p50 ${ready.orders.p50} p99 ${ready.orders.p99} · beside openapi.json (${openapi.flood!.rps.toFixed(0)}/s) p50 ${openapi.orders.p50} p99 ${openapi.orders.p99} · cost (server CPU ms/s, db tx/s): alone ${a.cost.serverCpuMsPerSecond}, ${a.cost.dbTransactionsPerSecond}; ready ${r.cost.serverCpuMsPerSecond}, ${r.cost.dbTransactionsPerSecond}; openapi ${o.cost.serverCpuMsPerSecond}, ${o.cost.dbTransactionsPerSecond}\n`,
      );
    }
    const med = (k: Scenario, f: keyof LoadFigures) => median(results.map((r) => r[k][f]));
    const medCost = (k: Scenario, f: keyof Cost) => median(results.map((r) => r[`${k}Cost`][f]));
    const scenario = (k: Scenario) => ({
      p50Ms: med(k, "p50"),
      p99Ms: med(k, "p99"),
      bad: results.reduce((n, r) => n + r[k].bad, 0),
      serverCpuMsPerSecond: medCost(k, "serverCpuMsPerSecond"),
      dbTransactionsPerSecond: medCost(k, "dbTransactionsPerSecond"),
    });
    const ratio = (k: "ready" | "openapi", f: "p50" | "p99") => Number((med(k, f) / med("alone", f)).toFixed(2));
    process.stdout.write(
      JSON.stringify(
        {
          machine: machine(),
          ordersPerSecond: rate,
          floodPerSecond: { ready: flood, openapi: openapiFlood },
          seconds,
          rounds,
          orders: { alone: scenario("alone"), besideReadyFlood: scenario("ready"), besideOpenApiFlood: scenario("openapi") },
          // Not 2xx (429: refused by the probe limit), over all rounds.
          floodsRefused: {
            ready: results.reduce((n, r) => n + r.readyFlood.bad, 0),
            openapi: results.reduce((n, r) => n + r.openapiFlood.bad, 0),
          },
          ratios: {
            readyP50: ratio("ready", "p50"),
            readyP99: ratio("ready", "p99"),
            openapiP50: ratio("openapi", "p50"),
            openapiP99: ratio("openapi", "p99"),
          },
        },
        null,
        2,
      ) + "\n",
    );
  } finally {
    await stats.end();
    await server.stop();
    await db.drop();
  }
}

runBench(main);
