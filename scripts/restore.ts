/**
 * `npm run restore -- FILE`: restores a backup of `npm run backup` into an EMPTY database
 * (decisions 0045, 0046): its migrations, its rows, this release's newer migrations, and
 * every recent counter moved past the numbers handed out after the backup. One line on
 * stdout; the counters' jumps on stderr. Exit code 2 for a bad argument, 1 when refused or failed.
 */
// First: refuses an unsupported Node.js before anything else loads (decision 0035).
import "./require-node.mjs";
import { createReadStream } from "node:fs";
import { access } from "node:fs/promises";
import { isAppError } from "@/lib/core/errors";
import { restoreBackup } from "@/lib/adapters/postgres/backup-restore.server";
import { cliDatabase, fileArgument } from "./cli-database";

const USAGE = `usage: npm run restore -- FILE

Restores FILE (written by \`npm run backup\`; "-": stdin) into an empty database: DATABASE_URL's, else the
embedded one of \`npm run dev\` (.data/postgres; stop the server first, or it already holds data).
A database that holds data is refused and left unchanged. Numbers then go on past any that
may have been handed out after the backup (README, "Backups and moving").`;

function fail(message: string, code: number): never {
  process.stderr.write(`restore: ${message}\n`);
  process.exit(code);
}

async function main() {
  const file = fileArgument(process.argv.slice(2), USAGE, fail);
  if (file === null) return;
  // "-": the backup from stdin (e.g. into a container).
  const fromStdin = file === "-";
  if (!fromStdin) await access(file).catch(() => fail(`cannot read ${file}`, 2));
  let db;
  try {
    db = await cliDatabase({ create: true });
  } catch (e) {
    fail((e as Error).message, 1);
  }
  try {
    const s = await restoreBackup(db.url, fromStdin ? process.stdin : createReadStream(file));
    for (const j of s.jumps) {
      process.stderr.write(
        `restore: counter ${j.series ?? "(default)"} of ${j.businessDay}/${j.shift} (restaurant ${j.tenantId}): ${j.from} → ${j.to}${j.lapped ? " (comes round within the jump: numbers from before the restore may be given again)" : ""}\n`,
      );
    }
    if (s.webhooksGivenUp) process.stderr.write(`restore: ${s.webhooksGivenUp} webhook message(s) pending at the backup marked given up (not sent)\n`);
    if (s.printJobsGivenUp)
      process.stderr.write(
        `restore: ${s.printJobsGivenUp} ticket(s) waiting to print at the backup marked given up (they may have printed; reprint from the console if a customer has none)\n`,
      );
    const minutes = Math.round(s.windowSeconds / 60);
    process.stdout.write(
      `restore: restored ${fromStdin ? "the backup from stdin" : file} (as of ${s.snapshotAt.toISOString()}) into ${db.source}: ${s.orders} orders, ${s.rows} rows in ${s.tables} tables` +
        `${s.newerMigrations.length ? `, then ${s.newerMigrations.length} newer migration(s)` : ""}; ${s.jumps.length} counter(s) moved on past ` +
        `${minutes} minute${minutes === 1 ? "" : "s"} of possible orders\n`,
    );
  } catch (e) {
    fail(isAppError(e) ? e.message : `could not restore: ${(e as Error).message}`, 1);
  } finally {
    await db.stop();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => fail(String(e), 1),
);
