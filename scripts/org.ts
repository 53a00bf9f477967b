/**
 * Provisioning CLI.
 *
 *   npm run org -- create <slug> --name "<name>" --timezone <IANA> --day-starts HH:MM
 *
 * Prints one JSON object on stdout (slug, apiKeys and staff sign-in codes, shown once);
 * everything else goes to stderr. Exit code 2 for a bad argument, 1 for other failures.
 */
// First: refuses an unsupported Node.js before anything else loads (decision 0035).
import "./require-node.mjs";
import { inspect, parseArgs } from "node:util";
import { isAppError } from "@/lib/core/errors";
import { formatDayStart } from "@/lib/core/business-day";
import { applyMigrations } from "@/lib/adapters/postgres/migrate.server";
import { createPrisma, Prisma } from "@/lib/adapters/postgres/prisma.server";
import { envFlag } from "@/lib/server/env.server";
import { cliDatabase } from "./cli-database";
import { createTenant } from "@/lib/server/ops/provisioning.server";
import { toAppError } from "@/lib/server/ops/translate-error.server";
import type { Locale } from "@/lib/core/locales";
import { MOVE_USAGE, moveCommand } from "./org-move";

const USAGE = `usage: npm run org -- create <slug> --name "<name>" --timezone <IANA zone> [--day-starts HH:MM] [--language en|zh-CN]
${MOVE_USAGE}

  <slug>          lower-case letters, digits and dashes, used in URLs (/<slug>/board)
  --name          the restaurant's name as shown on tickets and screens
  --timezone      IANA time zone, e.g. Europe/Berlin, Asia/Shanghai, America/New_York
  --day-starts    when the business day (and numbering from 1) starts; default 04:00
  --language      the screens' language unless a device chose one; default: each browser's

With DATABASE_URL: that database. Without it: the embedded one in EMBEDDED_PG_DIR
(default .data/postgres), as \`npm start\` and \`npm run dev\` use it — the running
server's, or started for this command and stopped after it (decision 0047); run it as
the user the server runs as. Pending migrations are applied first, as the server does
when it starts, unless MIGRATE_ON_START=false (then run \`npm run db:migrate\` yourself).`;

/** A refusal: main's caller prints it and exits with its code, after stopping a database this command started. */
class Refusal extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

function fail(message: string, code: number): never {
  throw new Refusal(message, code);
}

/** Stopped before the process exits: an embedded PostgreSQL started for this command. */
const cleanups: (() => Promise<void>)[] = [];

async function main() {
  let parsed;
  try {
    parsed = parseArgs({
      args: process.argv.slice(2),
      allowPositionals: true,
      options: {
        name: { type: "string" },
        timezone: { type: "string" },
        "day-starts": { type: "string", default: "04:00" },
        language: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (e) {
    fail(`${(e as Error).message}\n\n${USAGE}`, 2);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stderr.write(USAGE + "\n");
    return;
  }
  const [command, slug, ...extra] = positionals;
  if (command === "export" || command === "import") {
    await moveCommand(command, positionals.slice(1), fail);
    return;
  }
  if (command !== "create") fail(`unknown command "${command ?? ""}"\n\n${USAGE}`, 2);
  if (!slug) fail(`missing <slug>\n\n${USAGE}`, 2);
  if (extra.length) fail(`unexpected argument "${extra[0]}"\n\n${USAGE}`, 2);
  if (!values.name) fail(`missing --name\n\n${USAGE}`, 2);
  if (!values.timezone) fail(`missing --timezone\n\n${USAGE}`, 2);

  const migrate = envFlag.default(true).safeParse(process.env.MIGRATE_ON_START || undefined);
  if (!migrate.success) fail(`MIGRATE_ON_START must be true or false, not "${process.env.MIGRATE_ON_START}"`, 2);
  const url = process.env.DATABASE_URL || (await embeddedDatabase());
  if (migrate.data) {
    // A fresh database has no tables yet: the same migrations the server applies at start-up, under the same lock.
    try {
      const { applied } = await applyMigrations(url);
      if (applied.length) process.stderr.write(`org: applied ${applied.length} migration(s): ${applied.join(", ")}\n`);
    } catch (e) {
      fail(`could not migrate the database: ${(e as Error).message}`, 1);
    }
  }

  const db = createPrisma(url, { max: 2 });
  try {
    const created = await createTenant(db, {
      slug,
      name: values.name,
      timeZone: values.timezone,
      dayStart: values["day-starts"] ?? "04:00",
      ...(values.language !== undefined ? { floor: { language: values.language as Locale } } : {}),
    });
    const { tenant } = created;
    process.stdout.write(
      JSON.stringify(
        {
          id: tenant.id,
          slug: tenant.slug,
          name: tenant.name,
          timeZone: tenant.timeZone,
          dayStart: formatDayStart(tenant.dayStartMinutes),
          apiKeys: created.apiKeys,
          staff: created.staff,
        },
        null,
        2,
      ) + "\n",
    );
    process.stderr.write(`Created "${tenant.name}" (/${tenant.slug}). Store these secrets now: they are shown only once.\n`);
  } catch (e) {
    // A missing table or column: the schema is behind this code (MIGRATE_ON_START=false skipped the migrations).
    if (e instanceof Prisma.PrismaClientKnownRequestError && (e.code === "P2021" || e.code === "P2022")) {
      fail("the database is not migrated to this version: run `npm run db:migrate` (with the same DATABASE_URL) first", 1);
    }
    const err = isAppError(e) ? e : toAppError(e);
    fail(err.code === "INTERNAL" ? (e as Error).message : err.userMessage, err.code === "BAD_INPUT" || err.code === "CONFLICT" ? 2 : 1);
  } finally {
    await db.$disconnect();
  }
}

/** The embedded database of this folder: the running server's, or one started for this command (scripts/cli-database.ts). */
async function embeddedDatabase(): Promise<string> {
  try {
    const db = await cliDatabase({ create: true });
    cleanups.push(() => db.stop());
    process.stderr.write(`org: no DATABASE_URL: ${db.source}\n`);
    return db.url;
  } catch (e) {
    fail(`could not reach the embedded PostgreSQL: ${(e as Error).message}`, 1);
  }
}

void main()
  .then(
    () => null,
    (e: unknown) => e,
  )
  .then(async (e) => {
    for (const cleanup of cleanups) await cleanup().catch(() => {});
    if (e === null) return;
    process.stderr.write(`error: ${e instanceof Error ? e.message : inspect(e)}\n`);
    process.exit(e instanceof Refusal ? e.exitCode : 1);
  });
