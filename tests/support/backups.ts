/**
 * Helpers of the backup and restore tests: a backup to a temporary file, the CLIs as child
 * processes, every table's row count and checksum, and a Redis prefix emptied.
 */
import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import pg from "pg";
import { restoreBackup, type RestoreOptions, type RestoreSummary } from "@/lib/adapters/postgres/backup-restore.server";
import { listTables, quoteIdent, writeBackup, type BackupSummary } from "@/lib/adapters/postgres/backup-write.server";
import { runScript, type CliRun } from "./cli";

export async function tempDir(label: string): Promise<{ dir: string; file: (name: string) => string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `nextup-${label}-`));
  return { dir, file: (name) => path.join(dir, name), remove: () => rm(dir, { recursive: true, force: true }) };
}

export const backupTo = (databaseUrl: string, file: string): Promise<BackupSummary> => writeBackup(databaseUrl, createWriteStream(file));
export const restoreFrom = (databaseUrl: string, file: string, opts?: RestoreOptions): Promise<RestoreSummary> =>
  restoreBackup(databaseUrl, createReadStream(file), opts);

/** `npm run backup|restore -- FILE` as the operator runs it, in production mode. */
export const runCli = (script: "backup" | "restore", args: string[], env: Record<string, string>): Promise<CliRun> =>
  runScript(`scripts/${script}.ts`, args, { NODE_ENV: "production", ...env });

export async function query<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/**
 * Per application table: its row count and an md5 of its rows as text, in a stable order.
 * `columnsOf`: another database whose tables' columns are the ones read (an older schema's).
 */
export async function tableDigests(
  url: string,
  where: Record<string, string> = {},
  columnsOf?: string,
): Promise<Record<string, { rows: number; md5: string }>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    let shape: Map<string, string[]> | null = null;
    if (columnsOf) {
      const other = new pg.Client({ connectionString: columnsOf });
      await other.connect();
      try {
        shape = new Map((await listTables(other)).map((t) => [t.name, t.columns]));
      } finally {
        await other.end();
      }
    }
    const out: Record<string, { rows: number; md5: string }> = {};
    for (const t of await listTables(client)) {
      const cols = (shape?.get(t.name) ?? t.columns).map(quoteIdent).join(", ");
      const { rows } = await client.query<{ n: number; md5: string | null }>(
        `SELECT count(*)::int AS n, md5(string_agg(r::text, E'\\n' ORDER BY r::text)) AS md5
           FROM (SELECT ${cols} FROM ${quoteIdent(t.name)} ${where[t.name] ? `WHERE ${where[t.name]}` : ""}) r`,
      );
      out[t.name] = { rows: rows[0]!.n, md5: rows[0]!.md5 ?? "" };
    }
    return out;
  } finally {
    await client.end();
  }
}

/** Deletes every key under `prefix` (and nothing else): Redis lost with the machine, for this test's counters. */
export async function emptyRedisPrefix(redisUrl: string, prefix: string): Promise<number> {
  const redis = new Redis(redisUrl);
  try {
    let deleted = 0;
    for await (const keys of redis.scanStream({ match: `${prefix}*`, count: 500 }) as AsyncIterable<string[]>) {
      if (keys.length) deleted += await redis.del(...keys);
    }
    return deleted;
  } finally {
    redis.disconnect();
  }
}
