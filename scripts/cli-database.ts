/**
 * The database a command-line tool works on (backup, restore): DATABASE_URL, else the
 * embedded PostgreSQL of `npm run dev` — the running server's when one answers on
 * EMBEDDED_PG_PORT, else started here for the command and stopped after it.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { reachEmbeddedPostgres } from "@/lib/server/dev/dev-services.server";
import { embeddedPostgresEnv } from "@/lib/server/env.server";
import { createLogger } from "@/lib/server/ops/logger.server";

export interface CliDatabase {
  url: string;
  /** Where it came from, for the command's own line: "DATABASE_URL", "the running server's embedded database"… */
  source: string;
  stop(): Promise<void>;
}

/**
 * `create`: start (and initialise) the embedded database even where none exists yet (a restore or
 * a first restaurant on a new machine). A server running on the folder is found by its
 * postmaster.pid, never by a port that another folder's server may hold.
 */
export async function cliDatabase(opts: { create: boolean }): Promise<CliDatabase> {
  const url = process.env.DATABASE_URL;
  if (url) return { url, source: "DATABASE_URL", stop: async () => {} };
  const parsed = embeddedPostgresEnv.safeParse({
    EMBEDDED_PG_DIR: process.env.EMBEDDED_PG_DIR || undefined,
    EMBEDDED_PG_PORT: process.env.EMBEDDED_PG_PORT || undefined,
  });
  if (!parsed.success) {
    const port = parsed.error.issues.some((i) => i.path[0] === "EMBEDDED_PG_PORT");
    throw new Error(
      port
        ? `EMBEDDED_PG_PORT must be a port from 1024 to 65535, not ${JSON.stringify(process.env.EMBEDDED_PG_PORT)}`
        : `EMBEDDED_PG_DIR must name a folder, not ${JSON.stringify(process.env.EMBEDDED_PG_DIR)}`,
    );
  }
  const { EMBEDDED_PG_DIR: dir, EMBEDDED_PG_PORT: port } = parsed.data;
  if (!opts.create && !existsSync(path.join(dir, "PG_VERSION"))) {
    throw new Error(
      `DATABASE_URL is not set and there is no embedded database in ${dir}: set DATABASE_URL, or run this where \`npm start\` or \`npm run dev\` keeps its data`,
    );
  }
  const pg = await reachEmbeddedPostgres(dir, port, createLogger(process.env.LOG_LEVEL || "warn"));
  const where = path.resolve(dir);
  return {
    url: pg.url,
    source: pg.startedHere ? `the embedded database in ${where} (started for this command)` : `the running server's embedded database in ${where}`,
    stop: () => pg.stop(),
  };
}

/**
 * The one FILE argument of `backup` and `restore` ("-": stdout or stdin); null when the help was
 * asked for (and printed). Anything else is refused with exit code 2.
 */
export function fileArgument(args: string[], usage: string, fail: (message: string, code: number) => never): string | null {
  if (args.includes("-h") || args.includes("--help")) {
    process.stderr.write(usage + "\n");
    return null;
  }
  if (args.length !== 1 || (args[0]!.startsWith("-") && args[0] !== "-")) fail(`expected one FILE\n\n${usage}`, 2);
  return args[0]!;
}

/** "2.3 MB" */
export function humanBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ["kB", "MB", "GB", "TB"];
  let v = n / 1024;
  let i = 0;
  for (; v >= 1024 && i < units.length - 1; i++) v /= 1024;
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}
