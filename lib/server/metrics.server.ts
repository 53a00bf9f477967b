/** Prometheus metrics (prom-client), one registry per app. */
import { Counter, Gauge, Registry, collectDefaultMetrics } from "prom-client";
import type { Metrics } from "@/lib/core/ports";
import type { Tenant } from "@/lib/core/tenants";
import type { DeliveryOutcome, WebhookMetrics } from "@/lib/core/webhooks/ports";

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

/**
 * Webhook metrics (kept apart from createMetrics): attempts by outcome, and the messages
 * waiting in the outbox across all tenants, counted at each scrape.
 */
export function registerWebhookMetrics(registry: Registry, pending: () => Promise<number>): WebhookMetrics {
  const deliveries = new Counter({
    name: "nextup_webhook_deliveries_total",
    help: "Webhook attempts by outcome: delivered (2xx), retrying (failed, another attempt scheduled), gave_up (failed, none left), failed (could not be made: an error in Nextup; the queue runs it again).",
    labelNames: ["outcome"],
    registers: [registry],
  });
  for (const outcome of ["delivered", "retrying", "gave_up", "failed"]) deliveries.inc({ outcome }, 0);
  new Gauge({
    name: "nextup_webhook_queue_depth",
    help: "Webhook messages neither delivered nor given up yet (all tenants).",
    registers: [registry],
    async collect() {
      // The database down: NaN (unknown) rather than a failed scrape.
      this.set(await pending().catch(() => NaN));
    },
  });
  return { delivery: (outcome: DeliveryOutcome) => deliveries.inc({ outcome }) };
}
