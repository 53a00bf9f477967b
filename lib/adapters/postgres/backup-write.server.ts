/**
 * Writes a backup (decision 0045) while the app serves: one REPEATABLE READ, READ ONLY
 * transaction — one snapshot, no lock beyond COPY's ACCESS SHARE — and `COPY … TO STDOUT`
 * per application table, framed into one gzip stream (backup-format.server.ts).
 * Reusable by anything that wants a backup on a stream (a scheduled backup, a CLI).
 */
import { createHash } from "node:crypto";
import { once } from "node:events";
import { Transform, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import { AppError } from "@/lib/core/errors";
import { BACKUP_FORMAT_VERSION, BACKUP_MAGIC, frame, jsonFrame, type BackupHeader, type BackupTable, type BackupTrailer } from "./backup-format.server";

/** Tables that are not the application's data: the migrations are named in the header and applied again on restore. */
const NOT_BACKED_UP = new Set(["_prisma_migrations"]);

export const quoteIdent = (name: string): string => `"${name.replaceAll('"', '""')}"`;

export interface BackupSummary {
  snapshotAt: Date;
  tables: number;
  rows: number;
  orders: number;
  /** Bytes written (compressed). */
  bytes: number;
  migrations: number;
}

/**
 * The application's tables in schema `public` with their columns (generated ones left out:
 * COPY cannot write them), parents before children so that a restore meets every foreign
 * key intact.
 */
export async function listTables(client: pg.ClientBase): Promise<{ name: string; columns: string[] }[]> {
  const { rows: cols } = await client.query<{ table: string; column: string }>(
    `SELECT c.table_name AS table, c.column_name AS column
       FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE' AND c.is_generated = 'NEVER'
      ORDER BY c.table_name, c.ordinal_position`,
  );
  const { rows: refs } = await client.query<{ child: string; parent: string }>(
    `SELECT c.relname AS child, p.relname AS parent
       FROM pg_constraint k
       JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE k.contype = 'f' AND n.nspname = 'public' AND c.oid <> p.oid`,
  );
  const columns = new Map<string, string[]>();
  for (const { table, column } of cols) if (!NOT_BACKED_UP.has(table)) columns.set(table, [...(columns.get(table) ?? []), column]);
  const parents = new Map<string, string[]>();
  for (const { child, parent } of refs) parents.set(child, [...(parents.get(child) ?? []), parent]);
  const ordered: string[] = [];
  const visiting = new Set<string>();
  const visit = (t: string) => {
    if (ordered.includes(t) || visiting.has(t) || !columns.has(t)) return;
    visiting.add(t);
    for (const p of parents.get(t) ?? []) visit(p);
    ordered.push(t);
  };
  [...columns.keys()].sort().forEach(visit);
  return ordered.map((name) => ({ name, columns: columns.get(name)! }));
}

async function findTenant(client: pg.ClientBase, slug: string): Promise<ExportedTenant> {
  const { rows } = await client.query<ExportedTenant>(`SELECT id::text AS id, slug, name FROM "Tenant" WHERE slug = $1`, [slug]);
  if (!rows[0]) throw new AppError("NOT_FOUND", { message: `there is no restaurant ${JSON.stringify(slug)} in this database`, reason: "noSuchRestaurant" });
  return rows[0];
}

async function write(out: Writable, data: Buffer): Promise<void> {
  if (!out.write(data)) await once(out, "drain");
}

export interface BackupOptions {
  /** Called (and awaited) before each table is read, with its name and row count: progress for a caller that reports it. */
  onTable?: (table: string, rows: number) => Promise<void> | void;
  /** One restaurant only (`npm run org -- export`, decision 0050): its row of Tenant and its rows of every table with a tenantId. */
  tenantSlug?: string;
}

/** The restaurant an export is of, in its header. */
export interface ExportedTenant {
  id: string;
  slug: string;
  name: string;
}

/** Which rows of `table` belong to the tenant `id` (a uuid read from the database); null: none of its rows do (deployment-wide). */
export function tenantRows(table: { name: string; columns: string[] }, id: string): string | null {
  if (table.name === "Tenant") return `"id" = '${id}'::uuid`;
  return table.columns.includes("tenantId") ? `"tenantId" = '${id}'::uuid` : null;
}

/** Writes a backup of `databaseUrl`'s whole database to `out` (which it ends). */
export async function writeBackup(databaseUrl: string, out: Writable, opts: BackupOptions = {}): Promise<BackupSummary> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: "nextup-backup" });
  client.on("error", () => {}); // a lost connection fails the running query, which is reported
  await client.connect();
  const gzip = createGzip();
  let bytes = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  const written = pipeline(gzip, counted, out);
  // A failure downstream (a full disk) must stop the reading, not leave it waiting for "drain".
  written.catch(() => gzip.destroy());
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY");
    // The snapshot is taken by the first query: everything below reads the same moment.
    const { rows: facts } = await client.query<{ now: Date; server: string }>(`SELECT now() AS now, current_setting('server_version') AS server`);
    const { rows: migrations } = await client.query<{ name: string; checksum: string }>(
      `SELECT migration_name AS name, checksum FROM _prisma_migrations
        WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`,
    );
    const tenant = opts.tenantSlug === undefined ? null : await findTenant(client, opts.tenantSlug);
    const tables: (BackupTable & { where: string | null })[] = [];
    for (const t of await listTables(client)) {
      const where = tenant ? tenantRows(t, tenant.id) : null;
      if (tenant && where === null) continue;
      const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${quoteIdent(t.name)}${where ? ` WHERE ${where}` : ""}`);
      tables.push({ ...t, rows: Number(rows[0]!.n), where });
    }
    const header: BackupHeader = {
      format: tenant ? "nextup-restaurant" : "nextup-backup",
      version: BACKUP_FORMAT_VERSION,
      snapshotAt: facts[0]!.now.toISOString(),
      server: facts[0]!.server,
      migrations,
      tables: tables.map((t) => ({ name: t.name, columns: t.columns, rows: t.rows })),
      ...(tenant ? { tenant } : {}),
    };
    await write(gzip, BACKUP_MAGIC);
    await write(gzip, jsonFrame(header));
    const all = createHash("sha256");
    const trailer: BackupTrailer = { tables: [], sha256: "" };
    for (const t of tables) {
      await opts.onTable?.(t.name, t.rows);
      const hash = createHash("sha256");
      let rows = 0;
      const columns = t.columns.map(quoteIdent).join(", ");
      const source = t.where ? `(SELECT ${columns} FROM ${quoteIdent(t.name)} WHERE ${t.where})` : `${quoteIdent(t.name)} (${columns})`;
      const copy = client.query(copyTo(`COPY ${source} TO STDOUT`));
      for await (const chunk of copy as AsyncIterable<Buffer>) {
        hash.update(chunk);
        all.update(chunk);
        // Text format: one line per row, newlines inside values escaped.
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) rows++;
        await write(gzip, frame(chunk));
      }
      await write(gzip, frame(Buffer.alloc(0)));
      trailer.tables.push({ name: t.name, rows, sha256: hash.digest("hex") });
    }
    trailer.sha256 = all.digest("hex");
    await write(gzip, jsonFrame(trailer));
    await client.query("COMMIT");
    gzip.end();
    await written;
    const orders = tables.find((t) => t.name === "Order")?.rows ?? 0;
    return {
      snapshotAt: facts[0]!.now,
      tables: tables.length,
      rows: tables.reduce((n, t) => n + t.rows, 0),
      orders,
      bytes,
      migrations: migrations.length,
    };
  } catch (e) {
    gzip.destroy(e instanceof Error ? e : new Error(String(e)));
    await written.catch(() => {});
    throw e;
  } finally {
    await client.end().catch(() => {});
  }
}
