/**
 * Benchmark: how long a status change takes to reach every board. N socket.io-client
 * sockets (websocket only, `query: { org }`, as the board page connects) spread over T
 * restaurants, on 1 app node or split evenly over 2 (same database and key prefix: the
 * Redis adapter relays broadcasts). Per round, one PLACED order of each restaurant (created
 * beforehand through the REST API) is moved to READY through the REST API, all restaurants
 * at once; for every socket, the time from sending its restaurant's request to receiving
 * that order's `order:updated` (performance.now() in this process). Not a test: it prints figures.
 *
 * Baseline in the same run, rounds alternating: a bare socket.io Server in this process
 * (no app, no Redis adapter), the same number of sockets in the same number of rooms, one
 * emit of the same payload to each room at once. Ratio = app p99 / bare p99.
 *
 *   npm run build && npm run bench:fanout [-- --boards 2000 --tenants 8 --nodes 1 --rounds 5 --warmup 1]
 *   BENCH_CPU_PROF=/tmp/prof npm run bench:fanout   # also writes the servers' CPU profiles there
 *
 * Also printed: the first delivery and each room's spread (last − first delivery: the
 * fan-out itself), the status requests' answer time, the bare emits' own time per board,
 * and the app node(s)' CPU per round (from /proc) beside what they spend at rest.
 * The sockets live in this process, so their own decoding is part of both figures.
 * Starts its own database, Redis key prefix and production server(s); cleans up after.
 */
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import { Server } from "socket.io";
import { io as connectSocket, type Socket } from "socket.io-client";
import { boardKey, type BoardOrder } from "@/lib/core/orders";
import { createTestDatabase } from "../../tests/support/db";
import { SHARED_SERVER_ENV, startAppServer, testKeyPrefix, type AppServer } from "../../tests/support/app-server";
import { provisionTenants } from "../../tests/support/tenants";
import { stableDaySpec } from "../../tests/support/fixtures";
import { freePort } from "../../tests/support/ports";
import { benchArgs, machine, median, profilerFlags, runBench } from "./common";

const {
  boards,
  tenants: tenantCount,
  nodes: nodeCount,
  rounds,
  warmup,
  "batch-size": batchSize,
} = benchArgs({
  boards: 2000,
  tenants: 8,
  nodes: 1,
  rounds: 5,
  warmup: 1,
  "batch-size": 200,
});
if (![1, 2].includes(nodeCount)) throw new Error("--nodes is 1 or 2");

/** A delivery that has not arrived after this is counted as missed (a round never hangs). */
const DELIVERY_TIMEOUT_MS = 30_000;
/** How long the app node(s) are watched at rest, with every board connected. */
const IDLE_MS = 5_000;

interface OrderJson {
  id: string;
  number: number;
  businessDay: string;
  shift: number;
  createdAt: string;
}

/** One board: its restaurant (index), and what the current round waits for. */
interface Board {
  tenant: number;
  socket: Socket;
  expectKey: string | null;
  receivedAt: number;
}

interface RoundFigures {
  /** The first board's delivery: max − first is how long the fan-out itself took. */
  first: number;
  /** Per room, last − first delivery (median over rooms): the fan-out as the boards see it. */
  roomSpread: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  missed: number;
  /** App only: the status requests' own answer time (median, max over restaurants). */
  requestP50?: number;
  requestMax?: number;
  /** CPU of this process (the sockets' side; for the bare server also the server's), ms. */
  benchCpuMs: number;
  /** Bare only: the emits' own synchronous time per board (socket.io's per-socket work, no sockets' side), µs. */
  emitUsPerBoard?: number;
  /** App only: CPU of the app node(s) during the round, ms (10 ms resolution). */
  serverCpuMs?: number;
  /** The same less what the node(s) spend at rest over as long. */
  serverCpuOverRestMs?: number;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
const round2 = (x: number) => Math.round(x * 100) / 100;

/** utime + stime of a process in ms, from /proc (Linux); NaN elsewhere. */
function processCpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return NaN;
  }
}
const benchCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** Connects `boards` sockets, board i to urls[i % urls.length] for tenant i % tenants, `batchSize` handshakes at a time. */
async function connectBoards(urls: string[], slugs: string[]): Promise<Board[]> {
  const out: Board[] = [];
  for (let start = 0; start < boards; start += batchSize) {
    const batch = Array.from({ length: Math.min(batchSize, boards - start) }, (_, j) => {
      const i = start + j;
      const tenant = i % slugs.length;
      const socket = connectSocket(urls[i % urls.length], { query: { org: slugs[tenant]! }, transports: ["websocket"], forceNew: true, reconnection: false });
      const board: Board = { tenant, socket, expectKey: null, receivedAt: NaN };
      // Only the first arrival of the awaited order counts.
      socket.on("order:updated", (o: BoardOrder) => {
        if (o.key === board.expectKey && Number.isNaN(board.receivedAt)) board.receivedAt = performance.now();
      });
      return new Promise<Board>((resolve, reject) => {
        socket.once("connect", () => resolve(board));
        socket.once("connect_error", (e) => reject(new Error(`board ${i} (${slugs[tenant]}): ${e.message}`)));
      });
    });
    out.push(...(await Promise.all(batch)));
  }
  const connected = out.filter((b) => b.socket.connected).length;
  if (connected !== boards) throw new Error(`only ${connected} of ${boards} boards connected`);
  return out;
}

/** Arms every board for its restaurant's order, runs `send` (which returns each restaurant's send time), waits for all deliveries. */
async function measure(list: Board[], keys: string[], send: () => Promise<number[]>): Promise<{ latencies: number[]; missed: number; roomSpread: number }> {
  for (const b of list) {
    b.expectKey = keys[b.tenant]!;
    b.receivedAt = NaN;
  }
  const sentAt = await send();
  const deadline = performance.now() + DELIVERY_TIMEOUT_MS;
  while (list.some((b) => Number.isNaN(b.receivedAt)) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  const latencies = list.filter((b) => !Number.isNaN(b.receivedAt)).map((b) => b.receivedAt - sentAt[b.tenant]!);
  latencies.sort((a, b) => a - b);
  const spreads = keys.map((_, t) => {
    const at = list.filter((b) => b.tenant === t && !Number.isNaN(b.receivedAt)).map((b) => b.receivedAt);
    return at.length ? Math.max(...at) - Math.min(...at) : NaN;
  });
  return { latencies, missed: list.length - latencies.length, roomSpread: median(spreads) };
}

function figures({ latencies, missed, roomSpread }: { latencies: number[]; missed: number; roomSpread: number }, cpu: number): RoundFigures {
  return {
    first: round2(latencies[0] ?? NaN),
    roomSpread: round2(roomSpread),
    p50: round2(pct(latencies, 0.5)),
    p95: round2(pct(latencies, 0.95)),
    p99: round2(pct(latencies, 0.99)),
    max: round2(latencies.at(-1) ?? NaN),
    missed,
    benchCpuMs: Math.round(cpu),
  };
}

function summarise(list: RoundFigures[]) {
  const med = (k: keyof RoundFigures) => round2(median(list.map((r) => r[k] ?? NaN)));
  return {
    firstMsMedian: med("first"),
    roomSpreadMsMedian: med("roomSpread"),
    p50MsMedian: med("p50"),
    p95MsMedian: med("p95"),
    p99MsMedian: med("p99"),
    maxMsMedian: med("max"),
    missed: list.reduce((n, r) => n + r.missed, 0),
    benchCpuMsMedian: med("benchCpuMs"),
  };
}

async function main() {
  const db = await createTestDatabase("bench_fanout");
  const keyPrefix = testKeyPrefix("bench-fanout");
  const servers: AppServer[] = [];
  const sockets: Socket[] = [];
  const bareHttp = createServer();
  const bare = new Server(bareHttp, { serveClient: false });
  try {
    const specs = Array.from({ length: tenantCount }, (_, i) => stableDaySpec(`fanout-${i}`, `Fanout ${i}`));
    const provisioned = await provisionTenants(db.url, specs);
    const tenants = specs.map((s) => provisioned[s.slug]!);
    const slugs = tenants.map((t) => t.slug);

    for (let n = 0; n < nodeCount; n++) {
      servers.push(
        await startAppServer({
          databaseUrl: db.url,
          keyPrefix,
          env: { ...SHARED_SERVER_ENV, API_RATE_LIMIT_PER_MINUTE: "100000000", LOG_LEVEL: "error" },
          nodeArgs: profilerFlags(),
        }),
      );
    }

    // One PLACED order per restaurant per round, made before any board listens.
    const totalRounds = warmup + rounds;
    const orders: OrderJson[][] = [];
    for (const t of tenants) {
      const mine: OrderJson[] = [];
      for (let r = 0; r < totalRounds; r++) {
        const res = await fetch(`${servers[0]!.url}/api/v1/orgs/${t.slug}/orders`, {
          method: "POST",
          headers: { authorization: `Bearer ${t.apiKeys.cashier}`, "content-type": "application/json" },
          body: JSON.stringify({ items: [{ name: "Noodles", qty: 1 }] }),
        });
        if (res.status !== 201) throw new Error(`creating an order for ${t.slug}: ${res.status} ${await res.text()}`);
        mine.push((await res.json()) as OrderJson);
      }
      orders.push(mine);
    }

    // The baseline server: each socket joins its restaurant's room, nothing else.
    bare.on("connection", (s) => void s.join(`org:${String(s.handshake.query.org)}`));
    const barePort = await freePort();
    await new Promise<void>((resolve) => bareHttp.listen(barePort, "127.0.0.1", resolve));

    const t0 = performance.now();
    const appBoards = await connectBoards(
      servers.map((s) => s.url),
      slugs,
    );
    sockets.push(...appBoards.map((b) => b.socket));
    const connectAppMs = performance.now() - t0;
    const t1 = performance.now();
    const bareBoards = await connectBoards([`http://127.0.0.1:${barePort}`], slugs);
    sockets.push(...bareBoards.map((b) => b.socket));
    const connectBareMs = performance.now() - t1;
    process.stderr.write(
      `${boards} boards connected over ${tenantCount} restaurants: app ${connectAppMs.toFixed(0)} ms (${nodeCount} node(s)), bare ${connectBareMs.toFixed(0)} ms\n`,
    );

    // What the boards cost the app at rest (heartbeats, timers, background work), to set the rounds' CPU against.
    const serversCpu = () => servers.reduce((sum, srv) => sum + processCpuMs(srv.proc.pid), 0);
    const idleStart = serversCpu();
    await new Promise((r) => setTimeout(r, IDLE_MS));
    const idleCpuMsPerSecond = ((serversCpu() - idleStart) * 1000) / IDLE_MS;
    process.stderr.write(`app node(s) at rest with ${boards} boards: ${idleCpuMsPerSecond.toFixed(0)} ms CPU per second\n`);

    const appRounds: RoundFigures[] = [];
    const bareRounds: RoundFigures[] = [];
    for (let r = 0; r < totalRounds; r++) {
      const roundOrders = orders.map((o) => o[r]!);
      const keys = roundOrders.map((o) => boardKey(o));

      // Bare: the same payload shape as the app's order:updated (toBoardOrder).
      const payloads: BoardOrder[] = roundOrders.map((o) => ({
        key: boardKey(o),
        number: o.number,
        status: "READY",
        businessDay: o.businessDay,
        shift: o.shift,
        createdAt: o.createdAt,
        readyAt: new Date().toISOString(),
        cleared: false,
      }));
      let cpu = benchCpuMs();
      let emitMs = 0;
      const b = await measure(bareBoards, keys, async () => {
        const sentAt = slugs.map((slug, i) => {
          const at = performance.now();
          bare.to(`org:${slug}`).emit("order:updated", payloads[i]);
          return at;
        });
        emitMs = performance.now() - sentAt[0]!;
        return sentAt;
      });
      const bareFig: RoundFigures = { ...figures(b, benchCpuMs() - cpu), emitUsPerBoard: round2((emitMs * 1000) / boards) };

      // App: every restaurant's status change at once, spread over the nodes.
      const answered: number[] = [];
      cpu = benchCpuMs();
      const serverCpu = serversCpu();
      const roundStart = performance.now();
      const a = await measure(appBoards, keys, async () => {
        const sentAt = tenants.map(() => 0);
        await Promise.all(
          tenants.map(async (t, i) => {
            sentAt[i] = performance.now();
            const res = await fetch(`${servers[i % servers.length]!.url}/api/v1/orgs/${t.slug}/orders/${roundOrders[i]!.id}/status`, {
              method: "POST",
              headers: { authorization: `Bearer ${t.apiKeys.kitchen}`, "content-type": "application/json" },
              body: JSON.stringify({ status: "READY" }),
            });
            await res.arrayBuffer();
            answered.push(performance.now() - sentAt[i]);
            if (res.status !== 200) throw new Error(`status change for ${t.slug}: ${res.status}`);
          }),
        );
        return sentAt;
      });
      answered.sort((x, y) => x - y);
      const appFig: RoundFigures = {
        ...figures(a, benchCpuMs() - cpu),
        requestP50: round2(pct(answered, 0.5)),
        requestMax: round2(answered.at(-1) ?? NaN),
        serverCpuMs: Math.round(serversCpu() - serverCpu),
        serverCpuOverRestMs: Math.round(serversCpu() - serverCpu - (idleCpuMsPerSecond * (performance.now() - roundStart)) / 1000),
      };

      const label = r < warmup ? `warmup ${r + 1}` : `round ${r + 1 - warmup}`;
      process.stderr.write(
        `${label}: app first ${appFig.first} / room spread ${appFig.roomSpread} / p50 ${appFig.p50} / p95 ${appFig.p95} / p99 ${appFig.p99} / max ${appFig.max} ms, missed ${appFig.missed}, ` +
          `request p50 ${appFig.requestP50} / max ${appFig.requestMax} ms, server CPU ${appFig.serverCpuMs} ms (${appFig.serverCpuOverRestMs} over rest), bench CPU ${appFig.benchCpuMs} ms · ` +
          `bare emit ${bareFig.emitUsPerBoard} µs/board, first ${bareFig.first} / room spread ${bareFig.roomSpread} / p50 ${bareFig.p50} / p95 ${bareFig.p95} / p99 ${bareFig.p99} / max ${bareFig.max} ms, missed ${bareFig.missed}, CPU ${bareFig.benchCpuMs} ms\n`,
      );
      if (r >= warmup) {
        appRounds.push(appFig);
        bareRounds.push(bareFig);
      }
    }

    const app = summarise(appRounds);
    const base = summarise(bareRounds);
    const summary = {
      machine: machine(),
      boards,
      tenants: tenantCount,
      nodes: nodeCount,
      rounds,
      app: {
        ...app,
        requestP50MsMedian: round2(median(appRounds.map((r) => r.requestP50!))),
        requestMaxMsMedian: round2(median(appRounds.map((r) => r.requestMax!))),
        serverCpuMsMedian: median(appRounds.map((r) => r.serverCpuMs!)),
        serverCpuOverRestMsMedian: median(appRounds.map((r) => r.serverCpuOverRestMs!)),
        serverIdleCpuMsPerSecond: Math.round(idleCpuMsPerSecond),
      },
      baseline: { ...base, emitUsPerBoardMedian: round2(median(bareRounds.map((r) => r.emitUsPerBoard!))) },
      ratioP99: round2(app.p99MsMedian / base.p99MsMedian),
      ratioP50: round2(app.p50MsMedian / base.p50MsMedian),
      connectMs: { app: Math.round(connectAppMs), bare: Math.round(connectBareMs) },
    };
    process.stdout.write(JSON.stringify(summary, null, 2) + "\n");
  } finally {
    for (const s of sockets) s.close();
    await bare.close().catch(() => {});
    for (const s of servers) await s.stop();
    await db.drop();
  }
}

runBench(main);
