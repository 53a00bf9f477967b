/**
 * The frame every fault test shares: its own database (or one the test brings, e.g. a
 * primary and standby of its own: tests/support/pg-pair.ts), one tenant, one or more real app
 * nodes (server.ts on the production build) pointed at the Redis (or proxy) the test
 * gives it, health pollers, a burst from several load-client processes while the test
 * injects its fault, then recovery, a probe order per node, and the checks of
 * fault-checks.ts. Everything started here is torn down by `rig.close()` (afterAll),
 * also when the test failed half-way.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll } from "vitest";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startAppServer, testKeyPrefix, type AppServer } from "./app-server";
import { killAllChildren, trackChild } from "./child-registry";
import { createTestDatabase, type TestDatabase } from "./db";
import { checkRun, loadJumps, loadSeries, loadStoredOrders, type CheckInput, type FaultReport, type SeriesDef } from "./fault-checks";
import { stableDaySpec, uniqueSlug } from "./fixtures";
import { startLoad, type AttemptRecord, type LoadOptions, type LoadRecord } from "./load-runner";
import { RedisProcess, sleep } from "./redis-process";
import { provisionTenants, type TestTenant } from "./tenants";
import { lastIssuedIn } from "./counter-state";
import { counterKey } from "@/lib/adapters/redis/counter.server";
import { createPrisma } from "@/lib/adapters/postgres/prisma.server";
import { PrismaSeriesStore } from "@/lib/adapters/postgres/series-store.server";
import { SeriesService } from "@/lib/core/series-service";
import type { Tenant } from "@/lib/core/tenants";
import { SeriesCollector } from "./series-collector";

const ROOT = new URL("../..", import.meta.url).pathname;

export interface HealthSample {
  node: number;
  start: number;
  end: number;
  status: number | null;
  counter?: string;
  redis?: string;
  db?: string;
  /** What replication the node says PostgreSQL runs with (issue #27), once it says. */
  replication?: string;
  error?: string;
}

export interface Rig {
  db: TestDatabase;
  tenant: TestTenant;
  keyPrefix: string;
  apps: AppServer[];
  /** The tenant's counter hash in Redis (lib/adapters/redis/counter.server.ts). */
  counterKey: string;
  /** The small wrapping series the burst also orders into, when the rig has one. */
  series?: SeriesDef;
  /** Adds a line to the scenario's timeline. */
  mark: (what: string) => void;
  timeline: { at: number; what: string }[];
  /** Registers a clean-up step (run in reverse order by close()). */
  onClose(fn: () => Promise<void> | void): void;
  close(): Promise<void>;
}

/** Starts the app, retrying while a production build is missing or being rewritten. */
export async function startAppWithRetry(opts: Parameters<typeof startAppServer>[0], waitForBuildMs = 240_000): Promise<AppServer> {
  const deadline = Date.now() + waitForBuildMs;
  for (let attempt = 1; ; attempt++) {
    try {
      if (!existsSync(join(ROOT, ".next/BUILD_ID"))) throw new Error("No production build in .next (BUILD_ID missing)");
      return await startAppServer(opts);
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      if (Date.now() > deadline || attempt >= 20) throw e;
      console.warn(`[faults] app server did not start (attempt ${attempt}), retrying in 5 s: ${msg.slice(0, 300)}`);
      await sleep(5_000);
    }
  }
}

export async function createRig(opts: {
  label: string;
  /** One app node per URL. */
  redisUrls: string[];
  /** The nodes' database (default: a new one on the run's PostgreSQL); its drop() runs at close(). */
  database?: (label: string) => Promise<TestDatabase>;
  /** Environment of every node… */
  env?: Record<string, string>;
  /** …and of node i only. */
  nodeEnv?: Record<string, string>[];
  /** The tenant's time zone and day start (default: a day start 12 hours away, see stableDaySpec). */
  day?: { timeZone: string; dayStart: string };
  /**
   * A series the burst also orders into (every 4th order names it), made before any node
   * starts; its orders are collected while the burst runs (tests/support/series-collector.ts).
   */
  series?: { name: string; prefix: string; first: number; last: number };
}): Promise<Rig> {
  const closers: (() => Promise<void> | void)[] = [];
  const timeline: { at: number; what: string }[] = [];
  const db = await (opts.database ?? createTestDatabase)(`faults_${opts.label}`);
  closers.push(() => db.drop());
  const apps: AppServer[] = [];
  const close = async () => {
    const errors: unknown[] = [];
    for (const fn of closers.reverse()) {
      try {
        await fn();
      } catch (e) {
        errors.push(e);
      }
    }
    closers.length = 0;
    await killAllChildren();
    if (errors.length) throw errors[0];
  };
  try {
    const slug = uniqueSlug(`flt-${opts.label}`.slice(0, 20));
    const tenant = (await provisionTenants(db.url, [{ ...stableDaySpec(slug), ...opts.day }]))[slug]!;
    const series = opts.series && (await createSeries(db.url, tenant, opts.series));
    const keyPrefix = testKeyPrefix(`faults-${opts.label}`);
    for (const [i, redisUrl] of opts.redisUrls.entries()) {
      const app = await startAppWithRetry({
        databaseUrl: db.url,
        redisUrl,
        keyPrefix,
        env: { API_RATE_LIMIT_PER_MINUTE: "10000000", ...opts.env, ...opts.nodeEnv?.[i] },
      });
      trackChild(app.proc);
      apps.push(app);
      closers.push(async () => {
        const code = await app.stop();
        if (code !== 0) console.warn(`[faults] app node ${i} exited with ${code}; last output:\n${app.output().slice(-2000)}`);
      });
      await warmUp(app, tenant);
    }
    return {
      db,
      tenant,
      keyPrefix,
      apps,
      counterKey: counterKey(keyPrefix, tenant.id),
      ...(series ? { series } : {}),
      timeline,
      mark: (what) => timeline.push({ at: Date.now(), what }),
      onClose: (fn) => closers.push(fn),
      close,
    };
  } catch (e) {
    await close().catch(() => {});
    throw e;
  }
}

/** Adds a series as a manager would (SeriesService), before any node has read the tenant. */
async function createSeries(databaseUrl: string, tenant: TestTenant, input: NonNullable<Parameters<typeof createRig>[0]["series"]>): Promise<SeriesDef> {
  const db = createPrisma(databaseUrl, { max: 1 });
  try {
    const service = new SeriesService({ store: new PrismaSeriesStore(db), invalidate: { tenantChanged: async () => {} } });
    const made = await service.create({ id: tenant.id, slug: tenant.slug } as Tenant, { ...input, channels: [] }, "fault test");
    return { id: made.id, name: made.name, prefix: made.prefix, first: made.first, last: made.last };
  } finally {
    await db.$disconnect();
  }
}

/** Every how many orders of a load client names the rig's series, and how many of its orders the kitchen leaves open. */
const SERIES_EVERY = 4;
const SERIES_KEEP_OPEN = 5;

/**
 * The frame of most scenarios, as vitest hooks of the calling `describe`: one real
 * `redis-server` launched and a rig of `nodes` app nodes on it before the tests, both torn
 * down after them (also when setting up failed half-way). Read `redis` and `rig` inside
 * the tests.
 */
export function rigOnOneRedis(
  label: string,
  opts: Omit<Parameters<typeof createRig>[0], "label" | "redisUrls"> & { nodes?: number } = {},
): { readonly redis: RedisProcess; readonly rig: Rig } {
  let redis: RedisProcess | undefined;
  let rig: Rig | undefined;
  const { nodes = 1, ...rigOpts } = opts;
  beforeAll(async () => {
    const launched = await RedisProcess.launch({ label: "redis" });
    redis = launched;
    rig = await createRig({ label, redisUrls: Array.from({ length: nodes }, () => launched.url), ...rigOpts });
    rig.onClose(() => launched.cleanup());
  });
  afterAll(async () => {
    await (rig ? rig.close() : redis?.cleanup());
  });
  const set = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is not set up (its beforeAll failed or has not run)`);
    return value;
  };
  return {
    get redis() {
      return set(redis, "redis");
    },
    get rig() {
      return set(rig, "rig");
    },
  };
}

/**
 * Asks GET /api/health of every node every `intervalMs`, without waiting for the previous
 * answer (health itself may wait on a sick Redis), at most 8 in flight per node.
 */
export function pollHealth(apps: AppServer[], intervalMs = 250): { samples: HealthSample[]; stop(): Promise<void> } {
  const samples: HealthSample[] = [];
  const inFlight = new Set<Promise<void>>();
  const perNode = apps.map(() => 0);
  const sample = async (app: AppServer, node: number) => {
    const start = Date.now();
    try {
      const res = await fetch(`${app.url}/api/health`, { signal: AbortSignal.timeout(5_000) });
      const body = (await res.json().catch(() => ({}))) as Pick<HealthSample, "counter" | "redis" | "db" | "replication">;
      samples.push({ node, start, end: Date.now(), status: res.status, counter: body.counter, redis: body.redis, db: body.db, replication: body.replication });
    } catch (e) {
      samples.push({ node, start, end: Date.now(), status: null, error: e instanceof Error ? e.message : String(e) });
    }
  };
  const timer = setInterval(() => {
    apps.forEach((app, node) => {
      if (perNode[node]! >= 8) return;
      perNode[node]!++;
      const p = sample(app, node).finally(() => {
        perNode[node]!--;
        inFlight.delete(p);
      });
      inFlight.add(p);
    });
  }, intervalMs);
  return {
    samples,
    async stop() {
      clearInterval(timer);
      await Promise.all([...inFlight]);
      samples.sort((a, b) => a.start - b.start);
    },
  };
}

/**
 * Loads the app's code paths a burst needs (route module, API-key check, tenant lookup)
 * with read-only requests, so the burst does not start on a cold Next.js route: a
 * node's first seconds are not what the fault tests are about. It takes no order, so the
 * counter itself starts cold.
 */
export async function warmUp(app: AppServer, tenant: TestTenant): Promise<void> {
  for (let i = 0; i < 5; i++) {
    await Promise.all([
      fetch(`${app.url}/api/v1/orgs/${tenant.slug}/orders`, { headers: { authorization: `Bearer ${tenant.apiKeys.cashier}` } }).then((r) => r.text()),
      fetch(`${app.url}/api/v1/orgs/${tenant.slug}/board`).then((r) => r.text()),
      fetch(`${app.url}/api/health`).then((r) => r.text()),
    ]);
  }
}

/** Waits until the node reports Redis up and the counter back on Redis. */
export async function awaitRecovery(app: AppServer, timeoutMs = 20_000): Promise<{ ok: boolean; waitedMs: number; last: string }> {
  const t0 = Date.now();
  let last = "";
  while (Date.now() - t0 < timeoutMs) {
    try {
      const res = await fetch(`${app.url}/api/health`, { signal: AbortSignal.timeout(5_000) });
      last = await res.text();
      const body = JSON.parse(last) as { redis?: string; counter?: string };
      if (body.redis === "up" && body.counter === "redis") return { ok: true, waitedMs: Date.now() - t0, last };
    } catch (e) {
      last = e instanceof Error ? e.message : String(e);
    }
    await sleep(200);
  }
  return { ok: false, waitedMs: Date.now() - t0, last };
}

/** One order outside the burst (same retry rule as the load clients), as a LoadRecord. */
export async function probeOrder(app: AppServer, node: number, tenant: TestTenant, label: string): Promise<LoadRecord> {
  const key = `probe-${label}-${Math.random().toString(36).slice(2, 8)}`;
  const attempts: AttemptRecord[] = [];
  let json: Record<string, unknown> | undefined;
  let replayed = false;
  for (let i = 0; i < 2; i++) {
    const start = Date.now();
    try {
      const res = await fetch(`${app.url}/api/v1/orgs/${tenant.slug}/orders`, {
        method: "POST",
        headers: { authorization: `Bearer ${tenant.apiKeys.cashier}`, "content-type": "application/json", "idempotency-key": key },
        body: JSON.stringify({ items: [{ name: "Probe", qty: 1 }] }),
        signal: AbortSignal.timeout(15_000),
      });
      const text = await res.text();
      json = undefined;
      try {
        json = JSON.parse(text) as Record<string, unknown>;
      } catch {
        // not JSON
      }
      replayed = res.headers.get("idempotent-replayed") === "true";
      attempts.push({
        start,
        end: Date.now(),
        status: res.status,
        ...(res.status !== 201 ? { code: String((json?.error as { code?: string })?.code ?? text.slice(0, 200)) } : {}),
      });
      if (res.status !== 503) break;
    } catch (e) {
      attempts.push({ start, end: Date.now(), status: null, error: e instanceof Error ? e.message : String(e) });
    }
    await sleep(100);
  }
  const last = attempts[attempts.length - 1]!;
  const ok = last.status === 201 && json !== undefined;
  return {
    type: "request",
    client: "probe",
    pid: process.pid,
    worker: 0,
    seq: 0,
    key,
    node,
    start: attempts[0]!.start,
    end: last.end,
    status: last.status,
    attempts,
    ...(ok ? { id: String(json!.id), businessDay: String(json!.businessDay), shift: Number(json!.shift), number: Number(json!.number), replayed } : {}),
  };
}

/** Error-level lines of the app's JSON log, grouped by message. */
export function errorLogSummary(app: AppServer): { collisions: number; byMsg: Map<string, number> } {
  const byMsg = new Map<string, number>();
  let collisions = 0;
  for (const line of app.output().split("\n")) {
    if (!line.startsWith("{")) continue;
    try {
      const o = JSON.parse(line) as { level?: number; msg?: string; err?: unknown };
      if ((o.level ?? 0) < 50) continue;
      const err = o.err === undefined ? "" : typeof o.err === "string" ? o.err : ((o.err as { message?: string }).message ?? JSON.stringify(o.err));
      const msg = `${o.msg ?? "(no msg)"}${err ? ` (${err.slice(0, 160)})` : ""}`;
      byMsg.set(msg, (byMsg.get(msg) ?? 0) + 1);
      if (/already stored/i.test(msg)) collisions++;
    } catch {
      // not a log line
    }
  }
  return { collisions, byMsg };
}

export interface ScenarioContext {
  rig: Rig;
  /** Epoch ms at which the burst starts. */
  startAt: number;
  /** Sleeps until `ms` after the burst started. */
  at(ms: number): Promise<void>;
  mark: (what: string) => void;
  /**
   * Demands that node `node` report `counter: "database"` in at least one health sample
   * asked within [from, to] (epoch ms) — i.e. while the fault lasts.
   */
  expectDatabaseCounter(node: number, from: number, to: number, why: string): void;
}

export interface ScenarioOptions {
  rig: Rig;
  name: string;
  /** Faults injected: the skip budget per shift is 50 × faults. */
  faults: number;
  load: Omit<LoadOptions, "urls" | "slug" | "key"> & { urls?: string[] };
  /** Runs alongside the burst: inject the fault(s) and undo them before returning. */
  inject(ctx: ScenarioContext): Promise<void>;
  /** The Redis the app uses once the fault is over (to read the counter after the probe). */
  counterRedis?: () => RedisProcess;
  /** Probe and counter check after recovery (default true). */
  probe?: boolean;
  /**
   * Numbers the counter issued that PostgreSQL already held (refused by the unique index,
   * logged "already stored") are violations unless allowed here: only where the issue
   * itself expects them (a promoted replica that lost acknowledged increments).
   */
  allowIndexCollisions?: boolean;
  /** No fault: every health sample must say counter "redis" (numbers never left Redis). */
  expectRedisThroughout?: boolean;
  /** Extra checks on the records, returning violations. */
  extraChecks?: (records: LoadRecord[]) => string[] | Promise<string[]>;
  /** Where the fault's cost differs from the default checks (fault-checks.ts). */
  checks?: Pick<CheckInput, "lostAllowed">;
}

export async function runFaultScenario(opts: ScenarioOptions): Promise<FaultReport> {
  const { rig } = opts;
  const health = pollHealth(rig.apps);
  const collector = rig.series ? new SeriesCollector(rig.apps, rig.tenant, { keepOpen: SERIES_KEEP_OPEN, concurrency: 4 }) : undefined;
  const load = startLoad({
    urls: opts.load.urls ?? rig.apps.map((a) => a.url),
    slug: rig.tenant.slug,
    key: rig.tenant.apiKeys.cashier,
    ...(rig.series ? { series: { name: rig.series.name, every: SERIES_EVERY }, onRecord: collector!.onRecord } : {}),
    ...opts.load,
  });
  const windows: { node: number; from: number; to: number; why: string }[] = [];
  const ctx: ScenarioContext = {
    rig,
    startAt: load.startAt,
    at: (ms) => sleep(Math.max(0, load.startAt + ms - Date.now())),
    mark: rig.mark,
    expectDatabaseCounter: (node, from, to, why) => windows.push({ node, from, to, why }),
  };
  let records: LoadRecord[];
  try {
    await ctx.at(0);
    rig.mark("burst starts");
    await opts.inject(ctx);
    records = await load.done;
    rig.mark("burst over");
  } catch (e) {
    load.done.catch(() => {}); // the clients are killed below: their failure is not the news
    await load.abort();
    await collector?.stop();
    await health.stop();
    throw e;
  }

  const violations: string[] = [];
  const notes: string[] = [];
  if (collector) {
    const c = await collector.stop();
    notes.push(
      `series ${rig.series!.name}: the kitchen collected ${c.collected} of its orders while the burst ran (at most ${SERIES_KEEP_OPEN} of those answered left open; ${c.leftOpen} open at the end)` +
        (c.failures.length ? `; ${c.failures.length} moves refused after retries, e.g. ${c.failures.slice(0, 3).join("; ")}` : ""),
    );
  }

  // Recovery: every node back on Redis, then one probe order per node.
  const probes: LoadRecord[] = [];
  if (opts.probe ?? true) {
    for (const [node, app] of rig.apps.entries()) {
      const rec = await awaitRecovery(app);
      notes.push(
        `node ${node} recovery: ${rec.ok ? `back on Redis ${rec.waitedMs} ms after the burst` : `NOT back on Redis after ${rec.waitedMs} ms (last health: ${rec.last.slice(0, 200)})`}`,
      );
      if (!rec.ok)
        violations.push(
          `node ${node} did not report {redis: "up", counter: "redis"} within 20 s after the fault ended; last health: ${rec.last.slice(0, 200)}`,
        );
    }
    for (const [node, app] of rig.apps.entries()) {
      const p = await probeOrder(app, node, rig.tenant, `n${node}`);
      probes.push(p);
      if (p.status !== 201) {
        violations.push(`probe order on node ${node} after recovery was not taken: ${JSON.stringify(p.attempts)}`);
        continue;
      }
      if (opts.counterRedis) {
        const hash = await opts
          .counterRedis()
          .hgetall(rig.counterKey)
          .catch((e: unknown): Record<string, string> => ({ error: String(e) }));
        notes.push(`probe on node ${node}: ${p.businessDay}/shift ${p.shift}/#${p.number}; Redis counter then ${JSON.stringify(hash)}`);
        const last = lastIssuedIn(hash);
        if (hash.day !== p.businessDay || Number(hash.shift) !== p.shift || last !== p.number) {
          violations.push(
            `after recovery, node ${node}'s probe order ${p.businessDay}/shift ${p.shift}/#${p.number} was not issued by Redis (counter hash ${JSON.stringify(hash)})`,
          );
        }
      } else {
        notes.push(`probe on node ${node}: ${p.businessDay}/shift ${p.shift}/#${p.number}`);
      }
    }
  }
  await sleep(300); // let the pollers take a last sample
  await health.stop();

  // Health while the fault lasted.
  for (const w of windows) {
    // Samples asked while the fault lasted (the answer may come a little later: health
    // itself waits for Redis).
    const inside = health.samples.filter((s) => s.node === w.node && s.start >= w.from && s.start <= w.to);
    const counters = summarize(inside.map((s) => s.counter ?? (s.status === null ? `error` : `?`)));
    notes.push(`health of node ${w.node} during ${w.why} (${Math.round(w.to - w.from)} ms): ${inside.length} samples, counter ${counters || "-"}`);
    if (!inside.some((s) => s.counter === "database")) {
      violations.push(
        `node ${w.node} never reported counter "database" during ${w.why} (${inside.length} health samples inside the window: ${counters || "none"})`,
      );
    }
  }
  if (opts.expectRedisThroughout) {
    const off = health.samples.filter((x) => x.counter !== "redis");
    if (off.length) violations.push(`without any fault, ${off.length} health samples did not say counter "redis": ${JSON.stringify(off.slice(0, 3))}`);
  }
  for (const [node] of rig.apps.entries()) {
    const s = health.samples.filter((x) => x.node === node);
    notes.push(
      `health samples node ${node}: ${s.length}; counter ${summarize(s.map((x) => x.counter ?? "error"))}; redis ${summarize(s.map((x) => x.redis ?? "error"))}; db ${summarize(s.map((x) => x.db ?? "error"))}` +
        `; replication ${summarize(s.map((x) => x.replication ?? (x.status === null ? "error" : "-")))}; max health latency ${Math.max(0, ...s.map((x) => x.end - x.start))} ms`,
    );
  }

  // Collisions the unique index had to catch ("the last line of defence").
  for (const [node, app] of rig.apps.entries()) {
    const { collisions, byMsg } = errorLogSummary(app);
    if (byMsg.size) notes.push(`node ${node} error log: ${[...byMsg].map(([m, n]) => `"${m}" ×${n}`).join("; ")}`);
    if (collisions && opts.allowIndexCollisions)
      notes.push(`node ${node}: ${collisions} number(s) issued that were already stored, caught by the unique index (allowed in this scenario)`);
    else if (collisions)
      violations.push(
        `node ${node}: the counter issued ${collisions} number(s) already stored (caught by the unique index, logged "already stored"): Redis/database numbering collided`,
      );
  }

  if (opts.extraChecks) violations.push(...(await opts.extraChecks(records)));

  const all = [...records, ...probes];
  const stored = await loadStoredOrders(rig.db.url, rig.tenant.id);
  const series = await loadSeries(rig.db.url, rig.tenant.id);
  if (rig.series) {
    // The series' numbers must have come round in this burst, or wrapping was not tested.
    const size = rig.series.last! - rig.series.first + 1;
    const highest = Math.max(0, ...stored.filter((o) => o.seriesId === rig.series!.id).map((o) => o.ticket ?? 0));
    if (highest <= size) violations.push(`precondition: series ${rig.series.name} never came round (highest ticket ${highest}, ${size} numbers)`);
  }
  const jumps = await loadJumps(rig.db.url, rig.tenant.id);
  const report = checkRun({ scenario: opts.name, records: all, stored, faults: opts.faults, timeline: rig.timeline, notes, series, jumps, ...opts.checks });
  report.violations.push(...violations);
  report.text = [report.text, ...violations.map((v) => `  ✗ ${v}`)].join("\n");
  report.text = report.text.replace(
    /^── (.*?): (ok|\d+ VIOLATION\(S\))/,
    `── ${opts.name}: ${report.violations.length ? `${report.violations.length} VIOLATION(S)` : "ok"}`,
  );

  const dir = join(tmpdir(), "nextup-faults");
  mkdirSync(dir, { recursive: true });
  const base = join(dir, `${opts.name.replace(/[^a-z0-9]+/gi, "-").toLowerCase()}-${Date.now()}`);
  writeFileSync(`${base}.jsonl`, all.map((r) => JSON.stringify(r)).join("\n") + "\n");
  for (const [node, app] of rig.apps.entries()) writeFileSync(`${base}.node${node}.log`, app.output());
  report.text += `\n  records: ${base}.jsonl (app logs: ${base}.node*.log)`;
  console.log(report.text);
  return report;
}

function summarize(values: string[]): string {
  const m = new Map<string, number>();
  for (const v of values) m.set(v, (m.get(v) ?? 0) + 1);
  return [...m].map(([k, n]) => `${k} ×${n}`).join(", ");
}
