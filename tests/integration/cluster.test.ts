/**
 * Redis Cluster: a real cluster of three masters (started here from `redis-server`) runs
 * the same scripts as one Redis. Every key of a tenant carries the hash tag `{t:<id>}` and
 * every script uses one key, so each tenant's counter lives in one slot — and different
 * tenants on different masters. Then the real app server with REDIS_CLUSTER_NODES:
 * counter, rate limiter, health and the Socket.IO adapter all on the cluster.
 */
import { boardKey } from "@/lib/core/orders";
import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Cluster } from "ioredis";
import { createCoreHarness } from "../support/core-harness";
import { startAppServer, testKeyPrefix, type AppServer } from "../support/app-server";
import { startRedisCluster, type RedisCluster } from "../support/redis-cluster";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { BoardSocket } from "../support/board-socket";
import { apiClient, expectStatus, type OrderJson } from "../support/http";
import { MAX_SKIPPED_PER_FAULT } from "@/lib/core/numbering";
import type { Tenant } from "@/lib/core/tenants";
import { counterKey, tenantKey } from "@/lib/adapters/redis/counter.server";
import { createRedis } from "@/lib/server/wiring/redis-clients.server";
import { EnvError, loadEnv } from "@/lib/server/env.server";
import { lastIssued } from "../support/counter-state";
import { timeUntil } from "../support/until";

const databaseUrl = inject("databaseUrl");
const silent = { info: () => {}, warn: () => {}, error: () => {} } as never;

const TENANTS = 20;
const ORDERS_PER_TENANT = 50;

let cluster: RedisCluster | undefined;

beforeAll(async () => {
  cluster = await startRedisCluster();
});

afterAll(async () => {
  await cluster?.stop();
});

/** Resolves once the client has its slot map (commands before that fail: no offline queue). */
async function ready(c: Cluster): Promise<void> {
  if (c.status !== "ready") await once(c, "ready", { signal: AbortSignal.timeout(10_000) });
}

/** The ports of the masters holding `key`, by EXISTS on each (one that does not serve its slot answers MOVED). */
async function masterHolding(c: Cluster, key: string): Promise<number[]> {
  const found: number[] = [];
  for (const node of c.nodes("master")) {
    const n = await node.exists(key).catch((e: Error) => {
      if (/^MOVED \d+ /.test(e.message)) return 0;
      throw e;
    });
    if (n === 1) found.push(node.options.port!);
  }
  return found;
}

describe("REDIS_CLUSTER_NODES", () => {
  it("is parsed into nodes, and each malformed entry is named", () => {
    expect(loadEnv({ REDIS_CLUSTER_NODES: "10.0.0.1:7000, redis-b:7001,[::1]:7002" }).REDIS_CLUSTER_NODES).toEqual([
      { host: "10.0.0.1", port: 7000 },
      { host: "redis-b", port: 7001 },
      { host: "::1", port: 7002 },
    ]);
    expect(loadEnv({}).REDIS_CLUSTER_NODES).toBeUndefined();
    try {
      loadEnv({ REDIS_CLUSTER_NODES: "10.0.0.1:7000,redis-b,10.0.0.3:99999" });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(EnvError);
      const problems = (e as EnvError).problems;
      expect(problems).toHaveLength(2);
      expect(problems.every((p) => p.startsWith("REDIS_CLUSTER_NODES"))).toBe(true);
      expect(problems.some((p) => p.includes('"redis-b"'))).toBe(true);
      expect(problems.some((p) => p.includes('"10.0.0.3:99999"'))).toBe(true);
    }
  });
});

describe("the counter on a 3-master cluster", () => {
  const keyPrefix = testKeyPrefix("cluster");
  let h: ReturnType<typeof createCoreHarness<Cluster>>;
  let tenants: Tenant[];

  beforeAll(async () => {
    h = createCoreHarness<Cluster>({ databaseUrl, clusterNodes: cluster!.nodes, keyPrefix });
    const specs = Array.from({ length: TENANTS }, () => stableDaySpec(uniqueSlug("cl")));
    const created = await provisionTenants(databaseUrl, specs);
    tenants = await Promise.all(specs.map(async (s) => (await h.tenants.findById(created[s.slug]!.id))!));
    await ready(h.redis);
  });
  afterAll(() => h?.close());

  it(`${TENANTS} tenants × ${ORDERS_PER_TENANT} orders all at once: each numbered 1..${ORDERS_PER_TENANT}, all stored, counters on different masters`, async () => {
    const results = await Promise.all(
      tenants.flatMap((t) =>
        Array.from({ length: ORDERS_PER_TENANT }, () => h.orders.place(t, { items: [{ name: "Noodles", qty: 1 }] }, { channel: "kiosk", by: null })),
      ),
    );
    expect(results).toHaveLength(TENANTS * ORDERS_PER_TENANT);
    expect(h.duplicates).toEqual([]);
    expect(h.errors).toEqual([]);

    const expected = Array.from({ length: ORDERS_PER_TENANT }, (_, i) => i + 1);
    for (const t of tenants) {
      const numbers = results
        .filter((r) => r.order.tenantId === t.id)
        .map((r) => r.order.number)
        .sort((a, b) => a - b);
      const stored = await h.db.order.findMany({ where: { tenantId: t.id }, select: { number: true }, orderBy: { number: "asc" } });
      expect(
        stored.map((o) => o.number),
        t.slug,
      ).toEqual(numbers);
      expect(new Set(numbers).size, t.slug).toBe(ORDERS_PER_TENANT);
      // Every number was handed out by PostgreSQL first: in a block reserved for the
      // counter, or directly by the fallback.
      const calls = h.ledger.calls.filter((c) => c.tenantId === t.id);
      for (const n of numbers)
        expect(
          calls.some((c) => c.lo < n && n <= c.hi),
          `${t.slug}: ${n} from no reserved block`,
        ).toBe(true);
      // No fault, so no fallback: every tenant is numbered 1..50 with no gap, by the
      // counter alone (its first block, restored, and one refill).
      expect(
        calls.some((c) => c.method === "issueDirect"),
        `${t.slug} used the database fallback`,
      ).toBe(false);
      expect(numbers, t.slug).toEqual(expected);
    }

    // Cross-slot for real: the counters sit in different slots, on at least two masters,
    // each on exactly one; all keys of one tenant share its slot (the hash tag).
    const masters = h.redis.nodes("master");
    expect(masters).toHaveLength(3);
    const slots = new Set<number>();
    const holders = new Set<number>();
    for (const t of tenants) {
      const key = h.counter.key(t.id);
      const slot = Number(await h.redis.cluster("KEYSLOT", key));
      slots.add(slot);
      expect(Number(await h.redis.cluster("KEYSLOT", tenantKey(keyPrefix, t.id, "anything-else")))).toBe(slot);
      const on = await masterHolding(h.redis, key);
      expect(on, `${key} (slot ${slot})`).toHaveLength(1);
      holders.add(on[0]!);
    }
    expect(slots.size).toBeGreaterThan(1);
    expect(holders.size).toBeGreaterThanOrEqual(2);
  });

  it("a counter lost from the cluster continues above the durable ceiling (at most 50 skipped, no duplicate)", async () => {
    const t = tenants[0]!;
    const before = (await h.db.order.findMany({ where: { tenantId: t.id }, select: { number: true } })).map((o) => o.number);
    const highest = Math.max(...before);
    expect(await h.redis.del(h.counter.key(t.id))).toBe(1);
    const { order } = await h.orders.place(t, {}, { channel: "kiosk", by: null });
    expect(order.number).toBeGreaterThan(highest);
    expect(order.number - highest - 1).toBeLessThanOrEqual(MAX_SKIPPED_PER_FAULT);
    const next = await h.orders.place(t, {}, { channel: "kiosk", by: null });
    expect(next.order.number).toBe(order.number + 1);
    const stored = (await h.db.order.findMany({ where: { tenantId: t.id }, select: { number: true } })).map((o) => o.number);
    expect(stored).toHaveLength(before.length + 2);
    expect(new Set(stored).size).toBe(stored.length);
    expect(h.duplicates).toEqual([]);
  });

  it("a series counts on its own key in its tenant's slot, and wraps there (decision 0027)", async () => {
    const made = tenants[1]!;
    await h.series.create(made, { name: "Kiosk", prefix: "K", first: 1, last: 30, channels: ["kiosk"] }, "Manager (test)");
    const t = (await h.tenants.findById(made.id))!;
    const series = t.series!.find((s) => s.name === "Kiosk")!;
    const placed = await Promise.all(Array.from({ length: 30 }, () => h.orders.place(t, {}, { channel: "kiosk", by: null })));
    expect(placed.map((r) => r.order.number).sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(new Set(placed.map((r) => r.order.prefix))).toEqual(new Set(["K"]));
    const key = h.counter.key({ tenantId: t.id, seriesId: series.id });
    expect(Number(await h.redis.cluster("KEYSLOT", key))).toBe(Number(await h.redis.cluster("KEYSLOT", h.counter.key(t.id))));
    expect(await masterHolding(h.redis, key)).toHaveLength(1);
    // Collect K7: the range is full but for it, and the next order comes round to it.
    const seven = placed.find((r) => r.order.number === 7)!.order;
    await h.orders.changeStatus(t, seven.id, { status: "READY" }, null);
    await h.orders.changeStatus(t, seven.id, { status: "COLLECTED" }, null);
    expect((await h.orders.place(t, {}, { channel: "kiosk", by: null })).order.number).toBe(7);
    expect(h.duplicates).toEqual([]);
  });
});

describe("the app server with REDIS_CLUSTER_NODES", () => {
  const keyPrefix = testKeyPrefix("cluster-app");
  const servers: AppServer[] = [];
  const sockets: BoardSocket[] = [];
  let probe: Cluster | undefined;
  let tenant: TestTenant;

  beforeAll(async () => {
    const slug = uniqueSlug("cl-app");
    tenant = (await provisionTenants(databaseUrl, [stableDaySpec(slug)]))[slug]!;
    // Two nodes, so a broadcast has to cross the cluster's pub/sub. REDIS_URL points where
    // nothing listens: it must be ignored in favour of the cluster.
    const start = () =>
      startAppServer({ databaseUrl, keyPrefix, env: { REDIS_CLUSTER_NODES: cluster!.env, REDIS_URL: "redis://127.0.0.1:1" } }).then((s) => {
        servers.push(s);
        return s;
      });
    const started = await Promise.allSettled([start(), start()]);
    for (const r of started) if (r.status === "rejected") throw r.reason;
    probe = createRedis(cluster!.nodes, silent, "probe");
    await ready(probe);
  });

  afterAll(async () => {
    for (const s of sockets) s.close();
    for (const s of servers) {
      const code = await s.stop();
      if (code !== 0) console.error(`cluster app server exited with ${code}:\n${s.output().slice(-4000)}`);
    }
    await probe?.quit().catch(() => {});
  });

  it("issues the number, rate-limits, answers health and broadcasts to both nodes through the cluster", async () => {
    const [first, second] = servers as [AppServer, AppServer];
    const call = apiClient(first.url);
    // The nodes connect in the background: wait (bounded) until both see every master.
    for (const s of servers) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const res = await apiClient(s.url)<{ redis: string }>("GET", "/api/health");
        if (res.body.redis === "up") break;
        if (Date.now() > deadline) throw new Error(`health never saw the cluster: ${JSON.stringify(res.body)}\n${s.output().slice(-4000)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }

    const onFirst = await BoardSocket.connect(first.url, tenant.slug, "board@node1");
    sockets.push(onFirst);
    const onSecond = await BoardSocket.connect(second.url, tenant.slug, "board@node2");
    sockets.push(onSecond);

    const res = await call<OrderJson>("POST", `/api/v1/orgs/${tenant.slug}/orders`, {
      key: tenant.apiKeys.cashier,
      json: { items: [{ name: "Noodles", qty: 1 }] },
    });
    const order = expectStatus(res, 201);
    expect(order.number).toBe(1);

    const health = await call<Record<string, unknown>>("GET", "/api/health");
    expect(expectStatus(health, 200)).toEqual({
      status: "ok",
      db: "up",
      redis: "up",
      counter: "redis",
      leader: expect.any(Boolean) as boolean,
      replication: "none",
      history: "watched",
      checkedAt: expect.any(String) as string,
      backup: { state: "off" },
    });
    // The scheduler's lock is in the cluster too: one of the two nodes leads (whichever took it first).
    const leads = async (s: AppServer) => (await apiClient(s.url)<{ leader: boolean }>("GET", "/api/health")).body.leader;
    await timeUntil(async () => (await Promise.all(servers.map(leads))).filter(Boolean).length === 1, 10_000);

    // The number came from the tenant's counter on the cluster; the rate limiter counted
    // the request there too (its in-memory insurance limiter would have hidden a failure).
    expect(await lastIssued(probe!, counterKey(keyPrefix, tenant.id))).toBe(1);
    const limiterKeys = (await Promise.all(probe!.nodes("master").map((m) => m.keys(`${keyPrefix}rl:api:${tenant.id}:*`)))).flat();
    expect(limiterKeys).toHaveLength(1);
    expect(await probe!.get(limiterKeys[0]!)).toBe("1");

    // The board on node 1 gets it locally; the one on node 2 only through the Socket.IO
    // redis adapter, i.e. the cluster's pub/sub.
    for (const board of [onFirst, onSecond]) {
      const { payload } = await board.waitFor("order:created", (p) => p.key === boardKey(order));
      expect(payload).toMatchObject({ key: boardKey(order), number: 1, status: "PLACED" });
    }

    // And back: an order through node 2 continues the same counter and reaches node 1.
    const back = expectStatus(
      await apiClient(second.url)<OrderJson>("POST", `/api/v1/orgs/${tenant.slug}/orders`, { key: tenant.apiKeys.cashier, json: {} }),
      201,
    );
    expect(back.number).toBe(2);
    await onFirst.waitFor("order:created", (p) => p.key === boardKey(back));
  });
});
