/**
 * Restores a backup (decision 0045) into an empty database, all in ONE transaction: the
 * backup's own migrations (exactly those), its rows (`COPY … FROM STDIN`, constraints
 * intact), this release's newer migrations, then the counters' jump (decision 0046). A
 * failure anywhere — a damaged file, a checksum, a refused database — leaves the database
 * as it was.
 */
import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { AppError, isAppError } from "@/lib/core/errors";
import { checkHeader, checkTrailer, FrameReader, type BackupHeader } from "./backup-format.server";
import { listTables, quoteIdent } from "./backup-write.server";
import {
  applyMigrationInTransaction,
  PRISMA_MIGRATE_ADVISORY_LOCK,
  PRISMA_MIGRATIONS_TABLE_DDL,
  readMigrationFolders,
  scriptMatchesChecksum,
  type MigrationFolder,
} from "./migrate.server";
import { jumpAfterRestore, type RestoredCounterJump } from "./restore-jump.server";
import { settleAfterRestore } from "./settle-after-restore.server";

export interface RestoreOptions {
  /** Defaults to prisma/migrations under the working directory. */
  migrationsDir?: string;
  /** How long to wait for a migrating server's lock or a table's (default 10 s). */
  lockTimeoutMs?: number;
}

export interface RestoreSummary {
  snapshotAt: Date;
  restoredAt: Date;
  tables: number;
  rows: number;
  orders: number;
  /** This release's migrations applied after the backup's rows (a backup of an older release). */
  newerMigrations: string[];
  jumps: RestoredCounterJump[];
  windowSeconds: number;
  /** Webhook messages pending at the backup, marked given up (their queue jobs are not in it). */
  /** Webhook messages waiting at the backup: given up (their queued attempts are not in the file). */
  webhooksGivenUp: number;
  /** Print jobs waiting at the backup: given up as "may have printed" (decision 0050). */
  printJobsGivenUp: number;
}

const damaged = (why: string) => new AppError("BAD_INPUT", { message: `the backup file is damaged or incomplete: ${why}`, reason: "backupDamaged" });

/** Which of this release's migrations the backup names, and which come after: refused when the backup is not of this line of the code or is newer. */
export function planMigrations(header: BackupHeader, folders: MigrationFolder[]): { backups: MigrationFolder[]; newer: MigrationFolder[] } {
  const byName = new Map(folders.map((f) => [f.name, f]));
  const unknown = header.migrations.filter((m) => !byName.has(m.name)).map((m) => m.name);
  if (unknown.length) {
    const newest = folders.at(-1)?.name ?? "";
    const newer = unknown.every((name) => name.localeCompare(newest) > 0);
    throw new AppError("CONFLICT", {
      message: newer
        ? `this backup was made by a newer release (it has migrations this release lacks: ${unknown.join(", ")}); restore it with that release or a later one`
        : `this backup was made by a different version of the code (migrations ${unknown.join(", ")} are not this release's); restore it with the release that made it`,
      reason: newer ? "backupFromNewerRelease" : "backupFromOtherCode",
    });
  }
  const edited = header.migrations.find((m) => !scriptMatchesChecksum(byName.get(m.name)!.sql, m.checksum));
  if (edited) {
    throw new AppError("CONFLICT", {
      message: `migration ${edited.name} of this backup differs from this release's (checksum): restore it with the release that made it`,
      reason: "backupFromOtherCode",
    });
  }
  const named = new Set(header.migrations.map((m) => m.name));
  const newestNamed =
    header.migrations
      .map((m) => m.name)
      .sort((a, b) => a.localeCompare(b))
      .at(-1) ?? "";
  const gap = folders.find((f) => !named.has(f.name) && f.name.localeCompare(newestNamed) < 0);
  if (gap) {
    throw new AppError("CONFLICT", {
      message: `this backup lacks migration ${gap.name}, older than its newest: it was made by a different version of the code`,
      reason: "backupFromOtherCode",
    });
  }
  return { backups: folders.filter((f) => named.has(f.name)), newer: folders.filter((f) => !named.has(f.name)) };
}

/** Tables whose rows are bookkeeping, not a restaurant's data: a migration seeds SchedulerTerm's one row (the scheduler's leader term); a server that started on the database may have recorded a scheduled backup of it (BackupRun). */
const BOOKKEEPING = new Set(["_prisma_migrations", "SchedulerTerm", "BackupRun"]);

/**
 * Refuses a database that holds any row of data, and clears an empty one's schema (a server that
 * started on it migrated it): its tables and enum types go, in this transaction.
 */
async function claimEmptyDatabase(client: pg.ClientBase): Promise<void> {
  const { rows: tables } = await client.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`);
  if (tables.length === 0) return;
  // Under ACCESS EXCLUSIVE: nothing writes a row between the look and the drop.
  await client.query(`LOCK TABLE ${tables.map((t) => quoteIdent(t.name)).join(", ")} IN ACCESS EXCLUSIVE MODE`);
  const holding: string[] = [];
  for (const t of tables) {
    if (BOOKKEEPING.has(t.name)) continue;
    const { rows } = await client.query<{ any: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${quoteIdent(t.name)}) AS any`);
    if (rows[0]!.any) holding.push(t.name);
  }
  if (holding.length) {
    throw new AppError("CONFLICT", {
      message: `the database already holds data (tables ${holding.slice(0, 5).join(", ")}${holding.length > 5 ? "…" : ""}): a backup is restored only into an empty database, and nothing was changed. Create an empty database (createdb) and point DATABASE_URL at it`,
      reason: "databaseNotEmpty",
    });
  }
  const { rows: types } = await client.query<{ name: string }>(
    `SELECT t.typname AS name FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace WHERE n.nspname = 'public' AND t.typtype = 'e'`,
  );
  await client.query(`DROP TABLE ${tables.map((t) => quoteIdent(t.name)).join(", ")} CASCADE`);
  if (types.length) await client.query(`DROP TYPE ${types.map((t) => quoteIdent(t.name)).join(", ")} CASCADE`);
}

/** The rows of one table, frame by frame until the empty frame; hashed on the way. */
export async function* tableData(reader: FrameReader, hashes: ReturnType<typeof createHash>[]): AsyncGenerator<Buffer> {
  for (;;) {
    const data = await reader.next();
    if (data.length === 0) return;
    for (const h of hashes) h.update(data);
    yield data;
  }
}

/** Serial and identity columns continue after the restored rows. */
async function resetSequences(client: pg.ClientBase): Promise<void> {
  const { rows } = await client.query<{ table: string; column: string }>(
    `SELECT table_name AS table, column_name AS column FROM information_schema.columns
      WHERE table_schema = 'public' AND (column_default LIKE 'nextval(%' OR is_identity = 'YES')`,
  );
  for (const { table, column } of rows) {
    await client.query(`SELECT setval(pg_get_serial_sequence($1, $2), COALESCE((SELECT max(${quoteIdent(column)}) FROM ${quoteIdent(table)}), 0) + 1, false)`, [
      quoteIdent(table),
      column,
    ]);
  }
}

/** Restores the backup read from `input` (gzip, as writeBackup writes it) into `databaseUrl`'s empty database. */
export async function restoreBackup(databaseUrl: string, input: Readable, opts: RestoreOptions = {}): Promise<RestoreSummary> {
  const gunzip = createGunzip();
  const unzipped = pipeline(input, gunzip);
  unzipped.catch(() => {}); // reported by the reader below
  const reader = new FrameReader(gunzip[Symbol.asyncIterator]() as AsyncIterator<Buffer>);
  const notABackup = new AppError("BAD_INPUT", { message: "this file is not a Nextup backup (npm run backup writes one)", reason: "notABackup" });
  try {
    if (!(await reader.magic())) throw notABackup;
  } catch (e) {
    throw isAppError(e) ? e : notABackup;
  }
  const header = checkHeader(await reader.json<Parameters<typeof checkHeader>[0]>().catch(() => Promise.reject(damaged("its header cannot be read"))));
  const { backups, newer } = planMigrations(header, await readMigrationFolders(opts.migrationsDir));

  const client = new pg.Client({ connectionString: databaseUrl, application_name: "nextup-restore" });
  client.on("error", () => {});
  await client.connect();
  try {
    await client.query("BEGIN");
    await client.query(`SELECT set_config('lock_timeout', $1, true)`, [`${opts.lockTimeoutMs ?? 10_000}ms`]);
    // No server migrates this database meanwhile (they take the same lock); released at the end of the transaction.
    await client.query(`SELECT pg_advisory_xact_lock($1)`, [PRISMA_MIGRATE_ADVISORY_LOCK]);
    await claimEmptyDatabase(client);
    await client.query(PRISMA_MIGRATIONS_TABLE_DDL);
    for (const m of backups) await applyMigrationInTransaction(client, m);

    const here = new Map((await listTables(client)).map((t) => [t.name, t]));
    // Rows the migrations seeded: the backup holds those tables whole.
    const seeded = header.tables.filter((t) => here.has(t.name)).map((t) => quoteIdent(t.name));
    if (seeded.length) await client.query(`TRUNCATE ${seeded.join(", ")}`);
    const all = createHash("sha256");
    const loaded: { name: string; rows: number; sha256: string }[] = [];
    for (const t of header.tables) {
      if (!here.has(t.name)) throw damaged(`table ${t.name} is not in the schema its migrations make`);
      const hash = createHash("sha256");
      const copy = client.query(copyFrom(`COPY ${quoteIdent(t.name)} (${t.columns.map(quoteIdent).join(", ")}) FROM STDIN`));
      await pipeline(Readable.from(tableData(reader, [hash, all])), copy);
      const rows = Number(copy.rowCount);
      if (rows !== t.rows) throw damaged(`table ${t.name} has ${rows} rows, its header says ${t.rows}`);
      loaded.push({ name: t.name, rows, sha256: hash.digest("hex") });
    }
    await checkTrailer(reader, loaded, all.digest("hex"), damaged);

    await resetSequences(client);
    for (const m of newer) await applyMigrationInTransaction(client, m);
    const settled = await settleAfterRestore(client, "restored from a backup");
    // The backup's record of scheduled backups describes the old machine's files (and its own run, unfinished when
    // the snapshot was taken): forgotten, so the console claims none and the first look after the restore makes one.
    await client.query(`DELETE FROM "BackupRun"`);
    const { restoredAt, windowSeconds, jumps } = await jumpAfterRestore(client, new Date(header.snapshotAt));
    await client.query("COMMIT");
    return {
      snapshotAt: new Date(header.snapshotAt),
      restoredAt,
      tables: loaded.length,
      rows: loaded.reduce((n, t) => n + t.rows, 0),
      orders: loaded.find((t) => t.name === "Order")?.rows ?? 0,
      newerMigrations: newer.map((m) => m.name),
      jumps,
      windowSeconds,
      webhooksGivenUp: settled.webhooks,
      printJobsGivenUp: settled.printJobs,
    };
  } catch (e) {
    await client.query("ROLLBACK").catch(() => {});
    if (!isAppError(e) && /incorrect header check|unexpected end of file|invalid/i.test(String((e as Error)?.message))) throw damaged((e as Error).message);
    throw e;
  } finally {
    input.destroy();
    await client.end().catch(() => {});
  }
}
