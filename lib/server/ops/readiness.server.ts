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

export async function checkReadiness(p: ReadinessProbes): Promise<Readiness> {
  const [dbUp, redisUp, migrations] = await Promise.all([
    within(PROBE_TIMEOUT_MS, p.database(), false),
    within(PROBE_TIMEOUT_MS, p.redis(), false),
    within(
      PROBE_TIMEOUT_MS,
      Promise.all([p.appliedMigrations(), p.expectedMigrations()]).then(([applied, expected]): ReadinessChecks["migrations"] => {
        const done = new Set(applied);
        return expected.every((m) => done.has(m)) ? "applied" : "pending";
      }),
      null,
    ),
  ]);
  const checks: ReadinessChecks = {
    database: dbUp ? "up" : "down",
    redis: redisUp ? "up" : "down",
    // The bookkeeping table unreadable while the database answers: nothing was migrated yet.
    migrations: migrations ?? (dbUp ? "pending" : "unknown"),
    node: p.stopping() ? "stopping" : "running",
  };
  const failing: (keyof ReadinessChecks)[] = [];
  if (checks.database === "down") failing.push("database");
  if (checks.redis === "down" && p.redisRequired) failing.push("redis");
  if (checks.migrations !== "applied") failing.push("migrations");
  if (checks.node === "stopping") failing.push("node");
  const replication = p.replication();
  return failing.length ? { status: "unready", checks, replication, failing } : { status: "ready", checks, replication };
}
