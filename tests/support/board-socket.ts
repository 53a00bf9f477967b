/**
 * A real socket.io-client connected to a running app server's board room, recording
 * every event it receives, with a way to wait for a particular one.
 */
import { io, type Socket } from "socket.io-client";
import { boardKey } from "@/lib/core/orders";

export interface Received {
  event: string;
  payload: Record<string, unknown>;
}

const DEFAULT_WAIT_MS = 10_000;

export class BoardSocket {
  readonly received: Received[] = [];
  /** The build the server named on connect ("server:build", decision 0048): kept apart from the board's events. */
  build: string | null = null;
  private waiters: { match: (r: Received) => boolean; resolve: (r: Received) => void }[] = [];

  private constructor(
    readonly socket: Socket,
    readonly label: string,
  ) {
    socket.onAny((event: string, payload: Record<string, unknown>) => {
      if (event === "server:build") {
        this.build = payload as unknown as string;
        return;
      }
      const r = { event, payload };
      this.received.push(r);
      this.waiters = this.waiters.filter((w) => {
        if (!w.match(r)) return true;
        w.resolve(r);
        return false;
      });
    });
  }

  /** Connects to `baseUrl` for tenant `org`; rejects with the connect_error. */
  static connect(baseUrl: string, org: string, label = org): Promise<BoardSocket> {
    const socket = io(baseUrl, { query: { org }, transports: ["websocket"], forceNew: true, reconnection: false });
    const client = new BoardSocket(socket, label);
    return new Promise((resolve, reject) => {
      socket.once("connect", () => resolve(client));
      socket.once("connect_error", (err) => {
        socket.close();
        reject(err);
      });
    });
  }

  /**
   * Resolves with the first event (already received or arriving later) matching; rejects
   * after `timeoutMs` listing what did arrive. The timeout only bounds a failing test.
   */
  waitFor(event: string, match: (payload: Record<string, unknown>) => boolean, timeoutMs = DEFAULT_WAIT_MS): Promise<Received> {
    const pred = (r: Received) => r.event === event && match(r.payload);
    const seen = this.received.find(pred);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w.resolve !== done);
        reject(new Error(`${this.label}: no matching "${event}" within ${timeoutMs} ms; received: ${JSON.stringify(this.received)}`));
      }, timeoutMs);
      const done = (r: Received) => {
        clearTimeout(timer);
        resolve(r);
      };
      this.waiters.push({ match: pred, resolve: done });
    });
  }

  /**
   * Events about `order`. Public events carry no id, and keys ("day/shift/number") repeat
   * across restaurants: the key and the creation time together name one order.
   */
  eventsFor(order: { businessDay: string; shift: number; number: number; createdAt: string }): Received[] {
    return this.received.filter((r) => r.payload?.key === boardKey(order) && r.payload?.createdAt === order.createdAt);
  }

  close(): void {
    this.socket.close();
  }
}

/** Tries to connect for `org` and resolves with the connect_error (rejects if it connects). */
export function expectConnectError(baseUrl: string, org: string | undefined, timeoutMs = DEFAULT_WAIT_MS): Promise<Error> {
  const socket = io(baseUrl, { query: org === undefined ? {} : { org }, transports: ["websocket"], forceNew: true, reconnection: false });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.close();
      reject(new Error(`neither connect nor connect_error for org ${String(org)} within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once("connect", () => {
      clearTimeout(timer);
      socket.close();
      reject(new Error(`socket for org ${String(org)} connected, expected connect_error`));
    });
    socket.once("connect_error", (err) => {
      clearTimeout(timer);
      socket.close();
      resolve(err);
    });
  });
}
