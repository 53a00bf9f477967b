// `npm run db:migrate`: applies pending migrations from prisma/migrations to DATABASE_URL,
// recording them in `_prisma_migrations` exactly as `prisma migrate deploy` would (which
// cannot run offline: it downloads a native engine first). Progress goes to stderr.

// First: refuses an unsupported Node.js before anything else loads (decision 0035).
import "./require-node.mjs";
import { aheadWarning, applyMigrations } from "../lib/adapters/postgres/migrate.server";

async function main(): Promise<number> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    console.error("db:migrate: DATABASE_URL is not set. Example: DATABASE_URL=postgresql://user@127.0.0.1:5432/nextup npm run db:migrate");
    return 1;
  }
  try {
    const { applied, ahead } = await applyMigrations(databaseUrl, { log: (msg) => console.error(msg) });
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
