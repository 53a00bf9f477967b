/**
 * No number handed out twice across a restore (decision 0046), on real PostgreSQL, Redis and
 * app servers: orders are taken after a backup, the machine is lost (its database; Redis
 * too, or not), the backup is restored into a new database and a server starts on it. None
 * of the numbers handed out after the backup — held by customers, in no database — is
 * handed out again, in the default series or another.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startAppServer, testKeyPrefix, SHARED_SERVER_ENV, type AppServer } from "../support/app-server";
import { backupTo, emptyRedisPrefix, query, restoreFrom, tempDir } from "../support/backups";
import { createEmptyTestDatabase, createTestDatabase, type TestDatabase } from "../support/db";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { apiClient, expectStatus, type OrderJson } from "../support/http";
import { insertSeries, provisionTenants, type TestTenant } from "../support/tenants";

const redisUrl = inject("redisUrl");

let tmp: Awaited<ReturnType<typeof tempDir>>;
const dbs: TestDatabase[] = [];
const servers: AppServer[] = [];
beforeAll(async () => {
  tmp = await tempDir("restore-numbers");
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await Promise.all(dbs.map((d) => d.drop()));
  await tmp?.remove();
});

async function server(databaseUrl: string, keyPrefix: string): Promise<AppServer> {
  const s = await startAppServer({ databaseUrl, redisUrl, keyPrefix, env: { ...SHARED_SERVER_ENV, API_RATE_LIMIT_PER_MINUTE: "1000000" } });
  servers.push(s);
  return s;
}

/** `n` orders, every third at the kiosk (series K), the others at the till (the default series); their displayed numbers. */
async function take(s: AppServer, t: TestTenant, n: number): Promise<string[]> {
  const call = apiClient(s.url);
  const shown: string[] = [];
  for (let i = 0; i < n; i++) {
    const o = expectStatus(
      await call<OrderJson>("POST", `/api/v1/orgs/${t.slug}/orders`, {
        key: t.apiKeys.cashier,
        json: { items: [{ name: "Noodles", qty: 1 }], channel: i % 3 === 0 ? "kiosk" : "pos" },
      }),
      201,
    );
    shown.push(o.display);
  }
  return shown;
}

/**
 * A shop that took 50 orders, was backed up, then took 120 more, and was lost. The backup's
 * ceilings are 80 (default: 33 numbers, a block of 40 and the next reserved 10 ahead) and 40
 * (Kiosk: 17 tickets); after it the default went on to 113 and Kiosk to 57, past both. Returns what the customers hold from after the backup.
 */
async function lostShop(label: string): Promise<{ tenant: TestTenant; keyPrefix: string; file: string; heldAfterBackup: string[] }> {
  const db = await createTestDatabase(label);
  dbs.push(db);
  const slug = uniqueSlug(label.replaceAll("_", "-"));
  const tenant = (await provisionTenants(db.url, [stableDaySpec(slug)]))[slug]!;
  await insertSeries(db.url, tenant.id, { name: "Kiosk", prefix: "K", channels: ["kiosk"] });
  const keyPrefix = testKeyPrefix(label);
  const first = await server(db.url, keyPrefix);
  const before = await take(first, tenant, 50);
  const file = tmp.file(`${label}.nxb`);
  await backupTo(db.url, file);
  const heldAfterBackup = await take(first, tenant, 120);
  expect(new Set([...before, ...heldAfterBackup]).size).toBe(170);
  expect(heldAfterBackup).toContain("113");
  expect(heldAfterBackup).toContain("K57");
  await first.stop();
  return { tenant, keyPrefix, file, heldAfterBackup };
}

async function restoredDatabase(label: string, file: string): Promise<TestDatabase> {
  const db = await createEmptyTestDatabase(label);
  dbs.push(db);
  await restoreFrom(db.url, file);
  return db;
}

describe("a restore with Redis lost too", () => {
  it(
    "hands out none of the numbers customers got after the backup, and the manager's audit says how far each counter jumped",
    { timeout: 180_000 },
    async () => {
      const shop = await lostShop("restore_redis_lost");
      // Redis lost with the machine: every key of this shop's server gone (and no other test's).
      expect(await emptyRedisPrefix(redisUrl, shop.keyPrefix)).toBeGreaterThan(0);
      const db = await restoredDatabase("restore_redis_lost_new", shop.file);
      const after = await take(await server(db.url, shop.keyPrefix), shop.tenant, 150);
      expect(after.filter((n) => shop.heldAfterBackup.includes(n))).toEqual([]);
      expect(new Set(after).size).toBe(150);

      const audit = await query<{
        actor: string;
        details: { backupAt: string; counters: { series: string | null; from: number; to: number }[]; lapped: string[] };
      }>(db.url, `SELECT actor, details FROM "AuditEntry" WHERE "tenantId" = $1 AND action = 'counter.jumpedAfterRestore'`, [shop.tenant.id]);
      expect(audit).toHaveLength(1);
      expect(audit[0]!.actor).toBe("system");
      expect(audit[0]!.details.lapped).toEqual([]);
      const today = audit[0]!.details.counters.filter((c) => c.from > 0);
      // Both counters of the day the orders were taken: jumped by 2 × 40 and the busiest window of the backup's 50 orders.
      expect(today.map((c) => c.series).sort()).toEqual(["Kiosk", null].sort());
      for (const c of today) expect(c.to - c.from).toBeGreaterThanOrEqual(80 + (c.series === "Kiosk" ? 17 : 33));
    },
  );
});

describe("a restore with Redis intact", () => {
  it(
    "Redis's memory alone keeps numbers above what it handed out (0028's floor; and a block below them is refused, never used): none repeats even with the jump taken back",
    { timeout: 180_000 },
    async () => {
      const shop = await lostShop("restore_redis_kept");
      const db = await restoredDatabase("restore_redis_kept_new", shop.file);
      // The jump taken back: the ceilings are the backup's again, so only Redis remembers the numbers after it.
      const [audit] = await query<{ details: { counters: { series: string | null; businessDay: string; shift: number; from: number }[] } }>(
        db.url,
        `SELECT details FROM "AuditEntry" WHERE action = 'counter.jumpedAfterRestore'`,
      );
      for (const c of audit!.details.counters) {
        if (c.series === null) {
          await query(db.url, `UPDATE "CounterCeiling" SET ceiling = $1 WHERE "businessDay" = $2::date AND shift = $3`, [c.from, c.businessDay, c.shift]);
        } else {
          await query(
            db.url,
            `UPDATE "SeriesCeiling" SET ceiling = $1 WHERE "businessDay" = $2::date AND shift = $3 AND "seriesId" = (SELECT id FROM "NumberSeries" WHERE name = $4)`,
            [c.from, c.businessDay, c.shift, c.series],
          );
        }
      }
      const after = await take(await server(db.url, shop.keyPrefix), shop.tenant, 150);
      expect(after.filter((n) => shop.heldAfterBackup.includes(n))).toEqual([]);
      expect(new Set(after).size).toBe(150);
    },
  );
});

describe("a series that comes round", () => {
  it("jumps in tickets and, when the jump is a lap or more, the audit says numbers from before the restore may come again", { timeout: 180_000 }, async () => {
    const db = await createTestDatabase("restore_lap");
    dbs.push(db);
    const slug = uniqueSlug("restore-lap");
    const spec = stableDaySpec(slug);
    const tenant = (await provisionTenants(db.url, [spec]))[slug]!;
    const lap = await insertSeries(db.url, tenant.id, { name: "Window", prefix: "W", first: 1, last: 99, channels: ["kiosk"] });
    const wide = await insertSeries(db.url, tenant.id, { name: "Delivery", prefix: "D", first: 1, last: 999, channels: ["delivery"] });
    // 30 tickets of each in the last minutes, on the restaurant's current business day (its day rule, as the restore computes it).
    const [{ day }] = (await query<{ day: string }>(db.url, `SELECT to_char(now() AT TIME ZONE 'UTC' - make_interval(mins => $1::int), 'YYYY-MM-DD') AS day`, [
      Number(spec.dayStart.slice(0, 2)) * 60,
    ])) as [{ day: string }];
    for (const [seriesId, prefix] of [
      [lap, "W"],
      [wide, "D"],
    ]) {
      await query(
        db.url,
        `INSERT INTO "Order" (id, "tenantId", "businessDay", shift, number, ticket, "seriesId", channel, prefix, "createdAt")
         SELECT gen_random_uuid(), $1, $2::date, 1, n, n, $3, 'kiosk', $4, now() - make_interval(secs => 60 - n) FROM generate_series(1, 30) n`,
        [tenant.id, day, seriesId, prefix],
      );
      await query(db.url, `INSERT INTO "SeriesCeiling" ("tenantId", "seriesId", "businessDay", shift, ceiling) VALUES ($1, $2, $3::date, 1, 40)`, [
        tenant.id,
        seriesId,
        day,
      ]);
    }
    const file = tmp.file("lap.nxb");
    await backupTo(db.url, file);
    const restored = await restoredDatabase("restore_lap_new", file);
    const [audit] = await query<{ details: { counters: { series: string | null; businessDay: string; from: number; to: number }[]; lapped: string[] } }>(
      restored.url,
      `SELECT details FROM "AuditEntry" WHERE action = 'counter.jumpedAfterRestore'`,
    );
    // 80 + the 30 tickets of the busiest minute: 110, more than Window's lap of 99, less than Delivery's 999.
    expect(audit!.details.lapped).toEqual(["Window"]);
    for (const name of ["Window", "Delivery"]) {
      expect(audit!.details.counters.find((c) => c.series === name && c.businessDay === day)).toMatchObject({ from: 40, to: 150 });
    }
  });
});
