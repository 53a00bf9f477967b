/**
 * The Socket.IO contract, shared by the server and the browser. Event names are
 * `domain:verb`. Sockets are read-only: a client only listens (state changes go through
 * server actions or the REST API, which check who is asking).
 */
import type { BoardOrder } from "@/lib/core/orders";

export type { BoardOrder };

export interface ShiftStartedPayload {
  businessDay: string;
  shift: number;
  startedAt: string;
}

export interface ServerToClientEvents {
  "order:created": (order: BoardOrder) => void;
  "order:updated": (order: BoardOrder) => void;
  /** Call this ready number again (the kitchen's "Call again"). */
  "order:called": (order: BoardOrder) => void;
  "shift:started": (shift: ShiftStartedPayload) => void;
  /** The restaurant's settings changed: re-read them (no payload: a screen knows what it uses). */
  "settings:changed": () => void;
  /** The menu changed: a kiosk re-reads it. */
  "menu:changed": () => void;
  /** A printer's state, settings or queue changed: a kiosk or the console re-reads them (through a signed-in read). */
  "printer:changed": () => void;
  /** Sent on every connect: the build the server runs. A screen of another build reloads (decision 0048). */
  "server:build": (build: string) => void;
}

/** Clients send nothing: the board is read-only. */
export type ClientToServerEvents = Record<string, never>;

/** What a client passes in the handshake: `io({ query: { org: "<slug>" } })`. */
export interface BoardHandshakeQuery {
  org: string;
}

/** The room of a tenant's board. */
export const boardRoom = (tenantId: string): string => `org:${tenantId}`;
