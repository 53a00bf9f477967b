/**
 * Benchmark: the kiosk's place-order server action over plain HTTP, as the browser sends it
 * (POST /{slug}/kiosk with `Next-Action`, the cashier's session cookie, `Origin`, and the
 * arguments React's encodeReply makes of `(prev, form)`), against the REST order
 * (POST /api/v1/orgs/{slug}/orders, cashier API key, the same items and note) and the
 * baseline GET /api/health, all in the same run on the same server. Every order carries a
 * fresh idempotency key, as the kiosk's always does. Also the kiosk page's RSC render
 * (GET /{slug}/kiosk with `RSC: 1`, a menu of 8 dishes): what the kiosk's router.refresh()
 * after each order costs when the restaurant has a menu. Not a test: it prints figures.
 *
 *   npm run build && npm run bench:kiosk [-- --seconds 8 --rounds 3 --connections 16,60 --only health,rest,action,refresh]
 *
 * BENCH_CPU_PROF=/tmp/kiosk-prof adds --cpu-prof to the server (with `--only action` for a profile of the action alone);
 * BENCH_SHOW=1 prints the start of the action's answer.
 * Starts its own database, Redis key prefix and production server; cleans up after.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import autocannon from "autocannon";
import { createTestDatabase } from "../../tests/support/db";
import { SHARED_SERVER_ENV, startAppServer, testKeyPrefix } from "../../tests/support/app-server";
import { provisionTenants } from "../../tests/support/tenants";
import { signInOverHttp } from "../../tests/support/forms";
import { benchArgs, machine, median, serverNodeArgs, runBench } from "./common";

const args = benchArgs({ seconds: 8, rounds: 3, connections: "16,60", only: "health,rest,action,refresh" });
const { seconds, rounds } = args;
const connectionLevels = args.connections.split(",").map(Number);
type PathName = "health" | "rest" | "action" | "refresh";
const paths = args.only.split(",") as PathName[];

const SLUG = "bench";
/** A key placeholder of a UUID's length: each request swaps in a fresh one without changing the body's length. */
const KEY_SLOT = "00000000-0000-4000-8000-000000000000";

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/** What the answers said: the numbers they carried and the answers that carried none. */
const seen = { numbers: new Map<PathName, number[]>(), failed: new Map<PathName, number>() };
function record(path: PathName, status: number, body: string, pattern: RegExp) {
  const m = status < 300 ? pattern.exec(body) : null;
  if (m) (seen.numbers.get(path) ?? seen.numbers.set(path, []).get(path)!).push(Number(m[1]));
  else seen.failed.set(path, (seen.failed.get(path) ?? 0) + 1);
}

/** A category of 8 dishes, so the kiosk page renders its menu pad (and its client refreshes after an order). */
async function addMenu(baseUrl: string, managerKey: string) {
  const post = async (path: string, json: unknown) => {
    const res = await fetch(`${baseUrl}/api/v1/orgs/${SLUG}/menu/${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${managerKey}`, "content-type": "application/json" },
      body: JSON.stringify(json),
    });
    if (res.status !== 201) throw new Error(`menu ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { id: string };
  };
  const category = await post("categories", { name: "Noodles" });
  for (let i = 1; i <= 8; i++) await post("items", { categoryId: category.id, name: `Dish ${i}`, priceCents: 800 + i * 50 });
}

/** The place-order action's id, from the production build's manifest. */
function placeOrderActionId(): string {
  const manifest = JSON.parse(readFileSync(".next/server/server-reference-manifest.json", "utf8")) as {
    node: Record<string, { filename: string; exportedName: string }>;
  };
  const id = Object.entries(manifest.node).find(([, v]) => v.filename === "app/[tenant]/kiosk/actions.ts" && v.exportedName === "placeOrder")?.[0];
  if (!id) throw new Error("placeOrder is not in .next/server/server-reference-manifest.json: run `npm run build`");
  return id;
}

/** The multipart body React's client sends for `placeOrder(null, form)` (encodeReply from Next's own copy of React). */
async function actionBody(): Promise<{ body: string; contentType: string }> {
  const require = createRequire(import.meta.url);
  const { encodeReply } = require("next/dist/compiled/react-server-dom-webpack/client.node") as {
    encodeReply: (v: unknown) => Promise<string | FormData>;
  };
  // The kiosk form's fields for one free-text row: the same order as the REST body below.
  const form = new FormData();
  form.append("tenant", SLUG);
  form.append("idempotencyKey", KEY_SLOT);
  form.append("itemName", "Noodles");
  form.append("itemQty", "2");
  form.append("note", "bench");
  const encoded = await encodeReply([null, form]);
  const res = new Response(encoded);
  return { body: await res.text(), contentType: res.headers.get("content-type")! };
}

async function main() {
  const db = await createTestDatabase("bench_kiosk");
  const server = await startAppServer({
    databaseUrl: db.url,
    keyPrefix: testKeyPrefix("bench-kiosk"),
    env: { ...SHARED_SERVER_ENV, API_RATE_LIMIT_PER_MINUTE: "100000000", LOG_LEVEL: "error" },
    nodeArgs: serverNodeArgs(),
  });
  try {
    const tenants = await provisionTenants(db.url, [{ slug: SLUG, name: "Bench Bistro" }]);
    const t = tenants[SLUG]!;
    const signIn = await signInOverHttp(server.url, SLUG, "CASHIER", t.staff.cashier);
    if (!signIn.sessionCookie) throw new Error(`cashier sign-in failed (${signIn.status})`);
    const { body: formBody, contentType } = await actionBody();
    await addMenu(server.url, t.apiKeys.manager);

    // Each order gets its own idempotency key, as the kiosk's form does.
    const keyInHeader = (req: autocannon.Request): autocannon.Request => ({ ...req, headers: { ...req.headers, "idempotency-key": randomUUID() } });
    const keyInForm = (req: autocannon.Request): autocannon.Request => ({ ...req, body: String(req.body).replace(KEY_SLOT, randomUUID()) });
    const options: Record<PathName, autocannon.Options> = {
      health: { url: `${server.url}/api/health` },
      rest: {
        url: server.url,
        requests: [
          {
            method: "POST",
            path: `/api/v1/orgs/${SLUG}/orders`,
            headers: { authorization: `Bearer ${t.apiKeys.cashier}`, "content-type": "application/json" },
            body: JSON.stringify({ items: [{ name: "Noodles", qty: 2 }], note: "bench" }),
            setupRequest: keyInHeader,
            onResponse: (status, body) => record("rest", status, body, /"number":(\d+)/),
          },
        ],
      },
      action: {
        url: server.url,
        requests: [
          {
            method: "POST",
            path: `/${SLUG}/kiosk`,
            headers: {
              "next-action": placeOrderActionId(),
              accept: "text/x-component",
              cookie: `nextup_session=${signIn.sessionCookie}`,
              origin: server.url,
              "content-type": contentType,
            },
            body: formBody,
            setupRequest: keyInForm,
            // The answer is React's flight stream: the action's result is a line `1:{"ok":true,"data":{…,"number":N,…}}`.
            onResponse: (status, body) => record("action", status, body, /"ok":true,"data":\{[^]*?"number":(\d+)/),
          },
        ],
      },
      // What router.refresh() fetches: the page's flight data for the whole tree (no state tree sent: nothing is reused).
      refresh: {
        // `_rsc` is the cache-busting hash of the router headers (none here); without it Next answers 307 to add it.
        url: `${server.url}/${SLUG}/kiosk?_rsc`,
        headers: { rsc: "1", cookie: `nextup_session=${signIn.sessionCookie}` },
      },
    };

    // One action by hand first: a readable failure beats 8 s of errors.
    const probe = await fetch(`${server.url}/${SLUG}/kiosk`, {
      method: "POST",
      headers: { ...(options.action.requests![0]!.headers as Record<string, string>) },
      body: formBody.replace(KEY_SLOT, randomUUID()),
    });
    const probeText = await probe.text();
    record("action", probe.status, probeText, /"ok":true,"data":\{[^]*?"number":(\d+)/);
    if (!seen.numbers.get("action")?.length) throw new Error(`the action placed no order (${probe.status}):\n${probeText.slice(0, 2000)}`);
    process.stderr.write(`action answer: ${probe.status} ${probe.headers.get("content-type")}, ${probeText.length} bytes\n`);
    if (process.env.BENCH_SHOW) process.stderr.write(probeText.slice(0, 600) + "\n");

    if (paths.includes("refresh")) {
      const page = await fetch(options.refresh.url, { headers: options.refresh.headers as Record<string, string> });
      const flight = await page.text();
      if (page.status !== 200 || !flight.includes("Dish 8"))
        throw new Error(`the kiosk page's RSC answer has no menu (${page.status}):\n${flight.slice(0, 2000)}`);
      process.stderr.write(`refresh answer: ${page.status} ${page.headers.get("content-type")}, ${flight.length} bytes\n`);
    }

    const run = async (path: PathName, connections: number, duration = seconds): Promise<Figures> => {
      const r = await autocannon({ ...options[path], duration, connections });
      return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors };
    };

    const levels = [];
    for (const connections of connectionLevels) {
      // Warm up every path at this level (JIT, connection pools).
      for (const p of paths) await run(p, connections, 2);
      const results: Record<PathName, Figures>[] = [];
      for (let i = 0; i < rounds; i++) {
        const round = {} as Record<PathName, Figures>;
        for (const p of paths) round[p] = await run(p, connections);
        results.push(round);
        process.stderr.write(
          `c=${connections} round ${i + 1}: ` +
            paths.map((p) => `${p} ${round[p].rps.toFixed(0)}/s (p50 ${round[p].p50} ms, p99 ${round[p].p99} ms, non-2xx ${round[p].non2xx})`).join(" · ") +
            "\n",
        );
      }
      const figures = Object.fromEntries(
        paths.map((p) => [
          p,
          {
            perSecondMedian: Math.round(median(results.map((r) => r[p].rps))),
            p50MsMedian: median(results.map((r) => r[p].p50)),
            p99MsMedian: median(results.map((r) => r[p].p99)),
            non2xx: results.reduce((n, r) => n + r[p].non2xx, 0),
            errors: results.reduce((n, r) => n + r[p].errors, 0),
          },
        ]),
      ) as Partial<Record<PathName, { perSecondMedian: number }>>;
      const ratio = (a: PathName, b: PathName) =>
        figures[a] && figures[b] ? Number((figures[a].perSecondMedian / figures[b].perSecondMedian).toFixed(2)) : null;
      // With a menu every order is an action then a refresh: the orders/s they would allow together, one after the other.
      const withRefresh = figures.action && figures.refresh ? 1 / (1 / figures.action.perSecondMedian + 1 / figures.refresh.perSecondMedian) : null;
      levels.push({
        connections,
        ...figures,
        ratioActionToRest: ratio("action", "rest"),
        ratioActionToHealth: ratio("action", "health"),
        ratioRestToHealth: ratio("rest", "health"),
        ratioActionPlusRefreshToRestEstimate: withRefresh && figures.rest ? Number((withRefresh / figures.rest.perSecondMedian).toFixed(2)) : null,
      });
    }

    // Every answered order is stored, once, with its own number.
    const stored = await fetch(`${server.url}/api/v1/orgs/${SLUG}/orders`, { headers: { authorization: `Bearer ${t.apiKeys.cashier}` } }).then(
      (r) => r.json() as Promise<{ orders: { number: number; channel: string }[] }>,
    );
    const numbers = stored.orders.map((o) => o.number);
    const answered = [...(seen.numbers.get("rest") ?? []), ...(seen.numbers.get("action") ?? [])];
    const storedSet = new Set(numbers);
    const summary = {
      machine: machine(),
      seconds,
      rounds,
      levels,
      ordersAnsweredRest: seen.numbers.get("rest")?.length ?? 0,
      ordersAnsweredAction: seen.numbers.get("action")?.length ?? 0,
      answersWithoutNumber: { rest: seen.failed.get("rest") ?? 0, action: seen.failed.get("action") ?? 0 },
      ordersStored: numbers.length,
      ordersStoredByChannel: Object.fromEntries(["api", "kiosk"].map((c) => [c, stored.orders.filter((o) => o.channel === c).length])),
      numbersUnique: storedSet.size === numbers.length && new Set(answered).size === answered.length,
      everyAnsweredNumberStored: answered.every((n) => storedSet.has(n)),
    };
    process.stdout.write(JSON.stringify(summary, null, 2) + "\n");
  } finally {
    await server.stop();
    await db.drop();
  }
}

runBench(main);
