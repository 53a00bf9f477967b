/**
 * A graceful stop must not wait on connections that merely stay open: a client that sent
 * half a request and went quiet, an idle keep-alive connection, a live board socket. Before
 * the drain waited only for requests in flight, such a connection held the stop until the
 * 10 s force exit (exit code 1) — in development long enough for `tsx watch` to kill the
 * server and orphan its embedded PostgreSQL.
 */
import { connect, type Socket } from "node:net";
import { afterAll, expect, inject, it } from "vitest";
import { startAppServer, testKeyPrefix } from "../support/app-server";
import { BoardSocket } from "../support/board-socket";

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
