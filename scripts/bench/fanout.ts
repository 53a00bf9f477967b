/**
 * Benchmark: how long a status change takes to reach every board. N socket.io-client
 * sockets (websocket only, `query: { org }`, as the board page connects) spread over T
 * restaurants, on 1 app node or split evenly over 2 (same database and key prefix: each
 * restaurant's boards alternate between the nodes, so the Redis adapter relays half of each
 * room's broadcasts). Per round, one PLACED order of each restaurant (created
 * beforehand through the REST API) is moved to READY through the REST API, all restaurants
 * at once; for every socket, the time from sending its restaurant's request to receiving
 * that order's `order:updated` (process.hrtime: one clock for every process). Not a test: it prints figures.
 *
 * Baseline in the same run, rounds alternating: a bare socket.io Server in this process
 * (no app, no Redis adapter), the same number of sockets in the same number of rooms, one
 * emit of the same payload to each room, all timed from the first. Ratio = app p99 / bare p99.
 *
 *   npm run build && npm run bench:fanout [-- --boards 2000 --tenants 8 --nodes 1 --rounds 5 --warmup 1 --client-procs 1]
 *   BENCH_CPU_PROF=/tmp/prof npm run bench:fanout   # also writes the servers' CPU profiles there
 *
 * Also printed: the first delivery and each room's spread (last − first delivery: the
 * fan-out itself), the status requests' answer time, the bare emits' own time per board,
 * and the app node(s)' CPU per round (from /proc) beside what they spend at rest.
 * The sockets live in --client-procs child processes (fanout-boards.ts; default one per
 * 2,500 boards, as file descriptors are capped per process), each holding its share of the
 * app's and the baseline's boards, so their own decoding is part of both figures.
 * Starts its own database, Redis key prefix and production server(s); cleans up after.
 */
import { fork, type ChildProcess } from "node:child_process";
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import { Server } from "socket.io";
import { boardKey, type BoardOrder } from "@/lib/core/orders";
import { createTestDatabase } from "../../tests/support/db";
import { SHARED_SERVER_ENV, startAppServer, testKeyPrefix, type AppServer } from "../../tests/support/app-server";
import { provisionTenants } from "../../tests/support/tenants";
import { stableDaySpec } from "../../tests/support/fixtures";
import { freePort } from "../../tests/support/ports";
import { killHard, trackChild } from "../../tests/support/child-registry";
import { benchArgs, machine, median, monoMs, ownCpuMs, pct, serverNodeArgs, runBench, round2 } from "./common";
import type { BoardSet, Command, Reply } from "./fanout-boards";

const {
  boards,
  tenants: tenantCount,
  nodes: nodeCount,
  rounds,
  warmup,
  "batch-size": batchSize,
  "client-procs": clientProcs,
} = benchArgs({
  boards: 2000,
  tenants: 8,
  nodes: 1,
  rounds: 5,
  warmup: 1,
  "batch-size": 200,
  /** 0: one per 2,500 boards. */
  "client-procs": 0,
});
if (![1, 2].includes(nodeCount)) throw new Error("--nodes is 1 or 2");
const procCount = clientProcs || Math.ceil(boards / 2500);

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

/** A fanout-boards.ts process, holding boards `from` … `to` − 1. */
interface BoardProc {
  proc: ChildProcess;
  from: number;
  to: number;
}

/** What one round measured: latencies sorted, ms; `cpuMs` of the bench's processes. */
interface Measured {
  latencies: number[];
  missed: number;
  roomSpread: number;
  cpuMs: number;
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
  /** CPU of the bench's processes (the sockets' side; for the bare server also the server's), ms. */
  benchCpuMs: number;
  /** Bare only: the emits' own synchronous time per board (socket.io's per-socket work, no sockets' side), µs. */
  emitUsPerBoard?: number;
  /** App only: CPU of the app node(s) during the round, ms (10 ms resolution). */
  serverCpuMs?: number;
  /** The same less what the node(s) spend at rest over as long. */
  serverCpuOverRestMs?: number;
}

/** utime + stime of a process in ms, from /proc (Linux); NaN elsewhere. */
function processCpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return NaN;
  }
}

/** Forks the board processes, each with an even share of the board indices, and waits until each listens. */
async function startBoardProcs(procs: BoardProc[]): Promise<void> {
  for (let c = 0; c < procCount; c++) {
    const proc = fork(new URL("./fanout-boards.ts", import.meta.url), { execArgv: ["--import", "tsx"], serialization: "advanced" });
    procs.push({ proc: trackChild(proc), from: Math.floor((boards * c) / procCount), to: Math.floor((boards * (c + 1)) / procCount) });
  }
  await Promise.all(procs.map((p) => answer(p, "ready")));
}

/** A board process's next message, which must be of type `want`. */
function answer<T extends Reply["type"]>({ proc }: BoardProc, want: T): Promise<Extract<Reply, { type: T }>> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`board process ${proc.pid} exited with ${code}`));
    proc.once("exit", onExit);
    proc.once("message", (m) => {
      const r = m as Reply;
      proc.off("exit", onExit);
      if (r.type === want) resolve(r as Extract<Reply, { type: T }>);
      else reject(new Error(r.type === "error" ? r.message : `board process ${proc.pid} sent ${r.type}, not ${want}`));
    });
  });
}

/** Sends `cmd` to a board process; its answer must be of type `want`. */
function ask<T extends Reply["type"]>(p: BoardProc, cmd: Command, want: T): Promise<Extract<Reply, { type: T }>> {
  const r = answer(p, want);
  p.proc.send(cmd);
  return r;
}

/** Connects every board of `set` (placement: fanout-boards.ts); `batchSize` handshakes at a time over all processes. */
async function connectBoards(procs: BoardProc[], set: BoardSet, urls: string[], slugs: string[]): Promise<void> {
  const perProc = Math.ceil(batchSize / procs.length);
  await Promise.all(procs.map((p) => ask(p, { type: "connect", set, urls, slugs, from: p.from, to: p.to, batchSize: perProc }, "connected")));
}

/** Arms every board of `set` for its restaurant's order, runs `send` (which returns each restaurant's send time, monoMs), waits for all deliveries. */
async function measure(procs: BoardProc[], set: BoardSet, keys: string[], send: () => Promise<number[]>): Promise<Measured> {
  const cpu = ownCpuMs();
  const armed = await Promise.all(procs.map((p) => ask(p, { type: "arm", set, keys }, "armed")));
  const dropped = armed.reduce((n, a) => n + a.dropped, 0);
  // A board that lost its connection (a server starved past its ping timeout) would count as a miss every round.
  if (dropped) throw new Error(`${dropped} ${set} boards lost their connection before the round: the machine is too loaded for this many boards`);
  const sentAt = await send();
  const reports = await Promise.all(procs.map((p) => ask(p, { type: "collect", timeoutMs: DELIVERY_TIMEOUT_MS }, "received")));
  const latencies: number[] = [];
  const byTenant: number[][] = keys.map(() => []);
  reports.forEach(({ at }, c) =>
    at.forEach((receivedAt, j) => {
      if (Number.isNaN(receivedAt)) return;
      const tenant = (procs[c]!.from + j) % keys.length;
      latencies.push(receivedAt - sentAt[tenant]!);
      byTenant[tenant]!.push(receivedAt);
    }),
  );
  latencies.sort((a, b) => a - b);
  const reached = byTenant.filter((at) => at.length);
  const roomSpread = reached.length ? median(reached.map((at) => Math.max(...at) - Math.min(...at))) : NaN;
  const cpuMs = ownCpuMs() - cpu + reports.reduce((sum, r) => sum + r.cpuMs, 0);
  return { latencies, missed: boards - latencies.length, roomSpread, cpuMs };
}

function figures({ latencies, missed, roomSpread, cpuMs }: Measured): RoundFigures {
  return {
    first: round2(latencies[0] ?? NaN),
    roomSpread: round2(roomSpread),
    p50: round2(pct(latencies, 0.5)),
    p95: round2(pct(latencies, 0.95)),
    p99: round2(pct(latencies, 0.99)),
    max: round2(latencies.at(-1) ?? NaN),
    missed,
    benchCpuMs: Math.round(cpuMs),
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
  const procs: BoardProc[] = [];
  const bareHttp = createServer();
  const bare = new Server(bareHttp, { serveClient: false });
  try {
    await startBoardProcs(procs);
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
          nodeArgs: serverNodeArgs(),
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
    await connectBoards(
      procs,
      "app",
      servers.map((s) => s.url),
      slugs,
    );
    const connectAppMs = performance.now() - t0;
    const t1 = performance.now();
    await connectBoards(procs, "bare", [`http://127.0.0.1:${barePort}`], slugs);
    const connectBareMs = performance.now() - t1;
    process.stderr.write(
      `${boards} boards connected over ${tenantCount} restaurants in ${procCount} process(es): app ${connectAppMs.toFixed(0)} ms (${nodeCount} node(s)), bare ${connectBareMs.toFixed(0)} ms\n`,
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
        prefix: "",
        display: String(o.number),
        status: "READY",
        businessDay: o.businessDay,
        shift: o.shift,
        createdAt: o.createdAt,
        readyAt: new Date().toISOString(),
        cleared: false,
        service: null,
      }));
      let emitMs = 0;
      const b = await measure(procs, "bare", keys, async () => {
        // Every room's clock starts with the burst, as the app's requests all leave at once:
        // a room emitted last waits for the rooms before it on both sides.
        const start = monoMs();
        slugs.forEach((slug, i) => bare.to(`org:${slug}`).emit("order:updated", payloads[i]));
        emitMs = monoMs() - start;
        return slugs.map(() => start);
      });
      const bareFig: RoundFigures = { ...figures(b), emitUsPerBoard: round2((emitMs * 1000) / boards) };

      // App: every restaurant's status change at once, spread over the nodes.
      const answered: number[] = [];
      const serverCpu = serversCpu();
      const roundStart = performance.now();
      const a = await measure(procs, "app", keys, async () => {
        const sentAt = tenants.map(() => 0);
        await Promise.all(
          tenants.map(async (t, i) => {
            sentAt[i] = monoMs();
            const res = await fetch(`${servers[i % servers.length]!.url}/api/v1/orgs/${t.slug}/orders/${roundOrders[i]!.id}/status`, {
              method: "POST",
              headers: { authorization: `Bearer ${t.apiKeys.kitchen}`, "content-type": "application/json" },
              body: JSON.stringify({ status: "READY" }),
            });
            await res.arrayBuffer();
            answered.push(monoMs() - sentAt[i]);
            if (res.status !== 200) throw new Error(`status change for ${t.slug}: ${res.status}`);
          }),
        );
        return sentAt;
      });
      answered.sort((x, y) => x - y);
      const appFig: RoundFigures = {
        ...figures(a),
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
    await Promise.all(procs.map((p) => killHard(p.proc)));
    await bare.close().catch(() => {});
    for (const s of servers) await s.stop();
    await db.drop();
  }
}

runBench(main);
