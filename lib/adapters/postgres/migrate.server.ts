// Applies the migrations in prisma/migrations to a PostgreSQL database, without the Prisma
// CLI (whose `migrate` commands first download a native engine that offline machines
// cannot fetch). The bookkeeping is Prisma's own: the same `_prisma_migrations` table,
// rows and checksums, and the same advisory lock, so `prisma migrate deploy/status` on a
// machine that has the engine agrees with what this code did, and the other way round.
//
// Differences from `prisma migrate deploy`, all on the strict side:
// - each migration runs in one explicit transaction together with its bookkeeping row, so
//   a failing migration leaves neither schema changes nor a failed row behind (Prisma
//   records a failed row that must be resolved by hand); migration.sql must therefore not
//   contain BEGIN/COMMIT or statements that cannot run in a transaction (Prisma's own
//   multi-statement execution has the same limitation);
// - an edited migration, a failed/unfinished row or a recorded migration with no folder
//   stops everything with an error, where Prisma's deploy would only warn about some --
//   except migrations newer than every folder here, finished and not rolled back: a newer
//   release applied them (expand-only, docs/database.md), so this older release still
//   starts beside it or after a roll-back (decision 0043) and says so.
import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

import pg from "pg";

/** What an older release says when it runs on a newer release's database (the caller logs it as a warning). */
export function aheadWarning(ahead: readonly string[]): string {
  return (
    `This database was migrated by a newer release (${ahead.join(", ")}); this older release runs on it because ` +
    `a release's migrations only add (docs/database.md). Finish the upgrade or the roll-back: start the newer release again, ` +
    `or restore the backup taken before it.`
  );
}

/** Relative to the working directory: the app, scripts and tests all run from the repo root. */
export const DEFAULT_MIGRATIONS_DIR = "prisma/migrations";

/** The key Prisma's schema engine locks with (`SELECT pg_advisory_lock(72707369)`). */
export const PRISMA_MIGRATE_ADVISORY_LOCK = 72707369;

/** Prisma's DDL for its bookkeeping table, verbatim from the PostgreSQL connector. */
export const PRISMA_MIGRATIONS_TABLE_DDL = `CREATE TABLE _prisma_migrations (
    id                      VARCHAR(36) PRIMARY KEY NOT NULL,
    checksum                VARCHAR(64) NOT NULL,
    finished_at             TIMESTAMPTZ,
    migration_name          VARCHAR(255) NOT NULL,
    logs                    TEXT,
    rolled_back_at          TIMESTAMPTZ,
    started_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    applied_steps_count     INTEGER NOT NULL DEFAULT 0
);`;

/** How long to wait for another process (e.g. a second app node) to finish migrating. */
const DEFAULT_LOCK_TIMEOUT_MS = 60_000;

export interface MigrationFolder {
  /** The folder name, e.g. `20261121000000_init`; recorded as `migration_name`. */
  name: string;
  /** Contents of its migration.sql. */
  sql: string;
  /** sha256 of migration.sql's bytes, lowercase hex: what Prisma records as `checksum`. */
  checksum: string;
}

export interface ApplyMigrationsOptions {
  /** Defaults to prisma/migrations under the working directory. */
  migrationsDir?: string;
  /** Progress messages (one line each). Silent by default. */
  log?: (msg: string) => void;
  /** Maximum wait for the advisory lock held by another migrating process (default 60 s). */
  lockTimeoutMs?: number;
}

export interface AppliedMigrations {
  /** The folders this call applied, in order. */
  applied: string[];
  /**
   * Finished migrations a newer release recorded, newer than every folder here: this is an
   * older release running on that release's database (decision 0043). Empty normally.
   */
  ahead: string[];
}

export function migrationChecksum(script: string | Uint8Array): string {
  return createHash("sha256").update(script).digest("hex");
}

/**
 * Prisma's comparison (schema-connector's `script_matches_checksum`): the recorded
 * checksum may also match the script with its line endings swapped, so a checkout that
 * converted LF to CRLF (or back) does not count as an edited migration.
 */
export function scriptMatchesChecksum(sql: string, recorded: string): boolean {
  if (migrationChecksum(sql) === recorded) return true;
  const swapped = sql.includes("\r\n") ? sql.replaceAll("\r\n", "\n") : sql.replaceAll("\n", "\r\n");
  return migrationChecksum(swapped) === recorded;
}

/**
 * Reads the migration folders, in the order Prisma applies them: every subdirectory is a
 * migration and must hold a migration.sql; files beside them (migration_lock.toml) are not.
 */
export async function readMigrationFolders(migrationsDir: string = DEFAULT_MIGRATIONS_DIR): Promise<MigrationFolder[]> {
  const dir = path.resolve(migrationsDir);
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    // Prisma treats a missing folder as "no migrations"; for an app applying migrations at
    // start-up that usually means a wrong working directory, so say so.
    throw new Error(`Migrations directory ${dir} cannot be read: ${(error as Error).message}`, { cause: error });
  }

  await checkLockfile(dir);

  // Prisma's CLI sorts with localeCompare; for `<timestamp>_<name>` folders that is plain name order.
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort((a, b) => a.localeCompare(b));

  return Promise.all(
    names.map(async (name) => {
      const file = path.join(dir, name, "migration.sql");
      let bytes: Buffer;
      try {
        bytes = await readFile(file);
      } catch (error) {
        throw new Error(`Migration ${name} has no readable migration.sql (${file}): ${(error as Error).message}`, {
          cause: error,
        });
      }
      return { name, sql: bytes.toString("utf8"), checksum: migrationChecksum(bytes) };
    }),
  );
}

/** migration_lock.toml, when present, must name PostgreSQL: these migrations are its SQL dialect. */
async function checkLockfile(dir: string): Promise<void> {
  const lockfile = await readFile(path.join(dir, "migration_lock.toml"), "utf8").catch(() => null);
  if (lockfile === null) return;
  const provider = /^\s*provider\s*=\s*"([^"]*)"/m.exec(lockfile)?.[1];
  if (provider !== "postgresql") {
    throw new Error(
      `${path.join(dir, "migration_lock.toml")} names provider ${JSON.stringify(provider ?? null)}; ` +
        `these migrations can only be applied to PostgreSQL ("postgresql").`,
    );
  }
}

interface MigrationRow {
  id: string;
  checksum: string;
  finished_at: Date | null;
  migration_name: string;
  logs: string | null;
  rolled_back_at: Date | null;
  applied_steps_count: number;
}

/**
 * Applies every migration folder not yet recorded in `_prisma_migrations`, in name order,
 * each in its own transaction, and records it exactly as Prisma does. Safe to call from
 * several processes at once (they serialise on Prisma's advisory lock) and idempotent.
 * Throws, naming the migration, when the recorded history does not match the folders.
 */
export async function applyMigrations(databaseUrl: string, opts: ApplyMigrationsOptions = {}): Promise<AppliedMigrations> {
  const log = opts.log ?? (() => {});
  const folders = await readMigrationFolders(opts.migrationsDir);

  const client = new pg.Client({ connectionString: databaseUrl });
  // Without a listener a dropped connection would crash the process; the pending query
  // rejects with the same error, which is what gets reported.
  client.on("error", () => {});
  await client.connect();
  try {
    await acquireLock(client, opts.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS, log);
    try {
      // Only under the lock: two processes must not both find the table missing.
      const { rows: exists } = await client.query<{ table: string | null }>(`SELECT to_regclass('_prisma_migrations')::text AS table`);
      if (exists[0]?.table == null) {
        await client.query(PRISMA_MIGRATIONS_TABLE_DDL);
        log("Created _prisma_migrations.");
      }

      const { rows } = await client.query<MigrationRow>(
        `SELECT id, checksum, finished_at, migration_name, logs, rolled_back_at, applied_steps_count
           FROM _prisma_migrations ORDER BY started_at, migration_name`,
      );
      const { applied: appliedNames, ahead } = checkHistory(rows, folders);

      const applied: string[] = [];
      for (const folder of folders) {
        if (appliedNames.has(folder.name)) continue;
        log(`Applying migration ${folder.name}...`);
        await applyOne(client, folder);
        applied.push(folder.name);
        log(`Applied migration ${folder.name}.`);
      }
      return { applied, ahead };
    } finally {
      await client.query(`SELECT pg_advisory_unlock($1)`, [PRISMA_MIGRATE_ADVISORY_LOCK]).catch(() => {});
    }
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Takes Prisma's migrate lock for this session, waiting at most `timeoutMs`. The lock is
 * per session, so everything after it runs on this one connection.
 */
async function acquireLock(client: pg.Client, timeoutMs: number, log: (msg: string) => void): Promise<void> {
  const { rows } = await client.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock($1) AS locked`, [PRISMA_MIGRATE_ADVISORY_LOCK]);
  if (rows[0]?.locked) return;

  log(`Another process is applying migrations (advisory lock ${PRISMA_MIGRATE_ADVISORY_LOCK}); waiting...`);
  // lock_timeout also bounds advisory-lock waits; reset afterwards so it does not apply to migrations.
  await client.query(`SELECT set_config('lock_timeout', $1, false)`, [`${Math.max(1, Math.round(timeoutMs))}ms`]);
  try {
    await client.query(`SELECT pg_advisory_lock($1)`, [PRISMA_MIGRATE_ADVISORY_LOCK]);
  } catch (error) {
    if ((error as { code?: string }).code === "55P03") {
      throw new Error(
        `Timed out after ${timeoutMs} ms waiting for the migration lock (pg_advisory_lock(${PRISMA_MIGRATE_ADVISORY_LOCK})) ` +
          `held by another process; is another migration still running?`,
        { cause: error },
      );
    }
    throw error;
  } finally {
    await client.query(`RESET lock_timeout`);
  }
}

/**
 * Compares the recorded history with the folders: the names already applied, and the
 * finished migrations a newer release recorded after every folder here ("ahead").
 * Rows marked rolled back are ignored, as Prisma ignores them.
 */
function checkHistory(rows: MigrationRow[], folders: MigrationFolder[]): { applied: Set<string>; ahead: string[] } {
  const byName = new Map(folders.map((folder) => [folder.name, folder]));
  const newestFolder = folders.at(-1)?.name;
  const applied = new Set<string>();
  const ahead: string[] = [];
  for (const row of rows) {
    if (row.rolled_back_at !== null) continue;
    const name = row.migration_name;
    if (row.finished_at === null) {
      throw new Error(
        `Migration ${name} is recorded as started but not finished in _prisma_migrations (it failed or was ` +
          `interrupted${row.logs ? `: ${row.logs.trim()}` : ""}). Fix the database by hand, then mark the row ` +
          `rolled back (set rolled_back_at) or delete it, and run the migrations again.`,
      );
    }
    const folder = byName.get(name);
    if (!folder) {
      // Sorted after every folder here: a newer release's expand step. Anywhere else: another line of the code.
      if (newestFolder !== undefined && name.localeCompare(newestFolder) > 0) {
        ahead.push(name);
        continue;
      }
      throw new Error(
        `Migration ${name} is recorded in _prisma_migrations but has no folder in the migrations directory: ` +
          `this database was migrated by a different version of the code.`,
      );
    }
    if (!scriptMatchesChecksum(folder.sql, row.checksum)) {
      throw new Error(
        `Migration ${name} was modified after it was applied: migration.sql has checksum ${folder.checksum}, ` +
          `_prisma_migrations records ${row.checksum}. Restore the original file and put the change in a new migration.`,
      );
    }
    applied.add(name);
  }
  // An older release may run on a newer database only if it has nothing left to apply: a folder
  // of ours missing beneath a newer release's migrations would be applied out of order.
  const missing = folders.find((folder) => !applied.has(folder.name));
  if (ahead.length && missing) {
    throw new Error(
      `Migration ${missing.name} is not applied, but this database was migrated by a newer release ` +
        `(${ahead.join(", ")}) that does not have it: this database was migrated by a different version of the code.`,
    );
  }
  return { applied, ahead: ahead.sort((a, b) => a.localeCompare(b)) };
}

/**
 * One migration and its bookkeeping row, in the caller's transaction (a restore applies
 * several in its own): `_prisma_migrations` must exist.
 */
export async function applyMigrationInTransaction(client: pg.ClientBase, folder: MigrationFolder): Promise<void> {
  const id = randomUUID();
  // The row Prisma writes when it starts a migration (started_at defaults to now())...
  await client.query(`INSERT INTO _prisma_migrations (id, checksum, migration_name) VALUES ($1, $2, $3)`, [id, folder.checksum, folder.name]);
  // ...the script, sent as one multi-statement simple query, as Prisma sends it...
  await client.query(folder.sql);
  // ...and the update Prisma makes when it finishes (one step: the whole script).
  await client.query(
    `UPDATE _prisma_migrations
        SET finished_at = clock_timestamp(), applied_steps_count = applied_steps_count + 1
      WHERE id = $1`,
    [id],
  );
}

/** One migration and its bookkeeping row, all or nothing. */
async function applyOne(client: pg.Client, folder: MigrationFolder): Promise<void> {
  await client.query("BEGIN");
  try {
    await applyMigrationInTransaction(client, folder);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw new Error(`Migration ${folder.name} failed and was rolled back: ${(error as Error).message}`, {
      cause: error,
    });
  }
}
