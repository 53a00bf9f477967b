/**
 * A station marks its part of an order done, or takes that back (issue #40). The rules are
 * stations.ts's; the write is conditional on the parts and status it read (decision 0034),
 * so two stations finishing at once on two nodes make one order.ready, never none or two.
 */
import { AppError } from "./errors";
import { isUuid } from "./ids";
import { toBoardOrder, type Order } from "./orders";
import { getOrder, type OrderServiceDeps } from "./order-common";
import { clearedOrder, keepsChanging } from "./order-moves";
import { asReadyWhen, partDone, partUndone, type PartChange } from "./stations";
import type { Tenant } from "./tenants";
import { orderMoved } from "./webhooks/events";

const unknownStation = (tenant: Tenant, stationId: string) =>
  new AppError("NOT_FOUND", {
    message: `No station ${stationId} for ${tenant.slug}`,
    userMessage: "This station does not exist.",
    reason: "stationNotFound",
  });

export class OrderParts {
  constructor(private readonly deps: OrderServiceDeps) {}

  /** Station `stationId` is done with its part; the last part done makes the order ready (unless the expo does). Repeating it is harmless. */
  done(tenant: Tenant, id: string, stationId: string, by: string | null): Promise<Order> {
    return this.change(tenant, id, stationId, by, (order, at) => partDone(order, stationId, at, by, asReadyWhen(tenant.floor.readyWhen)));
  }

  /** Undo of a station's Done: the part is open again; a Ready its parts made is taken back. */
  undo(tenant: Tenant, id: string, stationId: string, by: string | null): Promise<Order> {
    return this.change(tenant, id, stationId, by, (order) => partUndone(order, stationId, asReadyWhen(tenant.floor.readyWhen)));
  }

  private async change(tenant: Tenant, id: string, stationId: string, by: string | null, rule: (order: Order, at: Date) => PartChange | null): Promise<Order> {
    // A station removed since still names the parts it had: only a station neither live nor in the order is unknown.
    const live = (tenant.stations ?? []).some((s) => s.id === stationId);
    if (!isUuid(stationId)) throw unknownStation(tenant, stationId);
    for (let attempt = 0; attempt < 3; attempt++) {
      const current = await getOrder(this.deps, tenant, id);
      if (!live && !current.stations.some((p) => p.id === stationId)) throw unknownStation(tenant, stationId);
      if (current.clearedAt) throw clearedOrder(current);
      const at = this.deps.clock.now();
      const next = rule(current, at);
      if (!next) return current;
      const moves = next.status !== current.status;
      const updated = await this.deps.orders.updateParts(
        tenant.id,
        id,
        { from: current.status, to: next.status },
        { from: current.stations, to: next.parts },
        at,
        by,
        moves ? orderMoved(tenant, by) : undefined,
      );
      if (!updated) continue;
      if (moves) {
        this.deps.metrics.orderStatusChanged(next.status);
        this.deps.log.info(
          { tenant: tenant.slug, orderId: id, number: updated.number, from: current.status, to: next.status, stationId },
          "order status changed",
        );
      }
      // Every screen re-reads: the stations' piles change, and the board calls a number its last part made ready.
      this.deps.events.orderUpdated(tenant, toBoardOrder(updated));
      return updated;
    }
    throw keepsChanging(id);
  }
}
