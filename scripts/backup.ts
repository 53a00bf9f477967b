/**
 * `npm run backup -- FILE`: a consistent backup of the whole database while the app serves
 * (decision 0045). One line on stdout says what was written; errors go to stderr.
 * Exit code 2 for a bad argument, 1 for other failures.
 */
// First: refuses an unsupported Node.js before anything else loads (decision 0035).
import "./require-node.mjs";
import { createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { isAppError } from "@/lib/core/errors";
import { writeBackup } from "@/lib/adapters/postgres/backup-write.server";
import { cliDatabase, fileArgument, humanBytes } from "./cli-database";

const USAGE = `usage: npm run backup -- FILE

Writes a backup of the whole database to FILE (e.g. backups/nextup-$(date +%F-%H%M).nxb; "-":
stdout) while the app keeps serving. The database is DATABASE_URL's, else the embedded one of \`npm run dev\`
(.data/postgres: the running server's, or started for the backup when none runs).
Restore it with \`npm run restore -- FILE\`.`;

function fail(message: string, code: number): never {
  process.stderr.write(`backup: ${message}\n`);
  process.exit(code);
}

async function main() {
  const file = fileArgument(process.argv.slice(2), USAGE, fail);
  if (file === null) return;
  // "-": the backup on stdout (e.g. out of a container), this command's own line on stderr.
  const toStdout = file === "-";
  const partial = `${file}.partial`;
  let db;
  try {
    db = await cliDatabase({ create: false });
  } catch (e) {
    fail((e as Error).message, 1);
  }
  try {
    // Written aside and renamed when complete: FILE is never a half-written backup.
    const summary = await writeBackup(db.url, toStdout ? process.stdout : createWriteStream(partial, { flags: "wx", mode: 0o600 }));
    if (!toStdout) await rename(partial, file);
    (toStdout ? process.stderr : process.stdout).write(
      `backup: wrote ${toStdout ? "the backup to stdout" : file} (${humanBytes(summary.bytes)}): ${summary.orders} orders, ${summary.rows} rows in ${summary.tables} tables, ` +
        `as of ${summary.snapshotAt.toISOString()}, from ${db.source}\n`,
    );
  } catch (e) {
    if (!toStdout) await rm(partial, { force: true });
    fail(isAppError(e) ? e.message : `could not write the backup: ${(e as Error).message}`, 1);
  } finally {
    await db.stop();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => fail(String(e), 1),
);
