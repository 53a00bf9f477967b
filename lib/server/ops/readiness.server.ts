import type { Replication } from "@/lib/core/replication";

/**
 * Readiness (GET /api/ready): whether a load balancer should send this node traffic. Unlike
 * liveness (/api/health), a failing dependency or a node that is shutting down makes it 503.
 */
export interface ReadinessChecks {
  database: "up" | "down";
  redis: "up" | "down";
  /** "pending": a migration folder is not recorded as applied; "unknown": the database did not answer. */
  migrations: "applied" | "pending" | "unknown";
  /** "stopping" from the moment SIGTERM/SIGINT arrived. */
  node: "running" | "stopping";
}

export interface Readiness {
  status: "ready" | "unready";
  checks: ReadinessChecks;
  /** What the database's replication promises (decision 0028): told, never a reason to be unready. */
  replication: Replication;
  /** The checks that made the node unready (absent when ready). */
  failing?: (keyof ReadinessChecks)[];
  /** When the dependencies were read (answers share a reading up to a second old); `node` is as of the answer. */
  checkedAt: string;
}

export interface ReadinessProbes {
  /** As last read (no I/O). */
  replication(): Replication;
  database(): Promise<boolean>;
  redis(): Promise<boolean>;
  /** Migrations recorded as finished; rejects when the database or its bookkeeping table cannot be read. */
  appliedMigrations(): Promise<string[]>;
  /** The migration folders this code ships. */
  expectedMigrations(): Promise<string[]>;
  stopping(): boolean;
  /** When false, Redis down is reported but leaves the node ready (numbers come from PostgreSQL). */
  redisRequired: boolean;
}

/** A probe slower than this counts as failed: a load balancer's check must not hang. */
export const PROBE_TIMEOUT_MS = 2_000;

export function within<T>(ms: number, work: Promise<T>, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
    timer.unref();
  });
  return Promise.race([work.catch(() => fallback), late]).finally(() => clearTimeout(timer));
}

/** What the dependencies answered, taken at `checkedAt` (the I/O of a probe; the rest is judged per answer). */
export interface DependencyReading {
  database: boolean;
  redis: boolean;
  /** null: the bookkeeping table could not be read (or not in time). */
  migrations: "applied" | "pending" | null;
  checkedAt: Date;
}

export type DependencyProbes = Pick<ReadinessProbes, "database" | "redis" | "appliedMigrations" | "expectedMigrations">;

export async function readDependencies(p: DependencyProbes): Promise<DependencyReading> {
  const checkedAt = new Date();
  const [database, redis, migrations] = await Promise.all([
    within(PROBE_TIMEOUT_MS, p.database(), false),
    within(PROBE_TIMEOUT_MS, p.redis(), false),
    within(
      PROBE_TIMEOUT_MS,
      Promise.all([p.appliedMigrations(), p.expectedMigrations()]).then(([applied, expected]): "applied" | "pending" => {
        const done = new Set(applied);
        return expected.every((m) => done.has(m)) ? "applied" : "pending";
      }),
      null,
    ),
  ]);
  return { database, redis, migrations, checkedAt };
}

/** Readiness from a reading; `stopping` and `replication` are asked now, so a node told to stop is unready at once. */
export function judgeReadiness(r: DependencyReading, p: Pick<ReadinessProbes, "stopping" | "redisRequired" | "replication">): Readiness {
  const checks: ReadinessChecks = {
    database: r.database ? "up" : "down",
    redis: r.redis ? "up" : "down",
    // The bookkeeping table unreadable while the database answers: nothing was migrated yet.
    migrations: r.migrations ?? (r.database ? "pending" : "unknown"),
    node: p.stopping() ? "stopping" : "running",
  };
  const failing: (keyof ReadinessChecks)[] = [];
  if (checks.database === "down") failing.push("database");
  if (checks.redis === "down" && p.redisRequired) failing.push("redis");
  if (checks.migrations !== "applied") failing.push("migrations");
  if (checks.node === "stopping") failing.push("node");
  const replication = p.replication();
  const checkedAt = r.checkedAt.toISOString();
  return failing.length ? { status: "unready", checks, replication, failing, checkedAt } : { status: "ready", checks, replication, checkedAt };
}

export async function checkReadiness(p: ReadinessProbes): Promise<Readiness> {
  return judgeReadiness(await readDependencies(p), p);
}

/**
 * `read`, shared: a reading still running is handed to every caller, and a finished one is
 * reused until `maxAgeMs` after it began — so however many probes arrive, a node reads its
 * dependencies at most once per `maxAgeMs` (once per reading's duration when slower).
 */
export function sharedReading<T>(read: () => Promise<T>, maxAgeMs: number, now: () => number = Date.now): () => Promise<T> {
  let last: { startedAt: number; settled: boolean; value: Promise<T> } | null = null;
  return () => {
    if (last && (!last.settled || now() - last.startedAt < maxAgeMs)) return last.value;
    const entry: { startedAt: number; settled: boolean; value: Promise<T> } = { startedAt: now(), settled: false, value: read() };
    const settle = () => void (entry.settled = true);
    entry.value.then(settle, settle);
    last = entry;
    return entry.value;
  };
}
