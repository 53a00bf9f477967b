/** What the order services share: their dependencies, and finding one order of a restaurant. */
import { AppError } from "./errors";
import { isUuid } from "./ids";
import type { NumberIssuer } from "./numbering";
import type { Order } from "./orders";
import type { AuditLog, Clock, EventPublisher, IdempotencyClaims, Logger, MenuCatalog, Metrics, OrderRepository, ShiftRepository } from "./ports";
import type { PrinterService } from "./printing/printer-service";
import type { Tenant } from "./tenants";

export interface OrderServiceDeps {
  issuer: NumberIssuer;
  claims: IdempotencyClaims;
  orders: OrderRepository;
  shifts: ShiftRepository;
  events: EventPublisher;
  metrics: Metrics;
  log: Logger;
  clock: Clock;
  /** The tenant's menu, for lines sent as a menuItemId; without it such lines are refused. */
  menu?: MenuCatalog;
  /** Which printer prints a new order's ticket (decision 0029); without it nothing prints. */
  printing?: Pick<PrinterService, "printerFor">;
  /** A monotonic clock in ms, for the number-issue timing (default: performance.now). */
  monotonic?: () => number;
  /** Where clearing forgotten orders is recorded; without it the clearing goes unaudited (tools, tests). */
  audit?: AuditLog;
}

/** The order `id` of `tenant`; 404 `orderNotFound` when there is none (or `id` is no UUID). */
export async function getOrder(deps: Pick<OrderServiceDeps, "orders">, tenant: Tenant, id: string): Promise<Order> {
  const order = isUuid(id) ? await deps.orders.findById(tenant.id, id) : null;
  if (!order) throw new AppError("NOT_FOUND", { message: `No order ${id} for ${tenant.slug}`, userMessage: "Order not found.", reason: "orderNotFound" });
  return order;
}
