/** Prometheus metrics (prom-client), one registry per app. */
import { Counter, Gauge, Registry, collectDefaultMetrics } from "prom-client";
import type { Metrics } from "@/lib/core/ports";
import type { Tenant } from "@/lib/core/tenants";

export interface AppMetrics extends Metrics {
  registry: Registry;
}

/**
 * `counterSource` is read at each scrape: 1 while numbers come from Redis, 0 from PostgreSQL;
 * `leader` too: whether this node leads the scheduler now.
 */
export function createMetrics(counterSource: () => "redis" | "database", leader: () => boolean = () => false): AppMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  new Gauge({
    name: "nextup_counter_redis",
    help: "1 while this node takes numbers from Redis, 0 while it takes them from PostgreSQL (Redis unreachable).",
    registers: [registry],
    collect() {
      this.set(counterSource() === "redis" ? 1 : 0);
    },
  });
  new Gauge({
    name: "nextup_scheduler_leader",
    help: "1 while this node leads the scheduler (starts scheduled shifts), else 0; exactly one node should show 1.",
    registers: [registry],
    collect() {
      this.set(leader() ? 1 : 0);
    },
  });
  const duplicates = new Counter({
    name: "nextup_duplicate_numbers_total",
    help: "Numbers the counter issued that the database refused as already stored (should stay 0).",
    labelNames: ["tenant"],
    registers: [registry],
  });
  return {
    registry,
    duplicateNumber: (tenant: Tenant) => duplicates.inc({ tenant: tenant.slug }),
  };
}
