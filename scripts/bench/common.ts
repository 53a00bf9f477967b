/** What the benchmark scripts share: arguments, medians, the machine line. */
import http from "node:http";
import os from "node:os";
import { parseArgs } from "node:util";

/** The command line's `--name value` options, each with its default: a number default makes a number, a text one text. */
export function benchArgs<D extends Record<string, number | string>>(defaults: D): { [K in keyof D]: D[K] extends number ? number : string } {
  const { values } = parseArgs({
    options: Object.fromEntries(Object.entries(defaults).map(([k, v]) => [k, { type: "string", default: String(v) }])),
  });
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, typeof defaults[k] === "number" ? Number(v) : v])) as {
    [K in keyof D]: D[K] extends number ? number : string;
  };
}

/** Node flags for the app server: `BENCH_CPU_PROF=<dir>` writes its CPU profile there; `BENCH_NODE_ARGS` adds flags (e.g. V8's). */
export function serverNodeArgs(): string[] {
  const dir = process.env.BENCH_CPU_PROF;
  const extra = process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
  return [...(dir ? ["--cpu-prof", `--cpu-prof-dir=${dir}`] : []), ...extra];
}

/** This process's CPU time so far (user + system), ms. */
export function ownCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** `x` to two decimals, for printed figures. */
export const round2 = (x: number): number => Math.round(x * 100) / 100;

export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Milliseconds (µs resolution) on CLOCK_MONOTONIC: comparable between processes on one machine, unlike performance.now() (each process's own origin). */
export const monoMs = (): number => Number(process.hrtime.bigint() / 1000n) / 1000;

export function machine(): string {
  const cpu = os.cpus();
  return `${cpu.length} × ${cpu[0]?.model ?? "cpu"}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
}

/** Runs a benchmark's main and exits: 0 when it finished, 1 (with the error) when not. */
export function runBench(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}

export interface LoadRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** Orders to the next restaurant each time, with its own cashier key: the load of a shared deployment. */
export function ordersRoundRobin(tenants: readonly { slug: string; apiKeys: { cashier: string } }[], body: string): () => LoadRequest {
  let turn = 0;
  return () => {
    const t = tenants[turn++ % tenants.length]!;
    return {
      method: "POST",
      path: `/api/v1/orgs/${t.slug}/orders`,
      headers: { authorization: `Bearer ${t.apiKeys.cashier}`, "content-type": "application/json" },
      body,
    };
  };
}

export interface LoadFigures {
  rps: number;
  p50: number;
  p99: number;
  /** Non-2xx answers and failed requests. */
  bad: number;
}

/**
 * Open loop: `rate` requests a second, each sent at its own due time whatever the earlier
 * ones are doing (over at most `connections` kept-alive connections), each timed from its
 * due time, so a server that falls behind shows it in the latencies. autocannon's
 * `overallRate` sends each second's requests in a burst instead.
 */
export async function openLoop(opts: { url: string; rate: number; seconds: number; connections: number; next: () => LoadRequest }): Promise<LoadFigures> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.connections });
  const target = new URL(opts.url);
  const total = Math.round(opts.rate * opts.seconds);
  const gap = 1000 / opts.rate;
  const latencies: number[] = [];
  let bad = 0;
  let sent = 0;
  let done = 0;
  const start = performance.now();
  await new Promise<void>((resolve) => {
    const finish = () => {
      if (++done === total) resolve();
    };
    const fire = (due: number) => {
      const r = opts.next();
      const req = http.request({ agent, host: target.hostname, port: target.port, method: r.method, path: r.path, headers: r.headers }, (res) => {
        res.resume();
        res.on("end", () => {
          if (res.statusCode! < 200 || res.statusCode! >= 300) bad++;
          latencies.push(performance.now() - due);
          finish();
        });
      });
      req.on("error", () => {
        bad++;
        finish();
      });
      req.end(r.body);
    };
    const tick = setInterval(() => {
      const now = performance.now();
      while (sent < total && start + sent * gap <= now) fire(start + sent++ * gap);
      if (sent === total) clearInterval(tick);
    }, 1);
  });
  agent.destroy();
  const elapsed = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / elapsed, p50: Number(pct(latencies, 0.5).toFixed(1)), p99: Number(pct(latencies, 0.99).toFixed(1)), bad };
}

/** The `p` quantile of sorted values. */
export const pct = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;

/** `callers` workers call `op` back to back for `seconds`: calls per second and latency per call in ms. */
export async function closedLoop(
  callers: number,
  seconds: number,
  op: (i: number) => Promise<unknown>,
): Promise<{ perSecond: number; p50: number; p99: number }> {
  const latencies: number[] = [];
  const end = performance.now() + seconds * 1000;
  let n = 0;
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        await op(n++);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { perSecond: latencies.length / seconds, p50: pct(latencies, 0.5), p99: pct(latencies, 0.99) };
}
