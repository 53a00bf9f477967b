/** What the core reports: log lines, and counts and timings for Prometheus (lib/server/ops/). */
import type { OrderStatus } from "../orders";
import type { Tenant } from "../tenants";

export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** What the core reports for Prometheus (lib/server/ops/metrics.server.ts); counts and timings only. */
export interface Metrics {
  duplicateNumber(tenant: Tenant): void;
  /** One order's number took `seconds` to issue, from Redis's blocks or straight from PostgreSQL. */
  numberIssued(source: "redis" | "database", seconds: number): void;
  /** An order was stored (a replayed idempotent retry is not counted). */
  orderPlaced(channel: string): void;
  /** An order moved to `status`. */
  orderStatusChanged(status: OrderStatus): void;
  /** The unique index refused an order insert and it was handled: another number drawn, or a concurrent twin's order answered. */
  uniqueViolation(index: "number" | "idempotencyKey" | "openNumber"): void;
}
