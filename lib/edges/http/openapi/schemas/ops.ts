/** Liveness and readiness answers (lib/server/ops). */
import { z } from "zod";

const replication = z
  .enum(["sync", "async", "none", "unknown"])
  .meta({ description: "The PostgreSQL replication this node last read (decision 0028); never makes a node unready." });

export const healthSchema = z
  .object({
    status: z.enum(["ok", "degraded"]),
    db: z.enum(["up", "down"]),
    redis: z.enum(["up", "down"]),
    counter: z.enum(["redis", "database"]),
    leader: z.boolean().meta({ description: "Whether this node runs the restaurants' shift schedules." }),
    replication,
    history: z.enum(["watched", "unknown"]).meta({
      description:
        "Whether this node's database role may read the history a failover changes (`pg_control_system()`, `pg_current_wal_lsn()`; decision 0032). `unknown`: a failover cannot be detected, and while Redis is unreachable orders are refused (503) unless `replication` is `sync` or `none`.",
    }),
    checkedAt: z.iso.datetime().meta({ description: "When this node last read its dependencies: answers share one reading for up to a second." }),
    backup: z
      .object({
        state: z.enum(["off", "none", "running", "ok", "failed"]),
        at: z.iso.datetime().optional().meta({ description: "When the latest scheduled backup ended (`ok`, `failed`)." }),
        lastOk: z.iso.datetime().nullable().optional().meta({ description: "When the last successful scheduled backup ended; null when none did." }),
      })
      .meta({
        description:
          "Scheduled backups (decision 0049): `off` (no BACKUP_DIR), `none` yet, `running`, or how the latest ended. Read by each node every 30 s; never makes a node unready.",
      }),
  })
  .meta({ id: "Health" });

const checkName = z.enum(["database", "redis", "migrations", "node"]);

export const readinessSchema = z
  .object({
    status: z.enum(["ready", "unready"]),
    checks: z.object({
      database: z.enum(["up", "down"]),
      redis: z.enum(["up", "down"]),
      migrations: z.enum(["applied", "pending", "unknown"]),
      node: z.enum(["running", "stopping"]),
    }),
    replication,
    failing: z.array(checkName).optional().meta({ description: "The checks that made the node unready (absent when ready)." }),
    checkedAt: z.iso
      .datetime()
      .meta({ description: "When this node last read its dependencies (`node` is as of the answer): answers share one reading for up to a second." }),
  })
  .meta({ id: "Readiness" });
