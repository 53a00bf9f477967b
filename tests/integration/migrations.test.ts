// Migrations: applied by our own code (lib/adapters/postgres/migrate.server.ts) with
// Prisma's bookkeeping, and kept in step with prisma/schema.prisma. Needs the PostgreSQL
// server of TEST_PG_ADMIN_URL (see tests/support/db.ts); every test has its own database.
import { createHash } from "node:crypto";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

import pg from "pg";
import { describe, expect, it } from "vitest";

import { applyMigrations, DEFAULT_MIGRATIONS_DIR } from "../../lib/adapters/postgres/migrate.server";
import { openSchemaEngine, readSchemaFile } from "../../scripts/schema-engine";
import { createEmptyTestDatabase, createTestDatabase, type TestDatabase } from "../support/db";

const MIGRATIONS_DIR = path.resolve(DEFAULT_MIGRATIONS_DIR);

/** The migration folders and the sha256 of each migration.sql, computed independently of the code under test. */
async function expectedMigrations(dir = MIGRATIONS_DIR): Promise<Array<{ name: string; checksum: string }>> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return Promise.all(
    names.map(async (name) => ({
      name,
      checksum: createHash("sha256")
        .update(await readFile(path.join(dir, name, "migration.sql")))
        .digest("hex"),
    })),
  );
}

async function withDatabase<T>(db: TestDatabase, fn: (db: TestDatabase) => Promise<T>): Promise<T> {
  try {
    return await fn(db);
  } finally {
    await db.drop();
  }
}

async function query<R extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

interface MigrationRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  logs: string | null;
  applied_steps_count: number;
}

const migrationRows = (url: string) =>
  query<MigrationRow>(
    url,
    `SELECT migration_name, checksum, finished_at, rolled_back_at, logs, applied_steps_count
       FROM _prisma_migrations ORDER BY migration_name`,
  );

// Engine start-up, database creation and migration take a second or two each.
describe("database migrations", { timeout: 60_000 }, () => {
  it("applies every migration to a fresh database and records each as Prisma does", async () => {
    const expected = await expectedMigrations();
    expect(expected.length).toBeGreaterThan(0);

    await withDatabase(await createTestDatabase("migrate_fresh"), async (db) => {
      const rows = await migrationRows(db.url);
      expect(rows.map((r) => r.migration_name)).toEqual(expected.map((m) => m.name));
      for (const [i, row] of rows.entries()) {
        expect(row.checksum).toBe(expected[i]!.checksum);
        expect(row.finished_at).toBeInstanceOf(Date);
        expect(row.rolled_back_at).toBeNull();
        expect(row.logs).toBeNull();
        expect(row.applied_steps_count).toBe(1);
      }
      // The schema itself is there.
      const tables = await query<{ t: string | null }>(db.url, `SELECT to_regclass('"Order"')::text AS t`);
      expect(tables[0]?.t).toBe('"Order"');
    });
  });

  it("applies nothing the second time", async () => {
    await withDatabase(await createTestDatabase("migrate_twice"), async (db) => {
      const before = await migrationRows(db.url);
      await expect(applyMigrations(db.url)).resolves.toEqual({ applied: [], ahead: [] });
      expect(await migrationRows(db.url)).toEqual(before);
    });
  });

  it("serialises concurrent runs on Prisma's advisory lock: each migration is applied once", async () => {
    const expected = await expectedMigrations();
    await withDatabase(await createEmptyTestDatabase("migrate_concurrent"), async (db) => {
      const results = await Promise.all([applyMigrations(db.url), applyMigrations(db.url), applyMigrations(db.url)]);
      expect(results.flatMap((r) => r.applied).sort()).toEqual(expected.map((m) => m.name));
      expect((await migrationRows(db.url)).map((r) => r.migration_name)).toEqual(expected.map((m) => m.name));
    });
  });

  it("waits for a lock held by another process, and gives up with a clear error", async () => {
    await withDatabase(await createEmptyTestDatabase("migrate_lock_wait"), async (db) => {
      const holder = new pg.Client({ connectionString: db.url });
      await holder.connect();
      try {
        await holder.query(`SELECT pg_advisory_lock(72707369)`);
        await expect(applyMigrations(db.url, { lockTimeoutMs: 300 })).rejects.toThrow("Timed out after 300 ms waiting for the migration lock");
        // Released while a run waits: that run proceeds.
        const waiting = applyMigrations(db.url, { lockTimeoutMs: 10_000 });
        await new Promise((resolve) => setTimeout(resolve, 200));
        await holder.query(`SELECT pg_advisory_unlock(72707369)`);
        expect((await waiting).applied.length).toBeGreaterThan(0);
      } finally {
        await holder.end();
      }
    });
  });

  it("has no drift: the migrated database matches prisma/schema.prisma", async () => {
    const schema = await readSchemaFile();
    await withDatabase(await createTestDatabase("migrate_drift"), async (db) => {
      const engine = await openSchemaEngine(db.url, { schema });
      try {
        const drift = await engine.diffFromDatabase(schema);
        expect(
          drift,
          "prisma/schema.prisma and prisma/migrations disagree: run `npm run db:new-migration -- <name>` " + "(this SQL is what the new migration needs)",
        ).toBe("");

        // Prove the check can fail: the same schema with one more column is not in sync.
        const modified = {
          path: schema.path,
          content: schema.content.replace(/^model Tenant \{\n/m, "model Tenant {\n  driftProbe String?\n"),
        };
        expect(modified.content).not.toBe(schema.content);
        const probe = await engine.diffFromDatabase(modified);
        expect(probe).toMatch(/ALTER TABLE "Tenant" ADD COLUMN\s+"driftProbe" TEXT/);

        // And from nothing, the schema is a full set of CREATE statements.
        expect(await engine.diffFromEmpty(schema)).toContain('CREATE TABLE "Tenant"');
      } finally {
        await engine.close();
      }
    });
  });

  it("is read by Prisma's own engine as a complete, unedited history", async () => {
    await withDatabase(await createTestDatabase("migrate_prisma_agrees"), async (db) => {
      const engine = await openSchemaEngine(db.url);
      try {
        expect(await engine.diagnoseMigrationHistory(MIGRATIONS_DIR)).toEqual({
          editedMigrationNames: [],
          failedMigrationNames: [],
          hasMigrationsTable: true,
          history: null,
        });
      } finally {
        await engine.close();
      }
    });
  });

  it("refuses to run when an applied migration's checksum differs from its file", async () => {
    const [first] = await expectedMigrations();
    await withDatabase(await createTestDatabase("migrate_tampered"), async (db) => {
      await query(db.url, `UPDATE _prisma_migrations SET checksum = $1 WHERE migration_name = $2`, ["0".repeat(64), first!.name]);
      await expect(applyMigrations(db.url)).rejects.toThrow(`Migration ${first!.name} was modified after it was applied`);
    });
  });

  it("refuses to run when a recorded migration is unfinished or has no folder among ours", async () => {
    const [first] = await expectedMigrations();
    await withDatabase(await createTestDatabase("migrate_bad_history"), async (db) => {
      await query(db.url, `UPDATE _prisma_migrations SET finished_at = NULL, logs = 'boom' WHERE migration_name = $1`, [first!.name]);
      await expect(applyMigrations(db.url)).rejects.toThrow(`Migration ${first!.name} is recorded as started but not finished`);

      // Rows marked rolled back are ignored, as Prisma ignores them; a recorded migration with no folder,
      // older than our newest, is another line of the code and is not.
      await query(db.url, `UPDATE _prisma_migrations SET rolled_back_at = now()`);
      await query(
        db.url,
        `INSERT INTO _prisma_migrations (id, checksum, migration_name, finished_at, applied_steps_count)
         VALUES ('00000000-0000-4000-8000-000000000000', $1, '20000101000000_elsewhere', now(), 1)`,
        ["f".repeat(64)],
      );
      await expect(applyMigrations(db.url)).rejects.toThrow("Migration 20000101000000_elsewhere is recorded in _prisma_migrations but has no folder");
    });
  });

  it("starts an older release on the database a newer release migrated, and says so (decision 0043)", async () => {
    const all = await expectedMigrations();
    const older = await mkdtemp(path.join(os.tmpdir(), "nextup-migrations-older-"));
    try {
      // The older release: every folder but the newest, which only the newer release has.
      for (const m of all.slice(0, -1)) await cp(path.join(MIGRATIONS_DIR, m.name), path.join(older, m.name), { recursive: true });
      await cp(path.join(MIGRATIONS_DIR, "migration_lock.toml"), path.join(older, "migration_lock.toml"));
      const newest = all.at(-1)!.name;
      await withDatabase(await createTestDatabase("migrate_older_release"), async (db) => {
        // createTestDatabase applied the newer release's migrations; the older one starts on them.
        expect(await applyMigrations(db.url, { migrationsDir: older })).toEqual({ applied: [], ahead: [newest] });
        // And the newer one again, after: nothing to do, nothing ahead.
        expect(await applyMigrations(db.url)).toEqual({ applied: [], ahead: [] });

        // Unfinished, a newer release's migration is refused as any unfinished one is.
        await query(db.url, `UPDATE _prisma_migrations SET finished_at = NULL WHERE migration_name = $1`, [newest]);
        await expect(applyMigrations(db.url, { migrationsDir: older })).rejects.toThrow(`Migration ${newest} is recorded as started but not finished`);
        await query(db.url, `UPDATE _prisma_migrations SET finished_at = now() WHERE migration_name = $1`, [newest]);

        // A folder of the older release missing beneath the newer release's migration: not the same line of the code.
        const middle = all.at(-2)!.name;
        await query(db.url, `DELETE FROM _prisma_migrations WHERE migration_name = $1`, [middle]);
        await expect(applyMigrations(db.url, { migrationsDir: older })).rejects.toThrow(
          `Migration ${middle} is not applied, but this database was migrated by a newer release (${newest})`,
        );
      });
    } finally {
      await rm(older, { recursive: true, force: true });
    }
  });

  it("scoping idempotency keys (expand step, decision 0025) keeps every order the release before stored, and its key unique for the old nodes", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "nextup-migrations-"));
    try {
      // The previous release's migrations: every folder before the one that scoped the keys.
      for (const m of await expectedMigrations()) {
        if (m.name.endsWith("_idempotency_scope")) break;
        await cp(path.join(MIGRATIONS_DIR, m.name), path.join(dir, m.name), { recursive: true });
      }
      await withDatabase(await createEmptyTestDatabase("migrate_idem_scope"), async (db) => {
        await applyMigrations(db.url, { migrationsDir: dir });
        const [{ id: tenantId }] = (await query<{ id: string }>(
          db.url,
          `INSERT INTO "Tenant" (id, slug, name, "timeZone") VALUES (gen_random_uuid(), 'upgrade', 'Upgrade', 'UTC') RETURNING id`,
        )) as [{ id: string }];
        // What an old node writes: a key, a request hash, no scope.
        const insert = (number: number, key: string) =>
          query(
            db.url,
            `INSERT INTO "Order" (id, "tenantId", "businessDay", shift, number, "idempotencyKey", "requestHash") VALUES (gen_random_uuid(), $1, '2026-11-25', 1, $2, $3, 'h')`,
            [tenantId, number, key],
          );
        await insert(1, "order-1001");

        await applyMigrations(db.url);
        const rows = await query<{ number: number; idempotencyKey: string; idempotencyScope: string | null; requestHash: string }>(
          db.url,
          `SELECT number, "idempotencyKey", "idempotencyScope", "requestHash" FROM "Order"`,
        );
        expect(rows).toEqual([{ number: 1, idempotencyKey: "order-1001", idempotencyScope: null, requestHash: "h" }]);
        // An old node still running: its second row with the key is refused, as before.
        await expect(insert(2, "order-1001")).rejects.toMatchObject({ code: "23505", constraint: "Order_tenantId_businessDay_idempotencyKey_key" });
        // A new node: two callers' rows with that key go in beside it; one caller's twice does not.
        const scoped = (number: number, scope: string) =>
          query(
            db.url,
            `INSERT INTO "Order" (id, "tenantId", "businessDay", shift, number, "idempotencyKey", "idempotencyScope") VALUES (gen_random_uuid(), $1, '2026-11-25', 1, $2, 'order-1001', $3)`,
            [tenantId, number, scope],
          );
        await scoped(3, "api-key:a");
        await scoped(4, "api-key:b");
        await expect(scoped(5, "api-key:a")).rejects.toMatchObject({
          code: "23505",
          constraint: "Order_tenantId_businessDay_idempotencyScope_idempotencyKey_key",
        });
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("rolls a failing migration back completely and names it", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "nextup-migrations-"));
    try {
      await cp(MIGRATIONS_DIR, dir, { recursive: true });
      await mkdir(path.join(dir, "29991231000000_broken"));
      await writeFile(path.join(dir, "29991231000000_broken", "migration.sql"), `CREATE TABLE "Half" ("id" INTEGER);\nSELECT 1 / 0;\n`);
      await withDatabase(await createTestDatabase("migrate_broken"), async (db) => {
        await expect(applyMigrations(db.url, { migrationsDir: dir })).rejects.toThrow(
          "Migration 29991231000000_broken failed and was rolled back: division by zero",
        );
        expect(await query(db.url, `SELECT to_regclass('"Half"')::text AS t`)).toEqual([{ t: null }]);
        expect((await migrationRows(db.url)).map((r) => r.migration_name)).not.toContain("29991231000000_broken");
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
