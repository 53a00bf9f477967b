// `npm run db:migrate`: applies pending migrations from prisma/migrations to DATABASE_URL, else
// to the embedded database of one box (cli-database.ts), recording them in `_prisma_migrations` exactly as `prisma migrate deploy` would (which
// cannot run offline: it downloads a native engine first). Progress goes to stderr.

// First: refuses an unsupported Node.js before anything else loads (decision 0035).
import "./require-node.mjs";
import { aheadWarning, applyMigrations } from "../lib/adapters/postgres/migrate.server";
import { cliDatabase, type CliDatabase } from "./cli-database";

async function main(): Promise<number> {
  let db: CliDatabase;
  try {
    db = await cliDatabase({ create: false });
  } catch (error) {
    console.error(`db:migrate: ${(error as Error).message}`);
    return 1;
  }
  try {
    if (db.source !== "DATABASE_URL") console.error(`db:migrate: ${db.source}`);
    const { applied, ahead } = await applyMigrations(db.url, { log: (msg) => console.error(msg) });
    if (ahead.length) console.error(`db:migrate: warning: ${aheadWarning(ahead)}`);
    console.error(
      applied.length === 0
        ? "db:migrate: the database is up to date; no migration applied."
        : `db:migrate: applied ${applied.length} migration(s): ${applied.join(", ")}`,
    );
    return 0;
  } catch (error) {
    console.error(`db:migrate: ${(error as Error).message}`);
    return 1;
  } finally {
    await db.stop();
  }
}

// Explicit exit: nothing left should keep the process alive, but a migration tool must never hang.
main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
