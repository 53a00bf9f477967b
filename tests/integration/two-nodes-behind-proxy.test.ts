/**
 * The production topology of docker-compose.yml with plain processes: two app nodes (one
 * database, one Redis, one key prefix, the scheduler on both) behind a reverse proxy, both
 * nodes with TRUST_PROXY=loopback. The proxy is a stand-in built on http-proxy
 * (tests/support/reverse-proxy.ts) and, where `caddy` is installed, the real Caddy with
 * deploy/Caddyfile (tests/support/caddy.ts). Clients are told apart by their loopback
 * source address (127.0.0.2, 127.0.0.3), which only the proxy's X-Forwarded-For carries
 * to the nodes.
 */
import { randomUUID } from "node:crypto";
import { request } from "node:http";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { boardKey } from "@/lib/core/orders";
import { startAppServer, testKeyPrefix, type AppServer } from "../support/app-server";
import { BoardSocket } from "../support/board-socket";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import type { OrderJson } from "../support/http";
import { caddyOnPath, startCaddy } from "../support/caddy";
import { startReverseProxy, type ReverseProxy } from "../support/reverse-proxy";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { contractFetch } from "../support/http";

const databaseUrl = inject("databaseUrl");

interface Answer {
  status: number;
  /** The port of the node that served it (the proxy's x-upstream), or NaN. */
  node: number;
  body: Record<string, unknown>;
}

/** One HTTP request from a chosen source address; rejects on a connection error. */
function call(url: string, opts: { method?: string; localAddress?: string; headers?: Record<string, string>; json?: unknown } = {}): Promise<Answer> {
  const payload = opts.json === undefined ? undefined : JSON.stringify(opts.json);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: opts.method ?? "GET",
        localAddress: opts.localAddress,
        agent: false,
        headers: { ...opts.headers, ...(payload ? { "content-type": "application/json", "content-length": String(Buffer.byteLength(payload)) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let body: Record<string, unknown> = {};
          body = /json/.test(String(res.headers["content-type"])) ? (JSON.parse(text) as Record<string, unknown>) : { text };
          resolve({ status: res.statusCode ?? 0, node: Number(res.headers["x-upstream"]), body });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

const proxies = [
  { name: "a stand-in proxy (http-proxy)", start: startReverseProxy, skip: false },
  // Skipped without caddy on PATH: the stand-in above covers the same topology.
  { name: "Caddy with deploy/Caddyfile", start: startCaddy, skip: !caddyOnPath },
];

describe.each(proxies)("two app nodes behind $name", ({ start, skip }) => {
  if (skip) {
    // Reason: this variant runs the real Caddy binary, absent on a laptop without it; .ci/run installs it, so CI runs it.
    it.skip("needs `caddy` on PATH (apt-get install caddy)", () => {});
    return;
  }
  let tenant: TestTenant;
  let nodes: AppServer[] = [];
  let proxy: ReverseProxy;
  let board: BoardSocket | undefined;

  const order = (idempotencyKey = randomUUID()) =>
    call(`${proxy.url}/api/v1/orgs/${tenant.slug}/orders`, {
      method: "POST",
      headers: { authorization: `Bearer ${tenant.apiKeys.cashier}`, "idempotency-key": idempotencyKey },
      json: { items: [{ name: "Noodles", qty: 1 }] },
    });
  const leaders = async () => Promise.all(nodes.map(async (n) => ((await (await contractFetch(`${n.url}/api/health`)).json()) as { leader: boolean }).leader));

  beforeAll(async () => {
    const slug = uniqueSlug("proxy");
    tenant = (await provisionTenants(databaseUrl, [stableDaySpec(slug)]))[slug]!;
    const keyPrefix = testKeyPrefix("two-nodes");
    // A long lock: a quick change of leader after a stop can only come from its release.
    const env = { TRUST_PROXY: "loopback", VOICE_RATE_LIMIT_PER_MINUTE: "1", SCHEDULER_LOCK_TTL_MS: "60000" };
    nodes = await Promise.all([0, 1].map(() => startAppServer({ databaseUrl, keyPrefix, env })));
    proxy = await start(nodes.map((n) => n.url));
  });

  afterAll(async () => {
    board?.close();
    await proxy?.close();
    for (const n of nodes) {
      const code = await n.stop();
      if (code !== 0) console.error(`node exited with ${code}:\n${n.output().slice(-4000)}`);
    }
  });

  it("one node leads the scheduler, not both", async () => {
    for (let i = 0; i < 100 && !(await leaders()).includes(true); i++) await new Promise((r) => setTimeout(r, 100));
    expect((await leaders()).filter(Boolean)).toHaveLength(1);
  });

  it("orders through the proxy are taken by both nodes, and no number is given twice", async () => {
    const answers: Answer[] = [];
    for (let round = 0; round < 4; round++) answers.push(...(await Promise.all(Array.from({ length: 5 }, () => order()))));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201));
    expect(new Set(answers.map((a) => a.node))).toEqual(new Set(nodes.map((n) => n.port)));
    const numbers = answers.map((a) => a.body.number);
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  it("a board socket connected through the proxy sees the orders taken on either node", async () => {
    board = await BoardSocket.connect(proxy.url, tenant.slug, "board via proxy");
    // Whichever node the socket landed on, orders from both nodes reach it.
    const servedBy = new Set<number>();
    for (let i = 0; i < 20 && servedBy.size < 2; i++) {
      const a = await order();
      expect(a.status).toBe(201);
      servedBy.add(a.node);
      await board.waitFor("order:created", (p) => p.key === boardKey(a.body as unknown as OrderJson));
    }
    expect(servedBy).toEqual(new Set(nodes.map((n) => n.port)));
  });

  it("the per-address limit counts the client's forwarded address, not the proxy's, across both nodes", async () => {
    const clip = (n: number, localAddress: string, headers?: Record<string, string>) =>
      call(`${proxy.url}/api/v1/orgs/${tenant.slug}/voice/en/${n}.wav`, { localAddress, headers });
    // Clips are rendered only of numbers open orders hold: the orders taken above.
    const board = await call(`${proxy.url}/api/v1/orgs/${tenant.slug}/board`);
    const held = (board.body.preparing as { number: number }[]).map((o) => o.number);
    expect(held.length).toBeGreaterThanOrEqual(20);
    const first = await clip(held[0]!, "127.0.0.2");
    expect(first.status).toBe(200);
    // The same client again, until the other node serves it, naming another address: still its limit.
    const again: Answer[] = [];
    for (const n of held.slice(1, -1)) {
      if (again.some((a) => a.node !== first.node)) break;
      again.push(await clip(n, "127.0.0.2", { "x-forwarded-for": "203.0.113.9" }));
    }
    expect(again.map((a) => a.status)).toEqual(again.map(() => 429));
    expect(
      again.some((a) => a.node !== first.node),
      "the other node refused it too",
    ).toBe(true);
    // Another client behind the same proxy has a limit of its own.
    expect((await clip(held.at(-1)!, "127.0.0.3")).status).toBe(200);
  });

  it("SIGTERM to the leading node: the other keeps taking orders through the proxy and leads at once", async () => {
    const leading = (await leaders()).indexOf(true);
    const survivor = 1 - leading;
    // A 503 from the stopping node, a 502 from the proxy (a kept-alive connection it had to
    // the node was closed) or a refused connection: the client resends with the same key.
    const placeRetrying = async (): Promise<Answer> => {
      const key = randomUUID();
      for (let attempt = 0; attempt < 80; attempt++) {
        const a = await order(key).catch(() => null);
        if (a?.status === 201) return a;
        expect([502, 503, undefined], JSON.stringify(a)).toContain(a?.status);
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`an order was never taken:\n${proxy.output().slice(-3000)}`);
    };
    const stopped = nodes[leading]!.stop("SIGTERM");
    const during = await Promise.all(Array.from({ length: 8 }, placeRetrying));
    expect(await stopped, nodes[leading]!.output().slice(-4000)).toBe(0);

    // The stand-in tries the other node at once; Caddy does once its health check saw the stop.
    const after =
      proxy.kind === "caddy" ? await Promise.all(Array.from({ length: 6 }, placeRetrying)) : await Promise.all(Array.from({ length: 6 }, () => order()));
    expect(
      after.map((a) => [a.status, a.node]),
      JSON.stringify(after.map((a) => a.body.text ?? a.body.error)),
    ).toEqual(after.map(() => [201, nodes[survivor]!.port]));

    for (let i = 0; i < 150 && !(await contractFetch(`${nodes[survivor]!.url}/api/health`).then((r) => r.json() as Promise<{ leader: boolean }>)).leader; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const health = (await (await contractFetch(`${nodes[survivor]!.url}/api/health`)).json()) as { leader: boolean };
    expect(health.leader, "the surviving node took the released lock, long before its 60 s expiry").toBe(true);

    // Every order answered 201 is stored once, with its number.
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query<{ id: string; number: number }>(`SELECT id, number FROM "Order" WHERE "tenantId" = $1`, [tenant.id]);
      const stored = new Map(rows.map((r) => [r.id, r.number]));
      for (const a of [...during, ...after]) expect(stored.get(a.body.id as string)).toBe(a.body.number);
      expect(new Set(rows.map((r) => r.number)).size).toBe(rows.length);
    } finally {
      await db.end();
    }
  });
});
