/**
 * The counter's failover guard on real parts (decision 0032): the app runs as a database
 * role with only what it needs, on a database where the functions that show a failover
 * are not PUBLIC (as some managed services ship them), and a private Redis this test stops.
 * /api/health says the history is unknown; an order that needs the ledger alone (Redis
 * without the counter, or unreachable) is refused (503, Retry-After, nothing stored); after
 * the grant the README names, the history is watched and the same orders are taken.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppServer, testKeyPrefix, type AppServer } from "../support/app-server";
import { apiClient, expectApiError, expectStatus, type OrderJson } from "../support/http";
import { createTestDatabase, type TestDatabase } from "../support/db";
import { RedisProcess } from "../support/redis-process";
import { scrape, valueOf } from "../support/prometheus";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { eventually } from "../support/until";
import { signInOverHttp } from "../support/forms";
import { FRESH_HISTORY_MS } from "@/lib/core/replication-watch";

interface HealthJson {
  redis: string;
  replication: string;
  history: string;
}

describe("a least-privilege database role (decision 0032)", () => {
  const token = randomBytes(16).toString("hex");
  const role = `nextup_guard_${randomBytes(4).toString("hex")}`;
  let db: TestDatabase;
  let admin: pg.Client;
  let redis: RedisProcess;
  let server: AppServer;
  let t: TestTenant;

  beforeAll(async () => {
    db = await createTestDatabase("guard");
    admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    // What the app needs: its tables, and CREATE on the database for pg-boss's own schema.
    await admin.query(`CREATE ROLE ${role} LOGIN`);
    await admin.query(`GRANT CONNECT, CREATE ON DATABASE ${db.name} TO ${role}`);
    await admin.query(`GRANT USAGE ON SCHEMA public TO ${role}`);
    await admin.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${role}`);
    await admin.query(`GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO ${role}`);
    // As a managed service may ship them (stock PostgreSQL lets every role read both).
    await admin.query(`REVOKE EXECUTE ON FUNCTION pg_control_system() FROM PUBLIC`);
    await admin.query(`REVOKE SELECT ON pg_stat_replication FROM PUBLIC`);
    const slug = uniqueSlug("guard");
    t = (await provisionTenants(db.url, [stableDaySpec(slug)]))[slug]!;
    redis = await RedisProcess.launch({ label: "guard-redis" });
    const asRole = new URL(db.url);
    asRole.username = role;
    asRole.password = "";
    server = await startAppServer({
      databaseUrl: asRole.toString(),
      redisUrl: redis.url,
      keyPrefix: testKeyPrefix("guard"),
      env: { METRICS_TOKEN: token, MIGRATE_ON_START: "false" },
    });
  });
  afterAll(async () => {
    await server?.stop();
    await redis?.stop();
    // The role is the cluster's: its objects (pg-boss's schema) go with the database, its grants first.
    await admin?.query(`DROP OWNED BY ${role}`).catch(() => {});
    await admin?.end();
    await db?.drop();
    const cluster = new pg.Client({ connectionString: db.url.replace(`/${db.name}`, "/postgres") });
    await cluster.connect();
    await cluster.query(`DROP ROLE IF EXISTS ${role}`);
    await cluster.end();
  });

  const call = () => apiClient(server.url);
  const health = async () => expectStatus(await call()<HealthJson>("GET", "/api/health"), 200);
  const place = () => call()<OrderJson>("POST", `/api/v1/orgs/${t.slug}/orders`, { key: t.apiKeys.cashier, json: { items: [{ name: "Noodles", qty: 1 }] } });
  const stored = async () => (await admin.query<{ n: number }>(`SELECT count(*)::int AS n FROM "Order" WHERE "tenantId" = $1`, [t.id])).rows[0]!.n;
  const refusals = async (reason: string) => valueOf(await scrape(server.url, token), "nextup_counter_guard_refusals_total", { reason });

  /** Whether the manager's console shows the notice that failover protection is off. */
  const consoleSaysBlind = async () => {
    const { sessionCookie } = await signInOverHttp(server.url, t.slug, "MANAGER", t.staff.manager);
    const page = await fetch(`${server.url}/${t.slug}/manager?lang=en`, { headers: { cookie: `nextup_session=${sessionCookie}` }, redirect: "manual" });
    expect(page.status).toBe(200);
    // The element, not the sentence: the page carries its messages for the client anyway.
    return (await page.text()).includes(`data-testid="failover-blind"`);
  };

  it("health says the history is unknown, the start's log says why, and the manager's console says it", async () => {
    expect(await health()).toMatchObject({ redis: "up", replication: "unknown", history: "unknown" });
    expect(server.output()).toContain("may not read pg_control_system()");
    expect(await consoleSaysBlind()).toBe(true);
  });

  it("numbers from the database alone are refused (503 UNAVAILABLE, Retry-After, nothing stored) until the grant; then taken", async () => {
    const before = await refusals("history");
    const expectRefused = async () => {
      const refused = await place();
      expect(refused.headers.get("retry-after")).toBe("1");
      expectApiError(refused, 503, "UNAVAILABLE");
      expect(await stored()).toBe(0);
    };
    // Redis up but without this counter: it would be restored from the ledger's ceiling.
    await expectRefused();
    // Redis unreachable: the number would come from the ledger alone.
    await redis.stop();
    await expectRefused();
    expect((await refusals("history")) - before).toBe(2);

    // The grant the README names; the node reads the history at its next reading (Redis back, to keep it).
    await redis.start();
    await eventually("Redis back", health, (h) => h.redis === "up");
    await admin.query(`GRANT EXECUTE ON FUNCTION pg_control_system() TO ${role}`);
    await eventually("history watched", health, (h) => h.history === "watched");
    expect(await consoleSaysBlind()).toBe(false);
    expect(expectStatus(await place(), 201).number).toBe(1);
    await redis.stop();
    expect(expectStatus(await place(), 201).number).toBeGreaterThan(1);
    expect(await stored()).toBe(2);
  });

  it("Redis still unreachable and the reading of the database's facts failing: refused (reading), taken again once it reads", async () => {
    const before = await refusals("reading");
    // The facts' first query fails for this role now; the app's own queries do not use it.
    await admin.query(`REVOKE EXECUTE ON FUNCTION current_setting(text) FROM PUBLIC`);
    // The last order's reading is fresh for FRESH_HISTORY_MS: the next one must read again.
    await new Promise((r) => setTimeout(r, FRESH_HISTORY_MS * 2));
    const refused = await place();
    expect(refused.headers.get("retry-after")).toBe("1");
    expectApiError(refused, 503, "UNAVAILABLE");
    expect(await stored()).toBe(2);
    expect((await refusals("reading")) - before).toBe(1);
    await admin.query(`GRANT EXECUTE ON FUNCTION current_setting(text) TO PUBLIC`);
    expectStatus(await place(), 201);
    expect(await stored()).toBe(3);
  });
});
