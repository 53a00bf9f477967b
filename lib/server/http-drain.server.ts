import type { Server } from "node:http";
import type { Socket } from "node:net";

/**
 * Graceful stop of an HTTP server: waits only for requests in flight, never for
 * connections that merely stay open (keep-alive, upgraded WebSockets such as Next's
 * development HMR socket, which would otherwise hold `server.close()` for its whole timeout
 * — long enough for `tsx watch` to kill the process and orphan the embedded PostgreSQL).
 */
export function trackConnections(server: Server) {
  const sockets = new Set<Socket>();
  let inFlight = 0;
  let onIdle: (() => void) | null = null;

  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  server.on("request", (_req, res) => {
    inFlight++;
    res.once("close", () => {
      inFlight--;
      if (inFlight === 0) onIdle?.();
    });
  });

  return {
    /** Stops accepting, waits for requests in flight (at most `timeoutMs`), then cuts every connection left. */
    async drain(timeoutMs: number): Promise<void> {
      server.close();
      server.closeIdleConnections();
      if (inFlight > 0) {
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
