/**
 * `npm run org -- export SLUG FILE` and `npm run org -- import FILE` (decision 0050): one
 * restaurant out of this deployment's database, and into another's. One line on stdout says
 * what was done; errors go to stderr. Exit code 2 for a bad argument, 1 when refused or failed.
 */
import { createReadStream, createWriteStream } from "node:fs";
import { access, rename, rm } from "node:fs/promises";
import { isAppError } from "@/lib/core/errors";
import { writeBackup } from "@/lib/adapters/postgres/backup-write.server";
import { importRestaurant } from "@/lib/adapters/postgres/restaurant-import.server";
import { applyMigrations } from "@/lib/adapters/postgres/migrate.server";
import { cliDatabase, humanBytes } from "./cli-database";

export const MOVE_USAGE = `       npm run org -- export <slug> FILE   one restaurant (settings, menu, series, printers, keys and codes as
                                           hashes, shifts, audit, orders) into FILE ("-": stdout)
       npm run org -- import FILE          brings it into this deployment (its slug must be free here)`;

/** `fail` throws (org.ts's refusal): the embedded database this command started is stopped on the way out. */
export async function moveCommand(command: "export" | "import", args: string[], fail: (message: string, code: number) => never): Promise<void> {
  if (command === "export" ? args.length !== 2 : args.length !== 1) fail(`${command}: wrong arguments\n\n${MOVE_USAGE}`, 2);
  const file = args.at(-1)!;
  const std = file === "-";
  if (
    command === "import" &&
    !std &&
    !(await access(file).then(
      () => true,
      () => false,
    ))
  )
    fail(`cannot read ${file}`, 2);
  let db;
  try {
    db = await cliDatabase({ create: command === "import" });
  } catch (e) {
    fail((e as Error).message, 1);
  }
  try {
    if (command === "export") {
      const partial = `${file}.partial`;
      try {
        const s = await writeBackup(db.url, std ? process.stdout : createWriteStream(partial, { flags: "wx", mode: 0o600 }), { tenantSlug: args[0]! });
        if (!std) await rename(partial, file);
        (std ? process.stderr : process.stdout).write(
          `org: exported ${args[0]} to ${std ? "stdout" : file} (${humanBytes(s.bytes)}): ${s.orders} orders, ${s.rows} rows, as of ${s.snapshotAt.toISOString()}\n`,
        );
      } catch (e) {
        if (!std) await rm(partial, { force: true });
        throw e;
      }
    } else {
      // This release's schema first, as the server makes it at start: the rows go into it.
      await applyMigrations(db.url);
      const s = await importRestaurant(db.url, std ? process.stdin : createReadStream(file));
      process.stdout.write(
        `org: imported ${s.tenant.slug} ("${s.tenant.name}", exported ${s.exportedAt.toISOString()}) into ${db.source}: ${s.orders} orders, ${s.rows} rows; ` +
          `${s.jumps.length} counter(s) moved on; ${s.settled.printJobs} waiting ticket(s) and ${s.settled.webhooks} webhook message(s) given up. ` +
          `Its staff sign in again; give its webhooks a new secret (SESSION_SECRET differs here).\n`,
      );
    }
  } catch (e) {
    fail(isAppError(e) ? e.message : `could not ${command}: ${(e as Error).message}`, 1);
  } finally {
    await db.stop();
  }
}
