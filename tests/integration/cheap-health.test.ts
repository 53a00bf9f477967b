/**
 * Health probes cost a node a bounded amount whatever the traffic (issue #36, decision 0042):
 * a flood of GET /api/ready makes at most one reading of the dependencies per second — the
 * database itself counts the migrations queries — and each client address is refused (429,
 * Retry-After) above PROBE_REQUESTS_PER_SECOND on a node, while other addresses are served.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SHARED_SERVER_ENV, startAppServer, testKeyPrefix, type AppServer } from "../support/app-server";
import { createTestDatabase, type TestDatabase } from "../support/db";
import { getFrom } from "../support/raw-http";
import { eventually } from "../support/until";

/** Scans of `_prisma_migrations` in `db` (only readiness readings read it while the app runs), once no other session is connected. */
async function migrationScans(db: TestDatabase): Promise<number> {
  const query = async <T>(sql: string, params: unknown[]): Promise<T[]> => {
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      return (await c.query(sql, params)).rows as T[];
    } finally {
      await c.end();
    }
  };
  // A session writes its counts to the statistics when it ends: wait for the app's to end.
  await eventually(
    "the app's sessions ended",
    async () => (await query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [db.name]))[0]!.n,
    (n) => n === 0,
  );
  const [row] = await query<{ n: number }>(
    "SELECT (coalesce(seq_scan, 0) + coalesce(idx_scan, 0))::int AS n FROM pg_stat_user_tables WHERE relname = '_prisma_migrations'",
    [],
  );
  return row!.n;
}

describe("a /api/ready flood", () => {
  let db: TestDatabase;
  afterAll(async () => db?.drop());

  it("reads the dependencies at most once a second, however many probes arrive", async () => {
    db = await createTestDatabase("probe-flood");
    const before = await migrationScans(db);
    const started = Date.now();
    const server = await startAppServer({
      databaseUrl: db.url,
      keyPrefix: testKeyPrefix("probe-flood"),
      env: { ...SHARED_SERVER_ENV, MIGRATE_ON_START: "false" },
    });
    const statuses = new Map<number, number>();
    let next = 0;
    const FLOOD = 2_000;
    // 50 clients at once, each asking again as soon as it is answered.
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        while (next < FLOOD) {
          next++;
          const res = await fetch(`${server.url}/api/ready`);
          await res.arrayBuffer();
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        }
      }),
    );
    expect(await server.stop()).toBe(0);
    const seconds = (Date.now() - started) / 1_000;
    const readings = (await migrationScans(db)) - before;
    expect(Object.fromEntries(statuses)).toEqual({ 200: FLOOD });
    // One reading per second at most (and one started as the server came up); before, one per request.
    expect(readings, `${readings} readings in ${seconds.toFixed(1)} s`).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
    expect(readings).toBeGreaterThan(0);
  });
});

describe("probes per client address", () => {
  let server: AppServer;
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase("probe-limit");
    server = await startAppServer({
      databaseUrl: db.url,
      keyPrefix: testKeyPrefix("probe-limit"),
      env: { PROBE_REQUESTS_PER_SECOND: "3", TRUST_PROXY: "loopback" },
    });
  });
  afterAll(async () => {
    await server?.stop();
    await db?.drop();
  });

  it.each(["/api/ready", "/api/health"])("%s: 429 with Retry-After above the limit, in the error contract; another address is served", async (path) => {
    const from = path === "/api/ready" ? "127.0.0.31" : "127.0.0.32";
    // 30 at once: a limit of 3 a second could serve them all only if they spread over 10 s.
    const answers = await Promise.all(Array.from({ length: 30 }, () => getFrom(server.port, from, path)));
    const refused = answers.filter((a) => a.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(answers.every((a) => a.status === 200 || a.status === 429)).toBe(true);
    for (const a of refused) {
      expect(Number(a.headers["retry-after"])).toBeGreaterThanOrEqual(1);
      expect(JSON.parse(a.body.toString())).toMatchObject({ error: { code: "RATE_LIMITED" } });
      expect(a.headers["ratelimit-policy"]).toBe('"probe";q=3;w=1');
    }
    // The limit is the address's: a load balancer on another address is still answered.
    expect((await getFrom(server.port, "127.0.0.33", path)).status).toBe(200);
  });

  it("behind a trusted proxy, the address it forwarded counts, each client with its own limit", async () => {
    const viaProxy = (client: string) => getFrom(server.port, "127.0.0.34", "/api/ready", { "x-forwarded-for": client });
    const answers = await Promise.all(Array.from({ length: 30 }, () => viaProxy("203.0.113.7")));
    expect(answers.filter((a) => a.status === 429).length).toBeGreaterThan(0);
    expect((await viaProxy("203.0.113.8")).status).toBe(200);
  });
});
