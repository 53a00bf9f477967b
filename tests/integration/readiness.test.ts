/**
 * GET /api/ready tells a load balancer whether to send this node traffic: 503 naming the
 * failing check while Redis is unreachable, while a migration is pending, and from the
 * moment the node is told to stop; /api/health (liveness) stays 200 meanwhile. The same
 * Redis outage shows in the metrics as a switch of the counter to PostgreSQL and back.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startAppServer, testKeyPrefix, type AppServer } from "../support/app-server";
import { apiClient, contractFetch, expectStatus, type OrderJson } from "../support/http";
import { createTestDatabase } from "../support/db";
import { RedisProcess } from "../support/redis-process";
import { scrape, valueOf, type Sample } from "../support/prometheus";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";

const databaseUrl = inject("databaseUrl");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface ReadyJson {
  status: string;
  checks: Record<string, string>;
  failing?: string[];
}

async function ready(url: string): Promise<{ status: number; body: ReadyJson }> {
  const res = await contractFetch(`${url}/api/ready`);
  return { status: res.status, body: (await res.json()) as ReadyJson };
}

/** Polls until `check` holds (or 20 s passed), returning the last value. */
async function until<T>(read: () => Promise<T>, check: (v: T) => boolean): Promise<T> {
  const deadline = Date.now() + 20_000;
  let last = await read();
  while (!check(last) && Date.now() < deadline) {
    await sleep(200);
    last = await read();
  }
  return last;
}

describe("with its own Redis", () => {
  const token = randomBytes(16).toString("hex");
  let redis: RedisProcess;
  let server: AppServer;
  let t: TestTenant;

  beforeAll(async () => {
    redis = await RedisProcess.launch({ label: "ready-redis" });
    server = await startAppServer({
      databaseUrl,
      redisUrl: redis.url,
      keyPrefix: testKeyPrefix("ready"),
      env: { METRICS_TOKEN: token, COUNTER_PROBE_MS: "2000", READY_REQUIRES_REDIS: "true" },
    });
    const slug = uniqueSlug("ready");
    t = (await provisionTenants(databaseUrl, [stableDaySpec(slug)]))[slug]!;
  });
  afterAll(async () => {
    await server?.stop();
    await redis?.stop();
  });

  it("is ready with every dependency up, unready naming Redis while it is unreachable, ready again after", async () => {
    expect(await ready(server.url)).toEqual({
      status: 200,
      body: {
        status: "ready",
        checks: { database: "up", redis: "up", migrations: "applied", node: "running" },
        replication: "none",
        checkedAt: expect.any(String),
      },
    });
    const call = apiClient(server.url);
    const place = () => call<OrderJson>("POST", `/api/v1/orgs/${t.slug}/orders`, { key: t.apiKeys.cashier, json: { items: [{ name: "Noodles", qty: 1 }] } });
    expectStatus(await place(), 201);
    const before = await scrape(server.url, token);
    // The replication this node read (decision 0028): a database without a standby.
    expect(["sync", "async", "none", "unknown"].map((kind) => valueOf(before, "nextup_db_replication", { kind }))).toEqual([0, 0, 1, 0]);

    await redis.stop();
    const down = await until(
      () => ready(server.url),
      (r) => r.status === 503,
    );
    expect(down).toEqual({
      status: 503,
      body: {
        status: "unready",
        checks: { database: "up", redis: "down", migrations: "applied", node: "running" },
        replication: "none",
        failing: ["redis"],
        checkedAt: expect.any(String),
      },
    });
    // Liveness: the process is fine, nothing to restart.
    const health = await call<{ redis: string }>("GET", "/api/health");
    expect({ status: health.status, redis: health.body.redis }).toEqual({ status: 200, redis: "down" });
    // Numbers now come from PostgreSQL: the counter's breaker opens once (on the first or
    // second failed call, depending on how recent the last success is), and the issue is
    // timed as "database".
    const switches = (m: Sample[], to: string) =>
      valueOf(m, "nextup_counter_switches_total", { to }) - valueOf(before, "nextup_counter_switches_total", { to });
    const during = await until(
      async () => (expectStatus(await place(), 201), scrape(server.url, token)),
      (m) => switches(m, "database") > 0,
    );
    expect({
      toDatabase: switches(during, "database"),
      fromDatabase:
        valueOf(during, "nextup_number_issue_duration_seconds_count", { source: "database" }) >
        valueOf(before, "nextup_number_issue_duration_seconds_count", { source: "database" }),
      counterRedis: valueOf(during, "nextup_counter_redis"),
    }).toEqual({ toDatabase: 1, fromDatabase: true, counterRedis: 0 });

    await redis.start();
    expect(
      (
        await until(
          () => ready(server.url),
          (r) => r.status === 200,
        )
      ).body.status,
    ).toBe("ready");
    // The first order after COUNTER_PROBE_MS probes Redis and switches back, once.
    const back = await until(
      async () => (expectStatus(await place(), 201), scrape(server.url, token)),
      (m) => switches(m, "redis") > 0,
    );
    expect({ toRedis: switches(back, "redis"), toDatabase: switches(back, "database"), counterRedis: valueOf(back, "nextup_counter_redis") }).toEqual({
      toRedis: 1,
      toDatabase: 1,
      counterRedis: 1,
    });
  });
});

it("is unready naming the migrations while one is not applied", async () => {
  const db = await createTestDatabase("ready-pending");
  let server: AppServer | undefined;
  try {
    // As if this code shipped a migration the database has not had yet.
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    await client.query(`DELETE FROM _prisma_migrations WHERE migration_name = (SELECT max(migration_name) FROM _prisma_migrations)`);
    await client.end();
    server = await startAppServer({ databaseUrl: db.url, keyPrefix: testKeyPrefix("ready-mig"), env: { MIGRATE_ON_START: "false" } });
    expect(await ready(server.url)).toEqual({
      status: 503,
      body: {
        status: "unready",
        checks: { database: "up", redis: "up", migrations: "pending", node: "running" },
        replication: "none",
        failing: ["migrations"],
        checkedAt: expect.any(String),
      },
    });
  } finally {
    await server?.stop();
    await db.drop();
  }
});

it("is unready from the moment the node is told to stop, while it still serves for SHUTDOWN_DELAY_MS", async () => {
  const server = await startAppServer({ databaseUrl, keyPrefix: testKeyPrefix("ready-stop"), env: { SHUTDOWN_DELAY_MS: "3000", LOG_LEVEL: "info" } });
  try {
    expect((await ready(server.url)).status).toBe(200);
    const exited = new Promise<number | null>((resolve) => server.proc.once("exit", (code) => resolve(code)));
    server.proc.kill("SIGTERM");
    const stopping = await until(
      () => ready(server.url),
      (r) => r.status === 503,
    );
    expect(stopping).toEqual({
      status: 503,
      body: {
        status: "unready",
        checks: { database: "up", redis: "up", migrations: "applied", node: "stopping" },
        replication: "none",
        failing: ["node"],
        checkedAt: expect.any(String),
      },
    });
    expect((await contractFetch(`${server.url}/api/health`)).status).toBe(200);
    expect(await exited, server.output()).toBe(0);
  } finally {
    await server.stop();
  }
});
