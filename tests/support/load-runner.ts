/**
 * Runs several load-client processes (tests/support/load-client.ts) at once and collects
 * their records. All processes start at the same instant (`startAt`), so a test can
 * inject faults at known offsets into the burst.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { trackChild, killHard } from "./child-registry";

export interface AttemptRecord {
  /** Epoch ms (0.1 ms resolution). */
  start: number;
  end: number;
  /** HTTP status, or null when no HTTP answer came (refused, reset, timeout). */
  status: number | null;
  /** Client-side failure, when status is null. */
  error?: string;
  /** Error code from the body (or the start of a non-JSON body) for non-201 answers. */
  code?: string;
}

/** One order as a client experienced it (one or two attempts with the same Idempotency-Key). */
export interface LoadRecord {
  type: "request";
  /** Load-client name (one per process) and its pid. */
  client: string;
  pid: number;
  worker: number;
  seq: number;
  /** The Idempotency-Key. */
  key: string;
  /** Index of the app node (in `urls`) it talked to. */
  node: number;
  start: number;
  end: number;
  /** Final HTTP status (last attempt); null when the last attempt had no HTTP answer. */
  status: number | null;
  attempts: AttemptRecord[];
  /** From the 201 body. */
  id?: string;
  businessDay?: string;
  shift?: number;
  number?: number;
  /** The prefix shown before the number ("" in the default series) and the series it was numbered in (from the 201 body). */
  prefix?: string;
  seriesName?: string;
  /** The series the request named (decision 0027); absent: the default series. */
  series?: string;
  replayed?: boolean;
}

export interface LoadOptions {
  urls: string[];
  slug: string;
  key: string;
  /** Client processes (default 3). */
  processes?: number;
  /** Concurrent cashiers per process (default 4). */
  concurrency?: number;
  /** Run for this long from startAt… */
  durationMs?: number;
  /** …or this many orders per process. */
  countPerProcess?: number;
  /** Pause of each cashier between two orders (default 10 ms). */
  thinkMs?: number;
  /** Per-attempt client timeout (default 15 s). */
  timeoutMs?: number;
  /** Pause before the one retry of a 503 or unanswered order, same key (default 100 ms). */
  retryDelayMs?: number;
  /** How far in the future the burst starts, so every process is up by then (default 2.5 s). */
  startInMs?: number;
  /** Prefix of the client names. */
  label?: string;
  /** Every `every`-th order of each process names series `name` (default every 4th). */
  series?: { name: string; every?: number };
  /** Called with each record as soon as its client writes it (while the burst runs). */
  onRecord?: (record: LoadRecord) => void;
}

export interface LoadRun {
  /** Epoch ms at which every client begins. */
  startAt: number;
  /** Resolves with every record once all processes have exited. Rejects if one fails. */
  done: Promise<LoadRecord[]>;
  /** Kills the processes (e.g. when a test fails early). */
  abort(): Promise<void>;
}

const CWD = new URL("../..", import.meta.url).pathname;

export function startLoad(opts: LoadOptions): LoadRun {
  const processes = opts.processes ?? 3;
  const startAt = Date.now() + (opts.startInMs ?? 2_500);
  const label = opts.label ?? "c";
  const procs: ChildProcess[] = [];
  const runs: Promise<LoadRecord[]>[] = [];
  for (let i = 0; i < processes; i++) {
    const name = `${label}${i + 1}`;
    const args = [
      "--import",
      "tsx",
      "tests/support/load-client.ts",
      "--urls",
      opts.urls.join(","),
      "--slug",
      opts.slug,
      "--key",
      opts.key,
      "--client",
      name,
      "--concurrency",
      String(opts.concurrency ?? 4),
      "--start-at",
      String(startAt),
      "--think-ms",
      String(opts.thinkMs ?? 10),
      "--timeout-ms",
      String(opts.timeoutMs ?? 15_000),
      ...(opts.retryDelayMs !== undefined ? ["--retry-delay-ms", String(opts.retryDelayMs)] : []),
      ...(opts.durationMs !== undefined ? ["--duration", String(opts.durationMs)] : []),
      ...(opts.countPerProcess !== undefined ? ["--count", String(opts.countPerProcess)] : []),
      ...(opts.series ? ["--series", opts.series.name, "--series-every", String(opts.series.every ?? 4)] : []),
    ];
    const proc = trackChild(
      spawn(process.execPath, args, {
        cwd: CWD,
        env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NODE_ENV: "production" },
        stdio: ["ignore", "pipe", "pipe"],
      }),
    );
    procs.push(proc);
    runs.push(collect(proc, name, opts.onRecord));
  }
  return {
    startAt,
    done: Promise.all(runs).then((all) => all.flat()),
    async abort() {
      await Promise.all(procs.map((p) => killHard(p)));
    },
  };
}

function collect(proc: ChildProcess, name: string, onRecord?: (record: LoadRecord) => void): Promise<LoadRecord[]> {
  return new Promise((resolve, reject) => {
    const records: LoadRecord[] = [];
    let sawDone = false;
    let partial = "";
    let stderr = "";
    proc.stdout!.on("data", (d: Buffer) => {
      partial += d.toString();
      let nl: number;
      while ((nl = partial.indexOf("\n")) >= 0) {
        const line = partial.slice(0, nl);
        partial = partial.slice(nl + 1);
        if (!line.trim()) continue;
        const o = JSON.parse(line) as { type: string };
        if (o.type === "request") {
          records.push(o as LoadRecord);
          onRecord?.(o as LoadRecord);
        } else if (o.type === "done") sawDone = true;
      }
    });
    proc.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
    proc.once("exit", (code, signal) => {
      if (code === 0 && sawDone) resolve(records);
      else reject(new Error(`load client ${name} exited with ${code ?? signal} (done line: ${sawDone}); stderr:\n${stderr.slice(-3000)}`));
    });
  });
}

/** Resolves at epoch ms `t` (immediately if past). */
export function sleepUntil(t: number): Promise<void> {
  return new Promise((r) => setTimeout(r, Math.max(0, t - Date.now())));
}
