// Throw-away PostgreSQL databases for integration tests. Each test creates its own
// database, fully migrated, on the admin server and drops it when done, so tests never
// share state and can run in parallel.
import { randomBytes } from "node:crypto";

import { applyMigrations } from "../../lib/adapters/postgres/migrate.server";
import { createDatabase, dropDatabase } from "../../scripts/schema-engine";

/**
 * A role that may CREATE/DROP databases (trust auth locally). Read when used: the global
 * setups point it at an embedded PostgreSQL where none answers (tests/support/test-services.ts).
 */
export function testPgAdminUrl(): string {
  return process.env.TEST_PG_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
}

export interface TestDatabase {
  /** Connection URL of the new database. */
  url: string;
  /** Its name: `nextup_test_<label>_<random>`. */
  name: string;
  /** Terminates its connections and drops it. Safe to call twice. */
  drop(): Promise<void>;
}

/** Creates an empty database (no migrations applied) with a unique `nextup_test_<label>_<random>` name, on the run's server unless told another. */
export async function createEmptyTestDatabase(label: string, adminUrl = testPgAdminUrl()): Promise<TestDatabase> {
  // PostgreSQL truncates identifiers at 63 bytes; keep the random suffix intact.
  const safeLabel =
    label
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "_")
      .replace(/^_+|_+$/g, "")
      .slice(0, 30) || "db";
  const name = `nextup_test_${safeLabel}_${randomBytes(4).toString("hex")}`;
  const url = await createDatabase(adminUrl, name);
  return { url, name, drop: () => dropDatabase(adminUrl, name) };
}

/** Creates a fresh database and applies prisma/migrations to it (as `npm run db:migrate` would). */
export async function createTestDatabase(label: string, adminUrl?: string): Promise<TestDatabase> {
  const db = await createEmptyTestDatabase(label, adminUrl);
  try {
    await applyMigrations(db.url);
  } catch (error) {
    await db.drop();
    throw error;
  }
  return db;
}
