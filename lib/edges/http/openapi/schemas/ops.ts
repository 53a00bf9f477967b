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
  })
  .meta({ id: "Readiness" });
