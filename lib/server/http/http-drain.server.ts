import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { AppError, toErrorBody } from "@/lib/core/errors";

/**
 * Graceful stop of an HTTP server: waits only for requests in flight, never for
 * connections that merely stay open (keep-alive, upgraded WebSockets such as Next's
 * development HMR socket, which would otherwise hold `server.close()` for its whole timeout
 * — long enough for `tsx watch` to kill the process and orphan the embedded PostgreSQL).
 *
 * Once the stop began, a request arriving on a kept-alive connection is refused with 503
 * and `Connection: close` (`refuseWhileDraining`) instead of starting work that the stop
 * would cut half-way; responses still in flight say `Connection: close`, so clients open
 * their next request elsewhere.
 */
export function trackConnections(server: Server) {
  const sockets = new Set<Socket>();
  const responses = new Set<ServerResponse>();
  let draining = false;
  let onIdle: (() => void) | null = null;

  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  server.on("request", (_req, res: ServerResponse) => {
    responses.add(res);
    res.once("close", () => {
      responses.delete(res);
      // The connection is idle now: close it rather than wait for its next request.
      if (draining) setImmediate(() => server.closeIdleConnections());
      if (responses.size === 0) onIdle?.();
    });
  });

  return {
    /** True when the request was answered with 503 because the server is stopping (the caller must not hand it on). */
    refuseWhileDraining(_req: IncomingMessage, res: ServerResponse): boolean {
      if (!draining) return false;
      const { status, body } = toErrorBody(
        new AppError("UNAVAILABLE", { message: "Server stopping", userMessage: "This server is stopping. Please retry; another one will answer." }),
      );
      res.writeHead(status, { "content-type": "application/json; charset=utf-8", connection: "close", "retry-after": "1" });
      res.end(JSON.stringify(body));
      return true;
    },

    /** Stops accepting, waits for requests in flight (at most `timeoutMs`), then cuts every connection left. */
    async drain(timeoutMs: number): Promise<void> {
      draining = true;
      for (const res of responses) if (!res.headersSent) res.setHeader("connection", "close");
      server.close();
      server.closeIdleConnections();
      if (responses.size > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, timeoutMs);
          onIdle = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      server.closeAllConnections();
      for (const socket of sockets) socket.destroy();
    },
  };
}
