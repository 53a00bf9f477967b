/**
 * A load client in its own process: `concurrency` cashiers taking orders against one or
 * more app nodes, one JSON line per order on stdout.
 *
 *   node --import tsx tests/support/load-client.ts \
 *     --urls http://127.0.0.1:4001,http://127.0.0.1:4002 --slug diner --key nxu_csh_… \
 *     --client c1 --concurrency 4 (--duration 15000 | --count 500) \
 *     [--start-at <epoch ms>] [--think-ms 20] [--timeout-ms 15000] [--retry-delay-ms 100]
 *     [--series Window --series-every 4]
 *
 * Every order carries its own Idempotency-Key. A 503 or a failure without an HTTP answer
 * (connection refused/reset, timeout) is retried ONCE with the same key, on the same
 * node (a till talks to its node). Worker w of the process uses node w mod (#urls). With
 * `--series`, every `--series-every`-th order of the process names that series (decision
 * 0027); the others take the default.
 *
 * Lines: `{"type":"request", …}` (see LoadRecord in load-runner.ts) per order, then
 * `{"type":"done", …}`. Nothing else is written to stdout.
 */
import type { AttemptRecord, LoadRecord } from "./load-runner";

function parseArgs(argv: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith("--")) throw new Error(`unexpected argument ${a}`);
    const v = argv[i + 1];
    if (v === undefined || v.startsWith("--")) throw new Error(`${a} needs a value`);
    out[a.slice(2)] = v;
    i++;
  }
  return out;
}

const args = parseArgs(process.argv.slice(2));
const need = (k: string): string => {
  const v = args[k];
  if (v === undefined) throw new Error(`--${k} is required`);
  return v;
};
const num = (k: string, dflt?: number): number | undefined => {
  const v = args[k];
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new Error(`--${k} must be a number`);
  return n;
};

const urls = need("urls").split(",").filter(Boolean);
const slug = need("slug");
const key = need("key");
const client = args.client ?? `c${process.pid}`;
const concurrency = num("concurrency", 4)!;
const durationMs = num("duration");
const count = num("count");
const startAt = num("start-at", Date.now())!;
const thinkMs = num("think-ms", 0)!;
const timeoutMs = num("timeout-ms", 15_000)!;
const retryDelayMs = num("retry-delay-ms", 100)!;
const series = args.series;
const seriesEvery = num("series-every", 4)!;
if (durationMs === undefined && count === undefined) throw new Error("--duration or --count is required");

const now = () => Math.round((performance.timeOrigin + performance.now()) * 10) / 10;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const emit = (o: unknown) => process.stdout.write(`${JSON.stringify(o)}\n`);

const body = JSON.stringify({ items: [{ name: "Noodles", qty: 1 }], channel: "pos" });
const seriesBody = series === undefined ? body : JSON.stringify({ items: [{ name: "Noodles", qty: 1 }], channel: "pos", series });
/** Whether order `seq` of this process names the series. */
const inSeries = (seq: number) => series !== undefined && seq % seriesEvery === seriesEvery - 1;
const rand = Math.random().toString(36).slice(2, 8);

async function attempt(url: string, idem: string, body: string): Promise<{ a: AttemptRecord; json?: Record<string, unknown>; replayed: boolean }> {
  const start = now();
  try {
    const res = await fetch(`${url}/api/v1/orgs/${slug}/orders`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "idempotency-key": idem },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let json: Record<string, unknown> | undefined;
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      json = undefined;
    }
    const code = res.status === 201 ? undefined : ((json?.error as { code?: string } | undefined)?.code ?? text.slice(0, 200));
    return {
      a: { start, end: now(), status: res.status, ...(code !== undefined ? { code } : {}) },
      json,
      replayed: res.headers.get("idempotent-replayed") === "true",
    };
  } catch (e) {
    const err = e as Error & { cause?: { code?: string; message?: string } };
    const detail = err.name === "TimeoutError" ? `timeout after ${timeoutMs} ms` : `${err.name}: ${err.cause?.code ?? err.cause?.message ?? err.message}`;
    return { a: { start, end: now(), status: null, error: detail }, replayed: false };
  }
}

let issued = 0;
const done = { requests: 0, created: 0 };

function nextSeq(): number | null {
  if (count !== undefined && issued >= count) return null;
  if (durationMs !== undefined && now() >= startAt + durationMs) return null;
  return issued++;
}

async function worker(w: number): Promise<void> {
  const node = w % urls.length;
  const url = urls[node]!;
  for (;;) {
    const seq = nextSeq();
    if (seq === null) return;
    const idem = `${client}-${rand}-w${w}-${seq}`;
    const named = inSeries(seq);
    const sent = named ? seriesBody : body;
    const attempts: AttemptRecord[] = [];
    let r = await attempt(url, idem, sent);
    attempts.push(r.a);
    if (r.a.status === 503 || r.a.status === null) {
      await sleep(retryDelayMs);
      r = await attempt(url, idem, sent);
      attempts.push(r.a);
    }
    const ok = r.a.status === 201 && r.json !== undefined;
    const rec: LoadRecord = {
      type: "request",
      client,
      pid: process.pid,
      worker: w,
      seq,
      key: idem,
      node,
      start: attempts[0]!.start,
      end: attempts[attempts.length - 1]!.end,
      status: r.a.status,
      attempts,
      ...(named ? { series } : {}),
      ...(ok
        ? {
            id: String(r.json!.id),
            businessDay: String(r.json!.businessDay),
            shift: Number(r.json!.shift),
            number: Number(r.json!.number),
            prefix: typeof r.json!.prefix === "string" ? r.json!.prefix : "",
            seriesName: typeof r.json!.series === "string" ? r.json!.series : "",
            replayed: r.replayed,
          }
        : {}),
    };
    emit(rec);
    done.requests++;
    if (ok) done.created++;
    if (thinkMs > 0) await sleep(thinkMs);
  }
}

async function main(): Promise<void> {
  const wait = startAt - Date.now();
  if (wait > 0) await sleep(wait);
  const began = now();
  await Promise.all(Array.from({ length: concurrency }, (_, w) => worker(w)));
  emit({ type: "done", client, pid: process.pid, began, ended: now(), ...done });
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`load-client ${client} failed: ${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(2);
  },
);
