/**
 * Starts the real app (server.ts, production build in .next) as a child process on a
 * free port, against the given database and Redis, and waits until it answers.
 * `npm test` runs `npm run build` first.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { trackChild } from "./child-registry";
import { freePort } from "./ports";

export interface AppServer {
  url: string;
  port: number;
  proc: ChildProcess;
  /** Everything the process printed (for failure messages). */
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * The run's Redis. Read when used: the global setups start a private one where none
 * answers (tests/support/test-services.ts) and pass it on in process.env.
 */
export function testRedisUrl(): string {
  return process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
}
/** testRedisUrl() as the test files see it (their workers start after the global setup). */
export const TEST_REDIS_URL = testRedisUrl();

export async function startAppServer(opts: {
  databaseUrl: string;
  redisUrl?: string;
  keyPrefix: string;
  env?: Record<string, string>;
  timeoutMs?: number;
  /** A fixed port, e.g. to restart a server where its clients expect it; default: a free one. */
  port?: number;
  /** Extra node flags, e.g. `--cpu-prof` for a benchmark's profile. */
  nodeArgs?: string[];
  /** Where server.ts starts (its `.next`): default this checkout; a second build (tests/support/second-build.ts). */
  cwd?: string;
}): Promise<AppServer> {
  const cwd = opts.cwd ?? process.cwd();
  if (!existsSync(path.join(cwd, ".next/BUILD_ID"))) {
    throw new Error("No production build in .next: run `npm run build` first (npm test does).");
  }
  const port = opts.port ?? (await freePort());
  // Tracked: a test that fails while starting several nodes must not leave the first ones running.
  const proc = spawn(process.execPath, [...(opts.nodeArgs ?? []), "--import", "tsx", "server.ts"], {
    cwd,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATABASE_URL: opts.databaseUrl,
      REDIS_URL: opts.redisUrl ?? testRedisUrl(),
      REDIS_KEY_PREFIX: opts.keyPrefix,
      SESSION_SECRET: randomBytes(32).toString("hex"),
      LOG_LEVEL: "warn",
      NEXT_TELEMETRY_DISABLED: "1",
      // Passed on for `npm run bench:runtimes`, which runs servers on another Node.js on purpose.
      ...(process.env.NEXTUP_ALLOW_ANY_NODE ? { NEXTUP_ALLOW_ANY_NODE: process.env.NEXTUP_ALLOW_ANY_NODE } : {}),
      ...opts.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  trackChild(proc);
  let out = "";
  proc.stdout?.on("data", (d: Buffer) => (out += d.toString()));
  proc.stderr?.on("data", (d: Buffer) => (out += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));

  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`app server exited with ${proc.exitCode}:\n${out}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.status === 200 || res.status === 503) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      proc.kill("SIGKILL");
      throw new Error(`app server did not answer within ${opts.timeoutMs ?? 60_000} ms:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }

  return {
    url,
    port,
    proc,
    output: () => out,
    async stop(signal = "SIGTERM") {
      if (proc.exitCode !== null) return proc.exitCode;
      proc.kill(signal);
      const timer = setTimeout(() => proc.kill("SIGKILL"), 15_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/**
 * For a server a whole run shares: every test connects from 127.0.0.1, so the per-address
 * limits would count the suite as one client. The limits themselves are tested on servers
 * of their own (tests/integration/abuse-limits.test.ts).
 */
export const SHARED_SERVER_ENV: Record<string, string> = {
  AUTH_FAILURES_PER_MINUTE: "1000000",
  PUBLIC_REQUESTS_PER_MINUTE: "1000000",
  SOCKET_HANDSHAKES_PER_MINUTE: "1000000",
  SOCKET_CONNECTIONS_PER_ADDRESS: "100000",
  STAFF_ACTIONS_PER_ADDRESS_PER_MINUTE: "1000000",
  PROBE_REQUESTS_PER_SECOND: "1000000",
};

/** A unique Redis key prefix for one test run. */
export function testKeyPrefix(label: string): string {
  return `nextup-test:${label}:${randomBytes(4).toString("hex")}:`;
}
