/**
 * What the load balancer and the operator ask a node: liveness with a glance at its
 * dependencies (/api/health), and readiness to take traffic (/api/ready).
 */
import type { Cluster, Redis } from "ioredis";
import type { Db } from "@/lib/adapters/postgres/prisma.server";
import { readMigrationFolders } from "@/lib/adapters/postgres/migrate.server";
import type { NumberIssuer } from "@/lib/core/numbering";
import type { HistoryWatch, Replication } from "@/lib/core/replication";
import type { ReplicationWatch } from "@/lib/core/replication-watch";
import type { Env } from "../env.server";
import { judgeReadiness, readDependencies, sharedReading, type Readiness } from "../ops/readiness.server";
import { pingRedis } from "./redis-clients.server";
import type { BackupState } from "@/lib/core/backups/backup-schedule";

export interface Health {
  status: "ok" | "degraded";
  db: "up" | "down";
  redis: "up" | "down";
  counter: "redis" | "database";
  leader: boolean;
  replication: Replication;
  history: HistoryWatch;
  /** When the dependencies were read (a reading is shared for up to a second). */
  checkedAt: string;
  /** Scheduled backups: off, none yet, running, ok or failed, with the last good one's time (decision 0049). */
  backup: BackupHealth;
}

export type BackupHealth = { state: "off" | "none" } | { state: "running" | "ok" | "failed"; lastOk: string | null; at?: string };

function backupHealth(s: BackupState): BackupHealth {
  if (s.state === "off" || s.state === "none") return { state: s.state };
  const lastOk = s.lastOk?.toISOString() ?? null;
  return s.state === "running" ? { state: "running", lastOk } : { state: s.state, at: s.at.toISOString(), lastOk };
}

/**
 * How long a reading of the dependencies is reused: one database query, one migrations query
 * and one Redis ping per node per second, however many probes arrive (a flood of them slowed
 * every restaurant's orders; issue #36, decision 0042).
 */
export const READING_MAX_AGE_MS = 1_000;

export function createProbes(deps: {
  env: Pick<Env, "READY_REQUIRES_REDIS">;
  db: Db;
  redis: Redis | Cluster;
  issuer: NumberIssuer;
  replication: ReplicationWatch;
  leader: () => boolean;
  backup: () => BackupState;
  stopping: () => boolean;
}): { health(): Promise<Health>; readiness(): Promise<Readiness> } {
  const { env, db, redis, issuer, replication } = deps;
  // The migration folders this code ships do not change while it runs.
  let expectedMigrations: Promise<string[]> | null = null;
  const reading = sharedReading(
    () =>
      readDependencies({
        database: () => db.$queryRaw`SELECT 1`.then(() => true),
        redis: () => pingRedis(redis),
        appliedMigrations: async () =>
          (
            await db.$queryRaw<
              { migration_name: string }[]
            >`SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`
          ).map((r) => r.migration_name),
        expectedMigrations: () =>
          (expectedMigrations ??= readMigrationFolders().then(
            (folders) => folders.map((f) => f.name),
            (e: unknown) => ((expectedMigrations = null), Promise.reject(e)),
          )),
      }),
    READING_MAX_AGE_MS,
  );
  return {
    async health() {
      const r = await reading();
      return {
        status: r.database && r.redis ? "ok" : "degraded",
        db: r.database ? "up" : "down",
        redis: r.redis ? "up" : "down",
        counter: issuer.source(),
        leader: deps.leader(),
        replication: replication.replication(),
        history: replication.historyWatch(),
        checkedAt: r.checkedAt.toISOString(),
        backup: backupHealth(deps.backup()),
      };
    },
    readiness: async () =>
      judgeReadiness(await reading(), { replication: () => replication.replication(), stopping: deps.stopping, redisRequired: env.READY_REQUIRES_REDIS }),
  };
}
