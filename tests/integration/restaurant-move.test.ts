/**
 * One restaurant moves (decision 0050), on real PostgreSQL, Redis and app servers: exported from
 * one deployment's database, imported into another's. Its rows arrive whole and only its own,
 * its API keys and customers' links work there, its numbers never repeat one its old home
 * handed out (also after the export), and an import that would clash is refused with nothing
 * changed.
 */
import { createReadStream, createWriteStream } from "node:fs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { writeBackup } from "@/lib/adapters/postgres/backup-write.server";
import { importRestaurant } from "@/lib/adapters/postgres/restaurant-import.server";
import { restoreBackup } from "@/lib/adapters/postgres/backup-restore.server";
import { startAppServer, testKeyPrefix, type AppServer } from "../support/app-server";
import { query, tableDigests, tempDir } from "../support/backups";
import { createEmptyTestDatabase, createTestDatabase, type TestDatabase } from "../support/db";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { apiClient, expectStatus, type OrderJson } from "../support/http";
import { provisionTenants, type TestTenant } from "../support/tenants";

const redisUrl = inject("redisUrl");
let tmp: Awaited<ReturnType<typeof tempDir>>;
const dbs: TestDatabase[] = [];
const servers: AppServer[] = [];

beforeAll(async () => {
  tmp = await tempDir("restaurant-move");
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await Promise.all(dbs.map((d) => d.drop()));
  await tmp?.remove();
});

async function db(label: string, migrated = true): Promise<TestDatabase> {
  const d = migrated ? await createTestDatabase(label) : await createEmptyTestDatabase(label);
  dbs.push(d);
  return d;
}
async function server(databaseUrl: string, label: string): Promise<AppServer> {
  const s = await startAppServer({ databaseUrl, redisUrl, keyPrefix: testKeyPrefix(label) });
  servers.push(s);
  return s;
}
async function take(s: AppServer, t: TestTenant, n: number): Promise<OrderJson[]> {
  const out: OrderJson[] = [];
  for (let i = 0; i < n; i++)
    out.push(expectStatus(await apiClient(s.url)<OrderJson>("POST", `/api/v1/orgs/${t.slug}/orders`, { key: t.apiKeys.cashier, json: {} }), 201));
  return out;
}

describe("a restaurant moves to another deployment", () => {
  it("arrives whole and alone; keys and links work; no number its old home handed out comes again; clashes are refused", { timeout: 180_000 }, async () => {
    const home = await db("move_home");
    const slugs = { moving: uniqueSlug("moving"), staying: uniqueSlug("staying") };
    const made = await provisionTenants(home.url, [stableDaySpec(slugs.moving, "Moving Noodles"), stableDaySpec(slugs.staying, "Staying Put")]);
    const moving = made[slugs.moving]!;
    const staying = made[slugs.staying]!;
    const old = await server(home.url, "move_home");
    const before = await take(old, moving, 30);
    await take(old, staying, 5);

    const file = tmp.file("moving.nxr");
    const exported = await writeBackup(home.url, createWriteStream(file), { tenantSlug: moving.slug });
    expect(exported.orders).toBe(30);
    // The old home kept serving after the export, past the ceilings the export holds (80: a block of 40 and the next): those customers hold numbers too.
    const afterExport = await take(old, moving, 100);
    expect(Math.max(...afterExport.map((o) => o.number))).toBe(130);
    await old.stop();

    // The new home already serves a restaurant of its own.
    const there = await db("move_there");
    const local = uniqueSlug("local");
    await provisionTenants(there.url, [stableDaySpec(local, "Local")]);
    const localBefore = await tableDigests(there.url, notTenant(moving.id));

    const s = await importRestaurant(there.url, createReadStream(file));
    expect(s.tenant.slug).toBe(moving.slug);
    expect(s.orders).toBe(30);
    // Its rows as they were at the export; nothing of the staying restaurant; the local restaurant's rows untouched.
    const only = (table: string) => ({ [table]: `"tenantId" = '${moving.id}'${table === "Order" ? " AND number <= 30" : ""}` });
    for (const table of ["Order", "Shift", "ApiKey", "StaffCredential"]) {
      expect((await tableDigests(there.url, only(table)))[table], table).toEqual((await tableDigests(home.url, only(table)))[table]);
    }
    expect(await query(there.url, `SELECT slug FROM "Tenant" WHERE slug = $1`, [staying.slug])).toEqual([]);
    expect(await tableDigests(there.url, notTenant(moving.id))).toEqual(localBefore);

    // Its cashier key works there; its customer's page opens there; numbers go on past every one handed out at home.
    const next = await server(there.url, "move_there");
    const list = expectStatus(
      await apiClient(next.url)<{ orders: OrderJson[] }>("GET", `/api/v1/orgs/${moving.slug}/orders`, { key: moving.apiKeys.cashier }),
      200,
    );
    expect(list.orders.length).toBeGreaterThan(0);
    expect((await fetch(`${next.url}/${moving.slug}/o/${before[0]!.id}`)).status).toBe(200);
    const newNumbers = (await take(next, moving, 20)).map((o) => o.number);
    const held = [...before, ...afterExport].map((o) => o.number);
    expect(newNumbers.filter((n) => held.includes(n))).toEqual([]);
    const [jump] = await query<{ details: { counters: unknown[] } }>(
      there.url,
      `SELECT details FROM "AuditEntry" WHERE "tenantId" = $1 AND action = 'counter.jumpedAfterImport'`,
      [moving.id],
    );
    expect(jump?.details.counters.length).toBeGreaterThan(0);

    // Again: refused, nothing changed.
    const again = await tableDigests(there.url);
    await expect(importRestaurant(there.url, createReadStream(file))).rejects.toMatchObject({ code: "CONFLICT", reason: "restaurantHere" });
    expect(await tableDigests(there.url)).toEqual(again);

    // Into a deployment where its slug is another restaurant's: refused, nothing changed.
    const taken = await db("move_taken");
    await provisionTenants(taken.url, [stableDaySpec(moving.slug, "Someone Else")]);
    const takenBefore = await tableDigests(taken.url);
    await expect(importRestaurant(taken.url, createReadStream(file))).rejects.toMatchObject({ code: "CONFLICT", reason: "slugTaken" });
    expect(await tableDigests(taken.url)).toEqual(takenBefore);

    // An export is not a backup, nor the other way round: each command says which it is.
    await expect(restoreBackup((await db("move_not_backup", false)).url, createReadStream(file))).rejects.toMatchObject({ reason: "wrongKindOfFile" });
  });
});

/** Every table's rows but the moving restaurant's (and the deployment's own bookkeeping). */
function notTenant(id: string): Record<string, string> {
  const tables = [
    "Order",
    "Shift",
    "CounterCeiling",
    "SeriesCeiling",
    "NumberSeries",
    "StaffCredential",
    "ApiKey",
    "MenuCategory",
    "MenuItem",
    "AuditEntry",
    "WebhookEndpoint",
    "WebhookDelivery",
    "RevokedSession",
    "Printer",
    "PrintJob",
  ];
  return { Tenant: `"id" <> '${id}'`, ...Object.fromEntries(tables.map((t) => [t, `"tenantId" <> '${id}'`])) };
}
