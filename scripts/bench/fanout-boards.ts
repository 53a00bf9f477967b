/**
 * A share of fanout.ts's boards, in a process of its own so that no process holds every
 * socket (file descriptors are capped per process) nor decodes for all of them. fanout.ts
 * forks it and drives it over IPC: connect a range of boards, arm them for a round's
 * orders, collect their receipt times (monoMs, comparable with the parent's) in one message.
 */
import { io as connectSocket, type Socket } from "socket.io-client";
import type { BoardOrder } from "@/lib/core/orders";
import { monoMs, ownCpuMs } from "./common";

/** The app's boards or the bare baseline's: each process holds its share of both. */
export type BoardSet = "app" | "bare";

export type Command =
  /** Boards `from` … `to` − 1 of the whole bench: board i watches restaurant i % slugs.length, on the node nodeOf(i). */
  | { type: "connect"; set: BoardSet; urls: string[]; slugs: string[]; from: number; to: number; batchSize: number }
  | { type: "arm"; set: BoardSet; keys: string[] }
  /** Sent once the round's requests or emits are out: waits for the armed set's deliveries up to `timeoutMs`. */
  | { type: "collect"; timeoutMs: number };

export type Reply =
  /** Sent once at start: IPC messages before a listener would be lost. */
  | { type: "ready" }
  | { type: "connected" }
  /** `dropped`: boards of the set whose connection closed since it was made (they never reconnect). */
  | { type: "armed"; dropped: number }
  /** Per board of the range, when it received its order (NaN: missed); this process's CPU since `arm`. */
  | { type: "received"; at: Float64Array; cpuMs: number }
  | { type: "error"; message: string };

interface Board {
  tenant: number;
  socket: Socket;
  receivedAt: number;
}

const boards: Record<BoardSet, Board[]> = { app: [], bare: [] };
/** Per set, the order key each restaurant's boards wait for this round. */
const expected: Record<BoardSet, string[]> = { app: [], bare: [] };
let armed: BoardSet = "app";
let cpuAtArm = 0;

/** A restaurant's boards alternate between the nodes, so that with two nodes half of each room hears its changes through Redis. */
const nodeOf = (i: number, tenants: number, nodes: number) => Math.floor(i / tenants) % nodes;

function connectBoard(set: BoardSet, i: number, url: string, slugs: string[]): Promise<Board> {
  const tenant = i % slugs.length;
  const socket = connectSocket(url, { query: { org: slugs[tenant]! }, transports: ["websocket"], forceNew: true, reconnection: false });
  const board: Board = { tenant, socket, receivedAt: NaN };
  // Only the first arrival of the awaited order counts.
  socket.on("order:updated", (o: BoardOrder) => {
    if (o.key === expected[set][tenant] && Number.isNaN(board.receivedAt)) board.receivedAt = monoMs();
  });
  return new Promise((resolve, reject) => {
    socket.once("connect", () => resolve(board));
    socket.once("connect_error", (e) => reject(new Error(`board ${i} (${slugs[tenant]}): ${e.message}`)));
  });
}

async function connect({ set, urls, slugs, from, to, batchSize }: Extract<Command, { type: "connect" }>): Promise<Reply> {
  for (let start = from; start < to; start += batchSize) {
    const batch = Array.from({ length: Math.min(batchSize, to - start) }, (_, j) =>
      connectBoard(set, start + j, urls[nodeOf(start + j, slugs.length, urls.length)]!, slugs),
    );
    boards[set].push(...(await Promise.all(batch)));
  }
  const connected = boards[set].filter((b) => b.socket.connected).length;
  if (connected !== to - from) throw new Error(`only ${connected} of boards ${from}–${to - 1} connected`);
  return { type: "connected" };
}

function arm({ set, keys }: Extract<Command, { type: "arm" }>): Reply {
  armed = set;
  expected[set] = keys;
  for (const b of boards[set]) b.receivedAt = NaN;
  cpuAtArm = ownCpuMs();
  return { type: "armed", dropped: boards[set].filter((b) => !b.socket.connected).length };
}

async function collect({ timeoutMs }: Extract<Command, { type: "collect" }>): Promise<Reply> {
  const list = boards[armed];
  const deadline = monoMs() + timeoutMs;
  while (list.some((b) => Number.isNaN(b.receivedAt)) && monoMs() < deadline) await new Promise((r) => setTimeout(r, 5));
  return { type: "received", at: Float64Array.from(list, (b) => b.receivedAt), cpuMs: ownCpuMs() - cpuAtArm };
}

async function handle(cmd: Command): Promise<Reply> {
  if (cmd.type === "connect") return connect(cmd);
  if (cmd.type === "arm") return arm(cmd);
  return collect(cmd);
}

const reply = (r: Reply) => process.send!(r);
process.on("message", (cmd) => void handle(cmd as Command).then(reply, (e: unknown) => reply({ type: "error", message: String(e) })));
// The parent closing the channel (done, or gone) ends the boards.
process.on("disconnect", () => process.exit(0));
reply({ type: "ready" });
