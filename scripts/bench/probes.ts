/**
 * Benchmark: what a flood of GET /api/ready from one address costs the restaurants' orders
 * (issue #36: 17,940 probes in 20 s took order p50 from 6 to 121 ms). Each round places
 * orders at a fixed rate (open loop, across several restaurants) alone, then beside a
 * closed-loop flood of /api/ready from one address, and the same beside a flood of
 * openapi.json; it prints the medians of the rounds, the ratios in one run, and what the
 * floods were answered (429s: the probe limit; decision 0042). Not a test: figures.
 *
 *   npm run build && npm run bench:probes [-- --seconds 8 --rounds 3 --rate 100 --flooders 32]
 *
 * Starts its own database, Redis key prefix and production server; cleans up after.
 */
import autocannon from "autocannon";
import { createTestDatabase } from "../../tests/support/db";
import { startAppServer, testKeyPrefix } from "../../tests/support/app-server";
import { provisionTenants } from "../../tests/support/tenants";
import { benchArgs, machine, median, openLoop, runBench, serverNodeArgs, type LoadFigures, type LoadRequest } from "./common";

const { seconds, rounds, rate, flooders, tenants: tenantCount } = benchArgs({ seconds: 8, rounds: 3, rate: 100, flooders: 32, tenants: 4 });
const ORDER_BODY = JSON.stringify({ items: [{ name: "Noodles", qty: 2 }], note: "bench" });

interface Flood {
  perSecond: number;
  /** Answers by status. */
  statuses: Record<string, number>;
}

/** Orders at `rate`/s for `seconds`, beside a closed-loop flood of GET `floodPath` (none: alone). */
async function ordersBeside(
  url: string,
  next: () => LoadRequest,
  floodPath?: string,
  headers: Record<string, string> = {},
): Promise<{ orders: LoadFigures; flood?: Flood }> {
  const flood = floodPath ? autocannon({ url: `${url}${floodPath}`, headers, connections: flooders, duration: seconds }) : undefined;
  const orders = await openLoop({ url, rate, seconds, connections: 32, next });
  const r = await flood;
  if (!r) return { orders };
  const statuses: Record<string, number> = {};
  for (const [k, v] of Object.entries(r.statusCodeStats ?? {})) statuses[k] = (v as { count: number }).count;
  return { orders, flood: { perSecond: Math.round(r.requests.average), statuses } };
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
  try {
    const specs = Array.from({ length: tenantCount }, (_, i) => ({ slug: `probes-${i}`, name: `Probes ${i}` }));
    const made = await provisionTenants(db.url, specs);
    const tenants = specs.map((s) => made[s.slug]!);
    let turn = 0;
    const nextOrder = (): LoadRequest => {
      const t = tenants[turn++ % tenants.length]!;
      return {
        method: "POST",
        path: `/api/v1/orgs/${t.slug}/orders`,
        headers: { authorization: `Bearer ${t.apiKeys.cashier}`, "content-type": "application/json" },
        body: ORDER_BODY,
      };
    };
    // Warm up (JIT, pools, key caches).
    await openLoop({ url: server.url, rate, seconds: 3, connections: 32, next: nextOrder });

    type Round = { alone: LoadFigures; ready: LoadFigures; openapi: LoadFigures; readyFlood: Flood; openapiFlood: Flood };
    const results: Round[] = [];
    for (let i = 0; i < rounds; i++) {
      const alone = (await ordersBeside(server.url, nextOrder)).orders;
      const ready = await ordersBeside(server.url, nextOrder, "/api/ready");
      const openapi = await ordersBeside(server.url, nextOrder, "/api/v1/openapi.json", { "accept-encoding": "gzip" });
      results.push({ alone, ready: ready.orders, openapi: openapi.orders, readyFlood: ready.flood!, openapiFlood: openapi.flood! });
      process.stderr.write(
        `round ${i + 1}: alone p50 ${alone.p50} p99 ${alone.p99} · beside /api/ready (${ready.flood!.perSecond}/s ${JSON.stringify(ready.flood!.statuses)}) p50 ${ready.orders.p50} p99 ${ready.orders.p99} · beside openapi.json (${openapi.flood!.perSecond}/s) p50 ${openapi.orders.p50} p99 ${openapi.orders.p99}\n`,
      );
    }
    const med = (k: "alone" | "ready" | "openapi", f: keyof LoadFigures) => median(results.map((r) => r[k][f]));
    const scenario = (k: "alone" | "ready" | "openapi") => ({
      p50Ms: med(k, "p50"),
      p99Ms: med(k, "p99"),
      bad: results.reduce((n, r) => n + r[k].bad, 0),
    });
    const ratio = (k: "ready" | "openapi", f: "p50" | "p99") => Number((med(k, f) / med("alone", f)).toFixed(2));
    process.stdout.write(
      JSON.stringify(
        {
          machine: machine(),
          ordersPerSecond: rate,
          flooders,
          seconds,
          rounds,
          orders: { alone: scenario("alone"), besideReadyFlood: scenario("ready"), besideOpenApiFlood: scenario("openapi") },
          floods: {
            ready: { perSecond: median(results.map((r) => r.readyFlood.perSecond)), statuses: results.map((r) => r.readyFlood.statuses) },
            openapi: { perSecond: median(results.map((r) => r.openapiFlood.perSecond)), statuses: results.map((r) => r.openapiFlood.statuses) },
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
    await server.stop();
    await db.drop();
  }
}

runBench(main);
