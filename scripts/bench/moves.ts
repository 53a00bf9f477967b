/**
 * Benchmark: moving orders in the kitchen through the REST API — the plain "Ready" of a
 * restaurant without stations (the baseline), a station's Done that leaves the order
 * preparing (its parts only), and the last station's Done that makes it ready (the move with
 * its parts fenced, decision 0054) — in the same run, on the same server. Not a test: it
 * prints medians of the rounds and each path's ratio to the baseline.
 *
 *   npm run build && npm run bench:moves [-- --orders 3000 --rounds 5 --connections 16]
 *
 * Each round places the same number of orders for both restaurants, lets PostgreSQL settle
 * (VACUUM ANALYZE), then moves every one of them once per path, the paths taking turns at
 * going first.
 *
 * Starts its own database, Redis key prefix and production server; cleans up after.
 */
import { createTestDatabase } from "../../tests/support/db";
import { startAppServer, testKeyPrefix } from "../../tests/support/app-server";
import { provisionTenants } from "../../tests/support/tenants";
import pg from "pg";
import { benchArgs, machine, median, pct, round2, runBench, serverNodeArgs } from "./common";

const { orders: ORDERS, rounds, connections } = benchArgs({ orders: 3000, rounds: 5, connections: 16 });

type Figures = { perSecond: number; p50: number; p99: number };

/** `count` operations by `callers` concurrent clients (each the next one when answered): every order moved once. */
async function fixedWork(callers: number, count: number, op: (i: number) => Promise<unknown>): Promise<Figures> {
  const latencies: number[] = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (next < count) {
        const i = next++;
        const t0 = performance.now();
        await op(i);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return { perSecond: count / seconds, p50: pct(latencies, 0.5), p99: pct(latencies, 0.99) };
}

async function main() {
  const db = await createTestDatabase("bench-moves");
  const made = await provisionTenants(db.url, [
    { slug: "bench-plain", name: "Plain" },
    { slug: "bench-stations", name: "Grill and bar" },
  ]);
  const plain = made["bench-plain"]!;
  const split = made["bench-stations"]!;
  const server = await startAppServer({
    databaseUrl: db.url,
    keyPrefix: testKeyPrefix("bench-moves"),
    env: { API_RATE_LIMIT_PER_MINUTE: "100000000", LOG_LEVEL: "error" },
    nodeArgs: serverNodeArgs(),
  });
  const call = async (method: string, path: string, key: string, body?: unknown): Promise<{ id: string }> => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { id: string };
  };
  try {
    const stationsOf = `/api/v1/orgs/${split.slug}`;
    const grill = await call("POST", `${stationsOf}/stations`, split.apiKeys.manager, { name: "Grill" });
    const bar = await call("POST", `${stationsOf}/stations`, split.apiKeys.manager, { name: "Bar" });
    const drinks = await call("POST", `${stationsOf}/menu/categories`, split.apiKeys.manager, { name: "Drinks", stationId: bar.id });
    const cola = await call("POST", `${stationsOf}/menu/items`, split.apiKeys.manager, { categoryId: drinks.id, name: "Cola" });
    const place = async (t: typeof plain, items: unknown[]) => {
      const ids: string[] = [];
      // Sixteen at a time: the orders are the fixture, not what is measured.
      for (let i = 0; i < ORDERS; i += 16)
        ids.push(
          ...(await Promise.all(Array.from({ length: 16 }, () => call("POST", `/api/v1/orgs/${t.slug}/orders`, t.apiKeys.cashier, { items })))).map(
            (o) => o.id,
          ),
        );
      return ids;
    };

    const results: Record<"ready" | "part" | "lastPart", Figures[]> = { ready: [], part: [], lastPart: [] };
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    for (let round = 0; round < rounds; round++) {
      // Both restaurants grow alike (two sets each), so neither path works on a bigger table.
      const plainIds = await place(plain, [{ name: "Burger", qty: 1 }]);
      await place(plain, [{ name: "Burger", qty: 1 }]);
      const forPart = await place(split, [
        { name: "Burger", qty: 1 },
        { menuItemId: cola.id, qty: 1 },
      ]);
      const forLast = await place(split, [
        { name: "Burger", qty: 1 },
        { menuItemId: cola.id, qty: 1 },
      ]);
      // Their Grill part done beforehand (not measured): Bar's Done below is their last part.
      for (let i = 0; i < ORDERS; i += 16)
        await Promise.all(forLast.slice(i, i + 16).map((id) => call("POST", `${stationsOf}/orders/${id}/stations/${grill.id}/done`, split.apiKeys.kitchen)));
      await admin.query(`VACUUM ANALYZE "Order"`);
      const paths = {
        ready: () =>
          fixedWork(connections, ORDERS, (i) =>
            call("POST", `/api/v1/orgs/${plain.slug}/orders/${plainIds[i]}/status`, plain.apiKeys.kitchen, { status: "READY" }),
          ),
        part: () => fixedWork(connections, ORDERS, (i) => call("POST", `${stationsOf}/orders/${forPart[i]}/stations/${grill.id}/done`, split.apiKeys.kitchen)),
        lastPart: () =>
          fixedWork(connections, ORDERS, (i) => call("POST", `${stationsOf}/orders/${forLast[i]}/stations/${bar.id}/done`, split.apiKeys.kitchen)),
      };
      const names = Object.keys(paths) as (keyof typeof paths)[];
      for (let k = 0; k < names.length; k++) {
        const name = names[(k + round) % names.length]!;
        results[name].push(await paths[name]());
      }
      console.log(
        `round ${round + 1}: ready ${Math.round(results.ready.at(-1)!.perSecond)}/s, part ${Math.round(results.part.at(-1)!.perSecond)}/s, last part ${Math.round(results.lastPart.at(-1)!.perSecond)}/s`,
      );
    }
    await admin.end();
    const med = (xs: Figures[]) => ({ perSecond: median(xs.map((x) => x.perSecond)), p50: median(xs.map((x) => x.p50)), p99: median(xs.map((x) => x.p99)) });
    const ready = med(results.ready);
    const part = med(results.part);
    const lastPart = med(results.lastPart);
    console.log(`\nbench:moves — ${machine()}; ${rounds} rounds of ${ORDERS} orders per path, ${connections} connections; medians`);
    console.log(`| path | moves/s | p50 ms | p99 ms | ratio to Ready |`);
    console.log(`| --- | --- | --- | --- | --- |`);
    for (const [name, f] of [
      ["Ready, no stations (baseline)", ready],
      ["A station's Done (parts only)", part],
      ["The last station's Done (parts + Ready)", lastPart],
    ] as const)
      console.log(`| ${name} | ${Math.round(f.perSecond)} | ${round2(f.p50)} | ${round2(f.p99)} | ${round2(f.perSecond / ready.perSecond)} |`);
  } finally {
    await server.stop();
    await db.drop();
  }
}

runBench(main);
