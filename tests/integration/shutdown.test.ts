/**
 * A graceful stop must not wait on connections that merely stay open: a client that sent
 * half a request and went quiet, an idle keep-alive connection, a live board socket. Before
 * the drain waited only for requests in flight, such a connection held the stop until the
 * 10 s force exit (exit code 1) — in development long enough for `tsx watch` to kill the
 * server and orphan its embedded PostgreSQL.
 */
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { connect, type Socket } from "node:net";
import { afterAll, expect, inject, it } from "vitest";
import { startAppServer, TEST_REDIS_URL, testKeyPrefix } from "../support/app-server";
import { freePort } from "../support/ports";
import { BoardSocket } from "../support/board-socket";
import { contractFetch } from "../support/http";

const databaseUrl = inject("databaseUrl");
const open: Socket[] = [];
afterAll(() => open.forEach((s) => s.destroy()));

function rawConnection(port: number, send: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(port, "127.0.0.1", () => {
      s.write(send);
      resolve(s);
    });
    s.on("error", () => {});
    s.once("error", reject);
    open.push(s);
  });
}

it("SIGTERM with open connections ends the process cleanly (exit 0), cutting those connections", async () => {
  const app = await startAppServer({ databaseUrl, keyPrefix: testKeyPrefix("shutdown"), env: { LOG_LEVEL: "info" } });
  const board = await BoardSocket.connect(app.url, "alpha", "shutdown");
  const quiet = await rawConnection(app.port, "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n"); // never finishes its headers
  const keepAlive = await rawConnection(app.port, "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n");
  await new Promise<void>((resolve) => keepAlive.once("data", () => resolve()));
  const quietClosed = new Promise<void>((resolve) => quiet.once("close", () => resolve()));

  const code = await app.stop("SIGTERM");
  board.close();

  expect(code, app.output()).toBe(0);
  expect(app.output()).toContain('"msg":"bye"');
  await quietClosed; // the server cut it rather than waiting for it
});

/** The pids listening on `port` (to clean up an orphan if the stop failed). */
function listeners(port: number): number[] {
  const out = spawnSync("ss", ["-ltnpH", `sport = :${port}`], { encoding: "utf8" }).stdout ?? "";
  return [...out.matchAll(/pid=(\d+)/g)].map((m) => Number(m[1]));
}

it("SIGTERM to `npm start` reaches the server: it shuts down gracefully and no orphan keeps the port", async () => {
  const port = await freePort();
  const npm = spawn("npm", ["start", "--silent"], {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_KEY_PREFIX: testKeyPrefix("npm-start"),
      SESSION_SECRET: randomBytes(32).toString("hex"),
      LOG_LEVEL: "info",
      NEXT_TELEMETRY_DISABLED: "1",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  npm.stdout.on("data", (d: Buffer) => (out += d.toString()));
  npm.stderr.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => npm.once("exit", () => resolve()));
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const up = await contractFetch(`http://127.0.0.1:${port}/api/health`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (up) break;
      if (Date.now() > deadline) throw new Error(`npm start did not answer:\n${out}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    npm.kill("SIGTERM");
    await exited;
    // The server itself logged its graceful stop, and nothing listens on its port any more.
    const freeBy = Date.now() + 12_000;
    while (listeners(port).length > 0 && Date.now() < freeBy) await new Promise((r) => setTimeout(r, 200));
    expect(listeners(port), out).toEqual([]);
    expect(out).toContain('"msg":"bye"');
  } finally {
    for (const pid of listeners(port)) process.kill(pid, "SIGKILL");
  }
});
