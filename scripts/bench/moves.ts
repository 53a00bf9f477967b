/**
 * Benchmark: moving orders in the kitchen through the REST API — the plain "Ready" of a
 * restaurant without stations (the baseline), a station's Done that leaves the order
 * preparing (its parts only), and the last station's Done that makes it ready (the move with
 * its parts fenced, decision 0054) — in the same run, on the same server. Not a test: it
 * prints medians of the rounds and each path's ratio to the baseline.
 *
 *   npm run build && npm run bench:moves [-- --seconds 6 --rounds 3 --connections 16]
 *
 * Starts its own database, Redis key prefix and production server; cleans up after.
 */
import { createTestDatabase } from "../../tests/support/db";
import { startAppServer, testKeyPrefix } from "../../tests/support/app-server";
import { provisionTenants } from "../../tests/support/tenants";
import { benchArgs, closedLoop, machine, median, round2, runBench, serverNodeArgs } from "./common";

const { seconds, rounds, connections } = benchArgs({ seconds: 6, rounds: 3, connections: 16 });
/** Orders made ready per path and round, at most: more than a round on this machine class moves. */
const ORDERS = 4000;

type Figures = { perSecond: number; p50: number; p99: number };

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
    /** The i-th order of `ids`; running out would measure repeats (no-ops): raise ORDERS then. */
    const nth = (ids: string[], i: number) => {
      if (i >= ids.length) throw new Error(`more than ${ids.length} moves in a round: raise ORDERS`);
      return ids[i]!;
    };
    for (let round = 0; round < rounds; round++) {
      const plainIds = await place(plain, [{ name: "Burger", qty: 1 }]);
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
      // Each path takes the next order not yet moved: every request is a real change.
      let p = 0;
      results.ready.push(
        await closedLoop(connections, seconds, () =>
          call("POST", `/api/v1/orgs/${plain.slug}/orders/${nth(plainIds, p++)}/status`, plain.apiKeys.kitchen, { status: "READY" }),
        ),
      );
      let g = 0;
      results.part.push(
        await closedLoop(connections, seconds, () =>
          call("POST", `${stationsOf}/orders/${nth(forPart, g++)}/stations/${grill.id}/done`, split.apiKeys.kitchen),
        ),
      );
      let b = 0;
      results.lastPart.push(
        await closedLoop(connections, seconds, () => call("POST", `${stationsOf}/orders/${nth(forLast, b++)}/stations/${bar.id}/done`, split.apiKeys.kitchen)),
      );
      console.log(
        `round ${round + 1}: ready ${Math.round(results.ready.at(-1)!.perSecond)}/s, part ${Math.round(results.part.at(-1)!.perSecond)}/s, last part ${Math.round(results.lastPart.at(-1)!.perSecond)}/s`,
      );
    }
    const med = (xs: Figures[]) => ({ perSecond: median(xs.map((x) => x.perSecond)), p50: median(xs.map((x) => x.p50)), p99: median(xs.map((x) => x.p99)) });
    const ready = med(results.ready);
    const part = med(results.part);
    const lastPart = med(results.lastPart);
    console.log(`\nbench:moves — ${machine()}; ${rounds} rounds of ${seconds} s, ${connections} connections; medians`);
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
