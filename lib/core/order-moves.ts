/**
 * Moving an order through the kitchen (a screen's tap, a typed number, Undo) and calling a
 * ready one again. Each is a conditional write on the state it was read in (decision 0034):
 * a screen that lost a race, or an order cleared meanwhile, re-reads and is told why.
 */
import { z } from "zod";
import { AppError } from "./errors";
import { matchTypedNumber, typedCandidate } from "./kitchen";
import { assertTransition, nextStep, parseOrThrow, statusChangeSchema, toBoardOrder, type Order } from "./orders";
import { NumberOpenError } from "./ports";
import type { Tenant } from "./tenants";
import { orderMoved } from "./webhooks/events";
import { displayNumber, parseTypedNumber, seriesOf } from "./series";
import { getOrder, type OrderServiceDeps } from "./order-common";
import type { OrderFloor } from "./order-floor";

/** An Undo that would put a number back on the floor after it was handed to another open order. */
const numberReissued = (order: Order) =>
  new AppError("CONFLICT", {
    message: `Number ${displayNumber(order.prefix, order.number)} has been given to another order since: order ${order.id} cannot be open again`,
    userMessage: `Number ${displayNumber(order.prefix, order.number)} has been given to another order since; it cannot be put back.`,
    details: { number: order.number, display: displayNumber(order.prefix, order.number) },
    reason: "numberReissued",
  });

/** An order cleared off the floor stays as it was: no screen shows it, so nothing may move or call it. */
export function clearedOrder(order: Order): AppError {
  return new AppError("CONFLICT", {
    message: `Order ${order.id} was cleared off the floor`,
    userMessage: `Number ${displayNumber(order.prefix, order.number)} was cleared off the floor and can no longer be changed.`,
    reason: "orderCleared",
    details: { number: order.number, display: displayNumber(order.prefix, order.number), clearedAt: order.clearedAt?.toISOString() ?? null },
  });
}

/** A typed number: `12` (a JSON number or text), `K12` or `k12`; 1–99999999 (MAX_SERIES_NUMBER). */
export const typedNumberSchema = z.strictObject({
  number: z.union([z.number(), z.string()], { error: "Type an order number" }).transform((v, ctx) => {
    const typed = parseTypedNumber(String(v));
    if (!typed) ctx.addIssue({ code: "custom", message: "Type an order number as shown, e.g. 12 or K12 (1 to 99999999)" });
    return typed ?? { prefix: null, number: 0 };
  }),
});

/** Three conditional writes lost in a row: someone else keeps changing the order. */
export const keepsChanging = (id: string) =>
  new AppError("CONFLICT", {
    message: `Order ${id} keeps changing`,
    userMessage: "This order was changed by someone else. Please retry.",
    reason: "orderKeepsChanging",
  });

export class OrderMoves {
  constructor(
    private readonly deps: OrderServiceDeps,
    /** The open orders a typed number is matched against. */
    private readonly floor: Pick<OrderFloor, "openFloor">,
  ) {}

  /** `by`: who moves it (Caller.by: a person's name, a shared code's role label, an API key's label), stored with the move. */
  async changeStatus(tenant: Tenant, id: string, input: unknown, by: string | null): Promise<Order> {
    const { status } = parseOrThrow(statusChangeSchema, input, "status change");
    // Two kitchen screens may race; the conditional update makes the loser re-read.
    for (let attempt = 0; attempt < 3; attempt++) {
      const current = await getOrder(this.deps, tenant, id);
      if (current.clearedAt) throw clearedOrder(current);
      assertTransition(current.status, status);
      if (current.status === status) return current;
      const updated = await this.deps.orders
        .updateStatus(tenant.id, id, current.status, status, this.deps.clock.now(), by, orderMoved(tenant, by))
        .catch((e: unknown) => {
          if (e instanceof NumberOpenError) throw numberReissued(current);
          throw e;
        });
      if (updated) {
        this.deps.metrics.orderStatusChanged(status);
        this.deps.log.info({ tenant: tenant.slug, orderId: id, number: updated.number, from: current.status, to: status }, "order status changed");
        this.deps.events.orderUpdated(tenant, toBoardOrder(updated));
        return updated;
      }
    }
    throw keepsChanging(id);
  }

  /**
   * The cook typed a number (`K12`, `k12`, `12`): that open order moves one step forward
   * (PLACED → READY → COLLECTED). `12` means the 12 without letters, else the only lettered
   * one open; when several lettered ones show it (K12 and D12, no 12) or twins from before
   * decision 0027 do, nothing moves: the 409 lists them, and the screen asks which.
   */
  async advanceByNumber(tenant: Tenant, input: unknown, by: string | null): Promise<Order> {
    const { number: typed } = parseOrThrow(typedNumberSchema, input, "order number");
    const { day, shift, open } = await this.floor.openFloor(tenant);
    const match = matchTypedNumber(
      open,
      typed,
      { businessDay: day, shift },
      seriesOf(tenant).map((s) => s.prefix),
    );
    // What the cook typed, as the screens write it: "K12" (k12 typed), or "12".
    const display = displayNumber(typed.prefix ?? "", typed.number);
    if (match.kind === "none") {
      if (match.unknownPrefix) {
        throw new AppError("NOT_FOUND", {
          message: `No series or open order of ${tenant.slug} has the prefix ${typed.prefix}`,
          userMessage: `No order number starts with ${typed.prefix}: type a number as it is shown, e.g. 12 or K12.`,
          reason: "unknownPrefix",
          details: { number: typed.number, prefix: typed.prefix, display },
        });
      }
      throw new AppError("NOT_FOUND", {
        message: `No open order ${display} for ${tenant.slug}`,
        userMessage: `No open order has number ${display}.`,
        reason: "noOpenOrder",
        details: { number: typed.number, prefix: typed.prefix, display },
      });
    }
    if (match.kind === "several") {
      const candidates = match.orders.map(typedCandidate);
      throw new AppError("CONFLICT", {
        message: `${display} matches ${candidates.length} open orders: ${candidates.map((c) => `${c.display} (${c.businessDay}/${c.shift})`).join(", ")}`,
        userMessage: `${display} matches more than one open order (${candidates.map((c) => c.display).join(", ")}): choose one.`,
        reason: "severalOpen",
        // `shifts` as before; `candidates` say which orders, so a screen can offer each.
        details: { number: typed.number, prefix: typed.prefix, display, shifts: candidates.map((c) => c.shift), candidates },
      });
    }
    return this.changeStatus(tenant, match.order.id, { status: nextStep(match.order.status)! }, by);
  }

  /**
   * "Call again": every board of the tenant calls this ready number once more, and shows it
   * again for readyClearMinutes (an order that had left the board comes back to it).
   */
  async callAgain(tenant: Tenant, id: string): Promise<Order> {
    const read = await getOrder(this.deps, tenant, id);
    const callable = read.status === "READY" && !read.clearedAt;
    const again = callable ? await this.deps.orders.readyAgain(tenant.id, id, this.deps.clock.now()) : null;
    if (!again) {
      // Refused though it looked callable: it changed meanwhile (cleared, collected); say why from what it is now.
      const order = callable ? await getOrder(this.deps, tenant, id) : read;
      if (order.clearedAt) throw clearedOrder(order);
      throw new AppError("CONFLICT", {
        message: `Order ${id} is ${order.status}, not READY`,
        userMessage: `Only a ready order can be called; number ${displayNumber(order.prefix, order.number)} is not ready.`,
        reason: "notReady",
        details: { number: order.number, display: displayNumber(order.prefix, order.number), status: order.status },
      });
    }
    this.deps.events.orderCalled(tenant, toBoardOrder(again));
    return again;
  }
}
