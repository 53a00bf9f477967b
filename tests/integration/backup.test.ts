/**
 * `npm run backup` and `npm run restore` (decision 0045) on real PostgreSQL, Redis and app
 * servers, each test on databases of its own: a backup while orders are taken, a restore
 * that gives back every row, a database with data refused and left as it was, and a backup
 * of the previous release restored into this one.
 */
import { spawn } from "node:child_process";
import { cp } from "node:fs/promises";
import path from "node:path";
import { closeSync, createWriteStream, openSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { isAppError } from "@/lib/core/errors";
import { writeBackup } from "@/lib/adapters/postgres/backup-write.server";
import { readMigrationFolders } from "@/lib/adapters/postgres/migrate.server";
import { applyMigrations } from "@/lib/adapters/postgres/migrate.server";
import { startAppServer, testKeyPrefix, SHARED_SERVER_ENV, type AppServer } from "../support/app-server";
import { backupTo, query, restoreFrom, runCli, tableDigests, tempDir } from "../support/backups";
import { createEmptyTestDatabase, createTestDatabase, type TestDatabase } from "../support/db";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { apiClient, expectStatus, type OrderJson } from "../support/http";
import { insertSeries, provisionTenants, type TestTenant } from "../support/tenants";

const redisUrl = inject("redisUrl");
const MIGRATIONS_DIR = "prisma/migrations";

/** The tables a restore changes on purpose (decision 0046): the ceilings jump, and each restaurant's audit says so. */
const JUMPED = { CounterCeiling: "false", SeriesCeiling: "false", AuditEntry: `action <> 'counter.jumpedAfterRestore'` };

let tmp: Awaited<ReturnType<typeof tempDir>>;
const dbs: TestDatabase[] = [];
const servers: AppServer[] = [];
async function database(label: string, migrated = true): Promise<TestDatabase> {
  const db = migrated ? await createTestDatabase(label) : await createEmptyTestDatabase(label);
  dbs.push(db);
  return db;
}

beforeAll(async () => {
  tmp = await tempDir("backup-test");
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await Promise.all(dbs.map((d) => d.drop()));
  await tmp?.remove();
});

/** A restaurant with a series, orders in both, some ready or collected, served by its own app server. */
async function shopWithOrders(
  label: string,
  orders: number,
): Promise<{ db: TestDatabase; server: AppServer; tenant: TestTenant; place: (channel?: string) => Promise<OrderJson> }> {
  const db = await database(label);
  const slug = uniqueSlug(label.replaceAll("_", "-"));
  const tenant = (await provisionTenants(db.url, [stableDaySpec(slug)]))[slug]!;
  await insertSeries(db.url, tenant.id, { name: "Kiosk", prefix: "K", channels: ["kiosk"] });
  const server = await startAppServer({
    databaseUrl: db.url,
    redisUrl,
    keyPrefix: testKeyPrefix(label),
    env: { ...SHARED_SERVER_ENV, API_RATE_LIMIT_PER_MINUTE: "1000000" },
  });
  servers.push(server);
  const call = apiClient(server.url);
  const place = async (channel = "pos") =>
    expectStatus(
      await call<OrderJson>("POST", `/api/v1/orgs/${slug}/orders`, { key: tenant.apiKeys.cashier, json: { items: [{ name: "Noodles", qty: 1 }], channel } }),
      201,
    );
  for (let i = 0; i < orders; i++) {
    const o = await place(i % 3 === 0 ? "kiosk" : "pos");
    if (i % 4 === 0) {
      const to = i % 8 === 0 ? "COLLECTED" : "READY";
      expectStatus(await call("POST", `/api/v1/orgs/${slug}/orders/${o.id}/status`, { key: tenant.apiKeys.kitchen, json: { status: "READY" } }), 200);
      if (to === "COLLECTED")
        expectStatus(await call("POST", `/api/v1/orgs/${slug}/orders/${o.id}/status`, { key: tenant.apiKeys.kitchen, json: { status: "COLLECTED" } }), 200);
    }
  }
  return { db, server, tenant, place };
}

describe("a backup while the app serves", () => {
  it(
    "orders keep being answered 201 while a backup holds its snapshot, and the backup is one moment: no order above its counter's ceiling",
    { timeout: 180_000 },
    async () => {
      const shop = await shopWithOrders("backup_load", 30);
      let placing = true;
      const answered: { status: number; at: number }[] = [];
      const load = Promise.all(
        Array.from({ length: 4 }, async (_, w) => {
          while (placing) {
            try {
              await shop.place(w % 2 ? "kiosk" : "pos");
              answered.push({ status: 201, at: Date.now() });
            } catch (e) {
              answered.push({ status: 0, at: Date.now() });
              throw e;
            }
          }
        }),
      );
      load.catch(() => {}); // awaited below; a refused order fails the test there
      // The snapshot held open for seconds, a pause before each table, while orders (and new blocks of numbers) are written.
      const file = tmp.file("load.nxb");
      const started = Date.now();
      const summary = await writeBackup(shop.db.url, createWriteStream(file), { onTable: () => new Promise((r) => setTimeout(r, 150)) });
      const ended = Date.now();
      placing = false;
      await load;

      expect(answered.every((a) => a.status === 201)).toBe(true);
      // Orders were taken while the backup's transaction was open.
      const during = answered.filter((a) => a.at > started && a.at < ended).length;
      expect(during).toBeGreaterThan(0);
      expect(summary.orders).toBeGreaterThanOrEqual(30);

      // Restored, the backup is one moment: every order is at or below its counter's ceiling, in the default series and the other
      // (the ceilings are copied before the orders; without one snapshot, orders of blocks reserved in between would lie above them).
      const copy = await database("backup_load_copy", false);
      await restoreFrom(copy.url, file);
      // Checked on the backup's own ceilings (before the jump), read from the audit of the restore.
      const [audit] = await query<{ details: { counters: { series: string | null; businessDay: string; shift: number; from: number }[] } }>(
        copy.url,
        `SELECT details FROM "AuditEntry" WHERE action = 'counter.jumpedAfterRestore'`,
      );
      const orders = await query<{ series: string | null; businessDay: string; shift: number; n: number }>(
        copy.url,
        `SELECT s.name AS series, to_char(o."businessDay", 'YYYY-MM-DD') AS "businessDay", o.shift, max(COALESCE(o.ticket, o.number))::int AS n
         FROM "Order" o LEFT JOIN "NumberSeries" s ON s.id = o."seriesId" GROUP BY 1, 2, 3`,
      );
      expect(orders.length).toBeGreaterThan(1);
      for (const o of orders) {
        const c = audit!.details.counters.find((x) => x.series === o.series && x.businessDay === o.businessDay && x.shift === o.shift);
        expect(c, JSON.stringify(o)).toBeDefined();
        expect(o.n, JSON.stringify(o)).toBeLessThanOrEqual(c!.from);
      }
    },
  );
});

describe("restore", () => {
  let source: Awaited<ReturnType<typeof shopWithOrders>>;
  let file: string;
  beforeAll(async () => {
    source = await shopWithOrders("restore_src", 60);
    file = tmp.file("shop.nxb");
    const run = await runCli("backup", [file], { DATABASE_URL: source.db.url });
    expect(run, run.stderr).toMatchObject({ code: 0 });
    expect(run.stdout).toMatch(
      new RegExp(
        `^backup: wrote ${file.replaceAll(/[.*+?^${}()|[\]\\/]/g, "\\$&")} \\([\\d.]+ kB\\): 60 orders, \\d+ rows in \\d+ tables, as of .*, from DATABASE_URL\\n$`,
      ),
    );
  });

  it(
    "into an empty database: every table's rows equal the source's (count and checksum per table), the ceilings only raised",
    { timeout: 180_000 },
    async () => {
      const target = await database("restore_dst", false);
      const run = await runCli("restore", [file], { DATABASE_URL: target.url });
      expect(run, run.stderr).toMatchObject({ code: 0 });
      expect(run.stdout).toMatch(
        /^restore: restored .* into DATABASE_URL: 60 orders, \d+ rows in \d+ tables; 4 counter\(s\) moved on past \d+ minutes? of possible orders\n$/,
      );
      const [src, dst] = await Promise.all([tableDigests(source.db.url, JUMPED), tableDigests(target.url, JUMPED)]);
      expect(Object.keys(dst).sort()).toEqual(Object.keys(src).sort());
      expect(dst).toEqual(src);
      expect(src.Order!.rows).toBe(60);
      expect(src.Tenant!.rows).toBe(1);
      // The ceilings: each one the source has is there, raised by the jump the audit names.
      const before = await query<{ day: string; shift: number; ceiling: number }>(
        source.db.url,
        `SELECT to_char("businessDay", 'YYYY-MM-DD') AS day, shift, ceiling FROM "CounterCeiling"`,
      );
      const after = await query<{ day: string; shift: number; ceiling: number }>(
        target.url,
        `SELECT to_char("businessDay", 'YYYY-MM-DD') AS day, shift, ceiling FROM "CounterCeiling"`,
      );
      for (const b of before) expect(after.find((a) => a.day === b.day && a.shift === b.shift)!.ceiling).toBeGreaterThan(b.ceiling);
      // The migrations are this release's, all of them, recorded as the server's migrator records them.
      expect(await applyMigrations(target.url)).toEqual({ applied: [], ahead: [] });
    },
  );

  it(
    "through a pipe, as the README's Docker Compose commands run it: `npm run -s backup -- -` writes only the backup on stdout, `npm run -s restore -- -` reads it from stdin",
    { timeout: 180_000 },
    async () => {
      const piped = tmp.file("piped.nxb");
      const npm = (args: string[], env: Record<string, string>, stdio: { in?: string; out?: string }) =>
        new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
          const fds = [stdio.in ? openSync(stdio.in, "r") : null, stdio.out ? openSync(stdio.out, "w") : null];
          const child = spawn("npm", ["run", "-s", ...args], {
            env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NODE_ENV: "production", ...env },
            stdio: [fds[0] ?? "ignore", fds[1] ?? "ignore", "pipe"],
          });
          let stderr = "";
          child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
          child.once("error", reject);
          child.once("close", (code) => {
            for (const fd of fds) if (fd !== null) closeSync(fd);
            resolve({ code, stderr });
          });
        });
      const out = await npm(["backup", "--", "-"], { DATABASE_URL: source.db.url }, { out: piped });
      expect(out, out.stderr).toMatchObject({ code: 0 });
      // The command's own line goes to stderr; stdout is the backup alone (npm's -s prints nothing of its own).
      expect(out.stderr).toMatch(/^backup: wrote the backup to stdout \([\d.]+ kB\): 60 orders, /);
      const target = await database("restore_piped", false);
      const back = await npm(["restore", "--", "-"], { DATABASE_URL: target.url }, { in: piped });
      expect(back, back.stderr).toMatchObject({ code: 0 });
      expect(await tableDigests(target.url, JUMPED)).toEqual(await tableDigests(source.db.url, JUMPED));
    },
  );

  it("into a database a server already migrated (no data): restored the same", { timeout: 180_000 }, async () => {
    const target = await database("restore_migrated");
    await restoreFrom(target.url, file);
    expect(await tableDigests(target.url, JUMPED)).toEqual(await tableDigests(source.db.url, JUMPED));
  });

  it("into a database that holds data: refused in a sentence, and nothing in it changes", { timeout: 180_000 }, async () => {
    const before = await tableDigests(source.db.url);
    const migrations = await query(source.db.url, `SELECT * FROM _prisma_migrations ORDER BY migration_name`);
    const run = await runCli("restore", [file], { DATABASE_URL: source.db.url });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^restore: the database already holds data \(tables .*Order.*\): a backup is restored only into an empty database, and nothing was changed\./,
    );
    const refused = await restoreFrom(source.db.url, file).catch((e: unknown) => e);
    expect(isAppError(refused) && refused.reason).toBe("databaseNotEmpty");
    expect(await tableDigests(source.db.url)).toEqual(before);
    expect(await query(source.db.url, `SELECT * FROM _prisma_migrations ORDER BY migration_name`)).toEqual(migrations);
  });

  it("a file that is not a backup, or a damaged one: refused, the empty database left empty", { timeout: 180_000 }, async () => {
    const target = await database("restore_damaged", false);
    const { writeFile, readFile } = await import("node:fs/promises");
    await writeFile(tmp.file("notes.txt"), "not a backup\n");
    const notes = await runCli("restore", [tmp.file("notes.txt")], { DATABASE_URL: target.url });
    expect(notes).toMatchObject({ code: 1, stderr: "restore: this file is not a Nextup backup (npm run backup writes one)\n" });
    const whole = await readFile(file);
    await writeFile(tmp.file("cut.nxb"), whole.subarray(0, Math.floor(whole.length * 0.8)));
    const cut = await runCli("restore", [tmp.file("cut.nxb")], { DATABASE_URL: target.url });
    expect(cut.code).toBe(1);
    expect(cut.stderr).toMatch(/^restore: the backup file is damaged or incomplete/);
    expect(await query(target.url, `SELECT tablename FROM pg_tables WHERE schemaname = 'public'`)).toEqual([]);
  });
});

describe("queued work", () => {
  it("webhook messages pending at the backup are not replayed: given up, with why; delivered ones unchanged", { timeout: 180_000 }, async () => {
    const db = await database("restore_webhooks");
    const slug = uniqueSlug("webhooks");
    const tenant = (await provisionTenants(db.url, [stableDaySpec(slug)]))[slug]!;
    const [endpoint] = await query<{ id: string }>(
      db.url,
      `INSERT INTO "WebhookEndpoint" (id, "tenantId", url, events, "secretEnc") VALUES (gen_random_uuid(), $1, 'https://pos.example.com/hook', '{order.created}', 'x') RETURNING id`,
      [tenant.id],
    );
    await query(
      db.url,
      `INSERT INTO "WebhookDelivery" (id, "tenantId", "endpointId", type, body, attempts, "nextAttemptAt", "deliveredAt", "jobId") VALUES
         (gen_random_uuid(), $1, $2, 'order.created', '{"n":1}', 1, NULL, now(), NULL),
         (gen_random_uuid(), $1, $2, 'order.created', '{"n":2}', 2, now() + interval '1 minute', NULL, gen_random_uuid())`,
      [tenant.id, endpoint!.id],
    );
    const file = tmp.file("webhooks.nxb");
    await backupTo(db.url, file);
    const target = await database("restore_webhooks_new", false);
    expect(await restoreFrom(target.url, file)).toMatchObject({ webhooksGivenUp: 1 });
    const rows = await query<{ body: string; delivered: boolean; gaveUp: boolean; next: Date | null; job: string | null; lastError: string | null }>(
      target.url,
      `SELECT body, "deliveredAt" IS NOT NULL AS delivered, "gaveUpAt" IS NOT NULL AS "gaveUp", "nextAttemptAt" AS next, "jobId" AS job, "lastError" FROM "WebhookDelivery" ORDER BY body`,
    );
    expect(rows).toEqual([
      { body: '{"n":1}', delivered: true, gaveUp: false, next: null, job: null, lastError: null },
      { body: '{"n":2}', delivered: false, gaveUp: true, next: null, job: null, lastError: "not sent: restored from a backup" },
    ]);
  });

  it("a customer's push pending at the backup is not sent after the restore: closed with why; a delivered one unchanged", { timeout: 180_000 }, async () => {
    const db = await database("restore_pushes");
    const slug = uniqueSlug("pushes");
    const tenant = (await provisionTenants(db.url, [stableDaySpec(slug)]))[slug]!;
    const [order] = await query<{ id: string }>(
      db.url,
      `INSERT INTO "Order" (id, "tenantId", "businessDay", shift, number, status, items, channel, "readyAt")
         VALUES (gen_random_uuid(), $1, current_date, 1, 7, 'READY', '[]', 'kiosk', now()) RETURNING id`,
      [tenant.id],
    );
    const [sub] = await query<{ id: string }>(
      db.url,
      `INSERT INTO "PushSubscription" (id, "tenantId", "orderId", endpoint, p256dh, auth, lang)
         VALUES (gen_random_uuid(), $1, $2, 'https://fcm.googleapis.com/fcm/send/x', 'k', 'a', 'en') RETURNING id`,
      [tenant.id, order!.id],
    );
    await query(
      db.url,
      `INSERT INTO "PushDelivery" (id, "tenantId", "subscriptionId", "orderId", kind, since, outcome, "finishedAt", "jobId") VALUES
         (gen_random_uuid(), $1, $2, $3, 'ready', now() - interval '1 minute', 'delivered', now(), NULL),
         (gen_random_uuid(), $1, $2, $3, 'again', now(), NULL, NULL, gen_random_uuid())`,
      [tenant.id, sub!.id, order!.id],
    );
    const file = tmp.file("pushes.nxb");
    await backupTo(db.url, file);
    const target = await database("restore_pushes_new", false);
    await restoreFrom(target.url, file);
    const rows = await query<{ kind: string; outcome: string | null; job: string | null; lastError: string | null }>(
      target.url,
      `SELECT kind, outcome, "jobId" AS job, "lastError" FROM "PushDelivery" ORDER BY kind`,
    );
    expect(rows).toEqual([
      { kind: "again", outcome: "skipped", job: null, lastError: "not sent: restored from a backup" },
      { kind: "ready", outcome: "delivered", job: null, lastError: null },
    ]);
  });
});

describe("a backup of the previous release", () => {
  it("restores into this one: its migrations, its rows, then this release's newer migrations over them", { timeout: 180_000 }, async () => {
    const folders = await readMigrationFolders(MIGRATIONS_DIR);
    // The previous release: main as issue #35 left it, whose newest migration this is; everything after is this release's.
    const previousCount = folders.findIndex((f) => f.name === "20261128050000_print_job_holder") + 1;
    expect(previousCount).toBeGreaterThan(0);
    const older = tmp.file("previous-release");
    for (const f of folders.slice(0, previousCount)) await cp(path.join(MIGRATIONS_DIR, f.name), path.join(older, f.name), { recursive: true });
    await cp(path.join(MIGRATIONS_DIR, "migration_lock.toml"), path.join(older, "migration_lock.toml"));
    const newer = folders.slice(previousCount).map((f) => f.name);

    const previous = await database("backup_previous", false);
    await applyMigrations(previous.url, { migrationsDir: older });
    // Rows as the previous release wrote them: SQL on its schema (this release's client knows columns it lacks).
    const [tenant] = await query<{ id: string }>(
      previous.url,
      `INSERT INTO "Tenant" (id, slug, name, "timeZone") VALUES (gen_random_uuid(), $1, 'Previous Noodles', 'Europe/Berlin') RETURNING id`,
      [uniqueSlug("previous")],
    );
    if (!tenant) throw new Error("no tenant row");
    await query(
      previous.url,
      `INSERT INTO "Order" (id, "tenantId", "businessDay", shift, number, channel) SELECT gen_random_uuid(), $1, current_date, 1, n, 'pos' FROM generate_series(1, 25) n`,
      [tenant.id],
    );
    await query(previous.url, `INSERT INTO "CounterCeiling" ("tenantId", "businessDay", shift, ceiling) VALUES ($1, current_date, 1, 40)`, [tenant.id]);
    await query(previous.url, `INSERT INTO "Printer" (id, "tenantId", name, host) VALUES (gen_random_uuid(), $1, 'Front', 'Printer.local')`, [tenant.id]);
    const file = tmp.file("previous.nxb");
    const written = await backupTo(previous.url, file);
    expect(written).toMatchObject({ orders: 25, migrations: previousCount });

    const target = await database("restore_previous", false);
    const restored = await restoreFrom(target.url, file);
    expect(restored.newerMigrations).toEqual(newer);
    expect((await query<{ name: string }>(target.url, `SELECT migration_name AS name FROM _prisma_migrations ORDER BY 1`)).map((r) => r.name)).toEqual(
      folders.map((f) => f.name),
    );
    const without = { ...JUMPED, Printer: "true" };
    const src = await tableDigests(previous.url, without);
    // The restored rows in the older schema's columns (a newer migration may add a column, with its default).
    const dst = await tableDigests(target.url, without, previous.url);
    // The newer migrations' columns and tables are the only differences of shape: compare the rows the older schema had.
    delete src.Printer;
    delete dst.Printer;
    for (const table of Object.keys(dst)) if (!(table in src)) expect(dst[table], table).toEqual({ rows: 0, md5: "" });
    expect(Object.fromEntries(Object.entries(dst).filter(([table]) => table in src))).toEqual(src);
    // ...and it ran over the restored rows: the printer claimed its address (its backfill).
    expect(await query(target.url, `SELECT name, "addressKey" FROM "Printer"`)).toEqual([{ name: "Front", addressKey: "printer.local:9100" }]);

    // The other way round, a backup of this release into the previous release: refused in a sentence, nothing written.
    const current = tmp.file("current.nxb");
    await backupTo(target.url, current);
    const empty = await database("restore_into_older", false);
    const refused = await restoreFrom(empty.url, current, { migrationsDir: older }).catch((e: unknown) => e);
    expect(isAppError(refused) && refused.reason).toBe("backupFromNewerRelease");
    expect((refused as Error).message).toBe(
      `this backup was made by a newer release (it has migrations this release lacks: ${newer.join(", ")}); restore it with that release or a later one`,
    );
    expect(await query(empty.url, `SELECT tablename FROM pg_tables WHERE schemaname = 'public'`)).toEqual([]);
  });
});
