// Dev tooling only: Prisma's schema engine, compiled to WebAssembly, driven through the
// pg driver adapter. Used to generate migrations (`npm run db:new-migration`) and by the
// test that fails when prisma/schema.prisma and prisma/migrations drift apart. The app
// never loads this file; migrations are applied by ./migrate.server.ts.
//
// Why not the Prisma CLI: its `migrate` commands download a native schema engine from
// Prisma's CDN first, which offline machines (and this project's CI) cannot reach.
//
// !! @prisma/schema-engine-wasm is an INTERNAL Prisma package with no stability promise.
// It is pinned to an exact version in package.json on purpose; when upgrading prisma, pick
// the schema-engine-wasm build closest to prisma's own engines (see
// node_modules/@prisma/engines-version) and rerun tests/integration/migrations.test.ts.
// Its wasm-bindgen glue is regenerated with every build, so only ever load the .js and the
// .wasm shipped together in that package.
//
// Version: prisma 7.10.1 uses engines 8.1.0-1.d1b3f377…, which is not published as
// schema-engine-wasm; 8.1.0-2.59be4fda… is. Both builds have the same wasm imports/exports
// and produce byte-identical SQL for this project's schema (checked against the copy of the
// 8.1.0-1 wasm bundled in node_modules/prisma/build). The package declares node >= 22.
//
// Used here, and covered by tests/integration/migrations.test.ts: `diff` from an empty
// schema or from a live database to a schema.prisma, and `diagnoseMigrationHistory`. Not
// used: `createMigration` and diffs from a migrations folder (they need a shadow database),
// and url targets (the wasm engine rejects `--from-url/--to-url`; a live database is
// reached through the adapter with a `schemaDatasource` target instead).
import { readdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";

import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import type { DiagnoseMigrationHistoryOutput, DiffTarget, MigrationList, SchemaContainer, SchemaEngine } from "@prisma/schema-engine-wasm/schema_engine_bg";
import pg from "pg";

type EngineBindings = typeof import("@prisma/schema-engine-wasm/schema_engine_bg");

/** A schema.prisma file: where it lives (used in error messages) and its text. */
export type SchemaFile = SchemaContainer;

/** The project's schema, relative to the working directory (scripts and tests run from the repo root). */
export const DEFAULT_SCHEMA_PATH = "prisma/schema.prisma";

export async function readSchemaFile(schemaPath: string = DEFAULT_SCHEMA_PATH): Promise<SchemaFile> {
  const absolute = path.resolve(schemaPath);
  return { path: absolute, content: await readFile(absolute, "utf8") };
}

// ---------------------------------------------------------------------------------------
// Loading the engine

let bindingsPromise: Promise<EngineBindings> | undefined;

/**
 * Loads the wasm module once per process. The package's own entry point does
 * `import * as wasm from "./schema_engine_bg.wasm"`, experimental in Node 24 (it warns), so we do
 * what that entry point would: instantiate the .wasm with the glue module as its import
 * object, hand the exports back to the glue, and run wasm-bindgen's start function.
 * The glue keeps the instance in module state, hence the once-per-process cache.
 */
function loadBindings(): Promise<EngineBindings> {
  bindingsPromise ??= (async () => {
    const require = createRequire(import.meta.url);
    const gluePath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
    const bindings: EngineBindings = await import("@prisma/schema-engine-wasm/schema_engine_bg");
    const bytes = await readFile(path.join(path.dirname(gluePath), "schema_engine_bg.wasm"));
    const { instance } = await WebAssembly.instantiate(bytes, {
      "./schema_engine_bg.js": bindings as unknown as WebAssembly.ModuleImports,
    });
    bindings.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return bindings;
  })();
  return bindingsPromise;
}

// ---------------------------------------------------------------------------------------
// The database connection handed to the engine

// PostgreSQL's internal one-byte type `"char"` (OID 18), used by catalog columns such as
// pg_class.relkind and pg_constraint.contype that the engine reads to describe a database.
const PG_INTERNAL_CHAR_OID = 18;
const PG_TEXT_OID = 25;

type QueryResultLike = { fields?: Array<{ name: string; dataTypeID: number }>; rows?: unknown[]; rowCount?: number | null } | undefined;

function relabelInternalChar<T extends QueryResultLike>(result: T): T {
  for (const field of result?.fields ?? []) {
    if (field.dataTypeID === PG_INTERNAL_CHAR_OID) field.dataTypeID = PG_TEXT_OID;
  }
  return dropNotNullConstraints(result);
}

/**
 * PostgreSQL 18 lists NOT NULL as constraints too (pg_constraint.contype 'n'), which this
 * engine build does not know: describing the database panics. Nullability already comes
 * from the columns (attnotnull), so those rows are left out. (The embedded PostgreSQL of
 * `npm run dev`, and of `npm test` where no server answers, is 18.)
 */
function dropNotNullConstraints<T extends QueryResultLike>(result: T): T {
  const column = result?.fields?.findIndex((f) => f.name === "constraint_type") ?? -1;
  if (!result?.rows || column < 0) return result;
  result.rows = result.rows.filter((row) => (Array.isArray(row) ? row[column] : (row as Record<string, unknown>).constraint_type) !== "n");
  result.rowCount = result.rows.length;
  return result;
}

/**
 * @prisma/adapter-pg 7.10 rejects result columns of type `"char"` ("Column type 'char'
 * could not be deserialized from the database"), so describing a live database fails.
 * pg already returns those values as one-character strings; this client only reports the
 * columns as text so the adapter lets them through. It covers both `pool.query` (which
 * passes a callback) and queries on checked-out clients (which return a promise).
 */
class CatalogFriendlyClient extends pg.Client {
  // `any`: pg's query() has many overloads; this override forwards them all unchanged.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(...args: any[]): any {
    const query = (super.query as (...a: unknown[]) => unknown).bind(this);
    const callbackIndex = args.findIndex((arg) => typeof arg === "function");
    if (callbackIndex >= 0) {
      const callback = args[callbackIndex] as (err: unknown, res: QueryResultLike) => void;
      args[callbackIndex] = (err: unknown, res: QueryResultLike) => callback(err, err ? res : relabelInternalChar(res));
      return query(...(args as unknown[]));
    }
    const result = query(...(args as unknown[]));
    return result instanceof Promise ? result.then(relabelInternalChar) : result;
  }
}

// ---------------------------------------------------------------------------------------
// Public API

export interface SchemaEngineSession {
  /** SQL that creates `to` in an empty database (includes `CREATE SCHEMA IF NOT EXISTS "public"`). */
  diffFromEmpty(to: SchemaFile): Promise<string>;
  /**
   * SQL that takes the session's database to `to`, in Prisma's migration format; "" when
   * the database already matches. `_prisma_migrations` is ignored, as Prisma does.
   */
  diffFromDatabase(to: SchemaFile): Promise<string>;
  /**
   * Prisma's own reading of the session database's `_prisma_migrations` against a
   * migrations folder (what `prisma migrate status` reports): edited, failed and
   * unapplied migrations. Read-only; no shadow database.
   */
  diagnoseMigrationHistory(migrationsDir: string): Promise<DiagnoseMigrationHistoryOutput>;
  /** Frees the engine and ends the connection pool. Always call it: the pool keeps the process alive. */
  close(): Promise<void>;
}

/**
 * Starts a schema engine connected to `databaseUrl` (the engine connects at start-up, even
 * for diffs that never read the database). The database is only read, never changed.
 */
export async function openSchemaEngine(databaseUrl: string, opts: { schema?: SchemaFile; log?: (line: string) => void } = {}): Promise<SchemaEngineSession> {
  const bindings = await loadBindings();
  const schema = opts.schema ?? (await readSchemaFile());
  const pool = new pg.Pool({ connectionString: databaseUrl, Client: CatalogFriendlyClient });
  pool.on("error", () => {}); // an idle client dropped by the server; the next query reports it
  const adapterFactory = bindMigrationAwareSqlAdapterFactory(new PrismaPg(pool));

  let engine: SchemaEngine;
  try {
    engine = await bindings.SchemaEngine.new(
      { datamodels: [[schema.path, schema.content]] },
      // The engine logs JSON lines (tracing events); dropped unless asked for.
      (line: string) => opts.log?.(line),
      adapterFactory,
    );
  } catch (error) {
    await pool.end();
    throw error;
  }

  const diff = async (from: DiffTarget, to: SchemaFile): Promise<string> => {
    const result = await engine.diff({
      from,
      to: { tag: "schemaDatamodel", files: [to] },
      script: true,
      // Makes the engine report a non-empty diff as exit code 2 (and an empty one as 0):
      // a reliable emptiness test, unlike matching the "-- This is an empty migration." text.
      exitCode: true,
      filters: { externalTables: [], externalEnums: [] },
    });
    return result.exitCode === 2 ? (result.stdout ?? "") : "";
  };

  let closed = false;
  return {
    diffFromEmpty: (to) => diff({ tag: "empty" }, to),
    // A `schemaDatasource` target describes the database behind the datasource of the given
    // schema files; in the wasm engine that is always the adapter's database.
    diffFromDatabase: (to) => diff({ tag: "schemaDatasource", files: [schema], configDir: path.dirname(schema.path) }, to),
    diagnoseMigrationHistory: async (migrationsDir) =>
      engine.diagnoseMigrationHistory({
        migrationsList: await readMigrationList(migrationsDir),
        optInToShadowDatabase: false,
        filters: { externalTables: [], externalEnums: [] },
      }),
    async close() {
      if (closed) return;
      closed = true;
      engine.free();
      await pool.end();
    },
  };
}

/** A migrations folder in the shape the engine expects, read as the Prisma CLI reads it. */
async function readMigrationList(migrationsDir: string): Promise<MigrationList> {
  const baseDir = path.resolve(migrationsDir);
  const lockfile = await readFile(path.join(baseDir, "migration_lock.toml"), "utf8").catch(() => null);
  const entries = await readdir(baseDir, { withFileTypes: true });
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort((a, b) => a.localeCompare(b));
  return {
    baseDir,
    lockfile: { path: "migration_lock.toml", content: lockfile },
    shadowDbInitScript: "",
    migrationDirectories: await Promise.all(
      names.map(async (name) => ({
        path: name,
        migrationFile: {
          path: "migration.sql",
          content: await readFile(path.join(baseDir, name, "migration.sql"), "utf8").then(
            (value) => ({ tag: "ok" as const, value }),
            (error: Error) => ({ tag: "error" as const, value: error.message }),
          ),
        },
      })),
    ),
  };
}

// ---------------------------------------------------------------------------------------
// Scratch databases (for generating migrations and for tests)

/** Quotes a PostgreSQL identifier. */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** `adminUrl` with its database replaced by `databaseName`. */
export function databaseUrlFor(adminUrl: string, databaseName: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${encodeURIComponent(databaseName)}`;
  return url.toString();
}

async function withAdminClient<T>(adminUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  client.on("error", () => {});
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates an empty database on the server of `adminUrl` and returns its URL. */
export async function createDatabase(adminUrl: string, databaseName: string): Promise<string> {
  await withAdminClient(adminUrl, (client) => client.query(`CREATE DATABASE ${quoteIdent(databaseName)}`));
  return databaseUrlFor(adminUrl, databaseName);
}

/** Drops a database, terminating its connections first (`WITH (FORCE)`, PostgreSQL 13+). */
export async function dropDatabase(adminUrl: string, databaseName: string): Promise<void> {
  await withAdminClient(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${quoteIdent(databaseName)} WITH (FORCE)`));
}
