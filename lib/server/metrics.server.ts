/** Prometheus metrics (prom-client), one registry per app. */
import { Counter, Registry, collectDefaultMetrics } from "prom-client";
import type { Metrics } from "@/lib/core/ports";
import type { Tenant } from "@/lib/core/tenants";

export interface AppMetrics extends Metrics {
  registry: Registry;
}

export function createMetrics(): AppMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
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
