/**
 * One restaurant brought into this deployment (decision 0050) from `npm run org -- export`'s
 * file, in ONE transaction: refused when its slug or its id is here already or the file is of a
 * newer release; its rows loaded with `COPY` (every row checked to be the restaurant's, counts
 * and checksums compared), its waiting print jobs and webhook messages settled, and its
 * counters moved past anything its old home may have handed out after the export (0046's rule).
 */
import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { AppError, isAppError } from "@/lib/core/errors";
import { checkHeader, checkTrailer, FrameReader } from "./backup-format.server";
import { planMigrations, tableData } from "./backup-restore.server";
import { listTables, quoteIdent, tenantRows } from "./backup-write.server";
import { PRISMA_MIGRATE_ADVISORY_LOCK, readMigrationFolders } from "./migrate.server";
import { jumpAfterRestore, type RestoredCounterJump } from "./restore-jump.server";
import { settleAfterRestore } from "./settle-after-restore.server";

export interface ImportSummary {
  tenant: { id: string; slug: string; name: string };
  exportedAt: Date;
  rows: number;
  orders: number;
  settled: { printJobs: number; webhooks: number };
  jumps: RestoredCounterJump[];
}

const damaged = (why: string) => new AppError("BAD_INPUT", { message: `the export file is damaged or incomplete: ${why}`, reason: "backupDamaged" });

/** Brings the restaurant read from `input` into `databaseUrl`'s database, which this release has migrated. */
export async function importRestaurant(databaseUrl: string, input: Readable, opts: { migrationsDir?: string } = {}): Promise<ImportSummary> {
  const gunzip = createGunzip();
  pipeline(input, gunzip).catch(() => {}); // reported by the reader below
  const reader = new FrameReader(gunzip[Symbol.asyncIterator]() as AsyncIterator<Buffer>);
  const notAnExport = new AppError("BAD_INPUT", {
    message: "this file is not a Nextup restaurant export (npm run org -- export writes one)",
    reason: "notABackup",
  });
  if (!(await reader.magic().catch(() => false))) throw notAnExport;
  const header = checkHeader(
    await reader.json<Parameters<typeof checkHeader>[0]>().catch(() => Promise.reject(damaged("its header cannot be read"))),
    "nextup-restaurant",
  );
  const tenant = header.tenant!;
  // A file of a newer release (or another line of the code) is refused; an older one's rows fit this schema (migrations only add).
  planMigrations(header, await readMigrationFolders(opts.migrationsDir));

  const client = new pg.Client({ connectionString: databaseUrl, application_name: "nextup-import" });
  client.on("error", () => {});
  await client.connect();
  try {
    await client.query("BEGIN");
    await client.query(`SELECT set_config('lock_timeout', '10s', true)`);
    // No migration runs meanwhile (servers take the same lock to migrate).
    await client.query(`SELECT pg_advisory_xact_lock($1)`, [PRISMA_MIGRATE_ADVISORY_LOCK]);
    const { rows: clash } = await client.query<{ slug: string; id: string }>(`SELECT slug, id::text AS id FROM "Tenant" WHERE slug = $1 OR id = $2::uuid`, [
      tenant.slug,
      tenant.id,
    ]);
    if (clash.some((c) => c.id === tenant.id)) {
      throw new AppError("CONFLICT", { message: `${tenant.slug} (${tenant.id}) is already in this deployment: nothing was changed`, reason: "restaurantHere" });
    }
    if (clash.length) {
      throw new AppError("CONFLICT", {
        message: `the slug ${tenant.slug} is taken here by another restaurant: nothing was changed. Rename one of them first`,
        reason: "slugTaken",
      });
    }
    const here = new Map((await listTables(client)).map((t) => [t.name, t]));
    const all = createHash("sha256");
    const loaded: { name: string; rows: number; sha256: string }[] = [];
    for (const t of header.tables) {
      const table = here.get(t.name);
      const missing = t.columns.find((c) => !table?.columns.includes(c));
      if (!table || missing) throw damaged(`${t.name}${missing ? `.${missing}` : ""} is not in this database's schema`);
      const where = tenantRows(table, tenant.id);
      if (where === null) throw damaged(`table ${t.name} is not a restaurant's`);
      const hash = createHash("sha256");
      const copy = client.query(copyFrom(`COPY ${quoteIdent(t.name)} (${t.columns.map(quoteIdent).join(", ")}) FROM STDIN`));
      await pipeline(Readable.from(tableData(reader, [hash, all])), copy);
      const rows = Number(copy.rowCount);
      if (rows !== t.rows) throw damaged(`table ${t.name} has ${rows} rows, its header says ${t.rows}`);
      // The restaurant is new here, so every row it owns now came from the file: all of them must be its own.
      const { rows: own } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${quoteIdent(t.name)} WHERE ${where}`);
      if (own[0]!.n !== rows) throw damaged(`table ${t.name} holds rows of another restaurant`);
      loaded.push({ name: t.name, rows, sha256: hash.digest("hex") });
    }
    await checkTrailer(reader, loaded, all.digest("hex"), damaged);
    if (!loaded.some((t) => t.name === "Tenant" && t.rows === 1)) throw damaged("it holds no restaurant");

    const settled = await settleAfterRestore(client, "the restaurant moved to another deployment", tenant.id);
    const { jumps } = await jumpAfterRestore(client, new Date(header.snapshotAt), { tenantId: tenant.id, action: "counter.jumpedAfterImport" });
    await client.query("COMMIT");
    return {
      tenant,
      exportedAt: new Date(header.snapshotAt),
      rows: loaded.reduce((n, t) => n + t.rows, 0),
      orders: loaded.find((t) => t.name === "Order")?.rows ?? 0,
      settled,
      jumps,
    };
  } catch (e) {
    await client.query("ROLLBACK").catch(() => {});
    if (isAppError(e)) throw e;
    if ((e as { code?: string }).code === "23505") {
      throw new AppError("CONFLICT", {
        message: `something of this restaurant is another's here (${(e as { constraint?: string }).constraint ?? "a unique value"}; e.g. a printer's address): nothing was changed`,
        reason: "importClash",
      });
    }
    if (/incorrect header check|unexpected end of file/i.test(String((e as Error)?.message))) throw damaged((e as Error).message);
    throw e;
  } finally {
    input.destroy();
    await client.end().catch(() => {});
  }
}
