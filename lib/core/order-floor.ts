/**
 * The floor: the open orders of every shift and day as the board, the kitchen and a
 * customer's page see them, and the forgotten ones cleared off it as they are met.
 */
import { boardView, type BoardView } from "./board";
import { aheadKeys } from "./queue-position";
import { isOpen, toBoardOrder, type Order, type OrderStatus } from "./orders";
import type { Tenant } from "./tenants";
import { orderCleared } from "./webhooks/events";
import { SYSTEM_ACTOR } from "./audit";
import { displayNumber } from "./series";
import { getOrder, type OrderServiceDeps } from "./order-common";
import type { CollectedOrder } from "./ports";

/** An order still open this long after it was taken is forgotten: it is cleared off the floor (docs/decisions/0022). */
export const FORGOTTEN_AFTER_HOURS = 12;

/** How many collected orders the kitchen can recall. */
export const RECENTLY_COLLECTED = 20;

export class OrderFloor {
  constructor(private readonly deps: OrderServiceDeps) {}

  /**
   * The current shift of today: its number and its orders (optionally of some statuses).
   * Asked for open orders only (PLACED, READY), it lists every open order on the floor, of
   * any shift or day, as the board and the kitchen show them.
   */
  async currentShift(tenant: Tenant, statuses?: readonly OrderStatus[]): Promise<{ businessDay: string; shift: number; orders: Order[] }> {
    if (statuses?.length && statuses.every(isOpen)) {
      const { day, shift, open } = await this.openFloor(tenant);
      return { businessDay: day, shift, orders: open.filter((o) => statuses.includes(o.status)) };
    }
    const day = this.deps.issuer.today(tenant);
    const shift = await this.deps.shifts.currentShift(tenant.id, day);
    const orders = await this.deps.orders.listShift(tenant.id, day, shift, statuses);
    return { businessDay: day, shift, orders };
  }

  /** Today, its current shift and the open orders (every shift and day): what the floor works from. */
  async openFloor(tenant: Tenant): Promise<{ day: string; shift: number; open: Order[] }> {
    const day = this.deps.issuer.today(tenant);
    const [shift, open] = await Promise.all([this.deps.shifts.currentShift(tenant.id, day), this.openOrders(tenant)]);
    return { day, shift, open };
  }

  /**
   * The open orders, oldest first. Orders forgotten for good (open for FORGOTTEN_AFTER_HOURS)
   * are cleared here, as they are met, audited and announced to the screens: no job to run,
   * and a conditional update lets one node do each.
   */
  async openOrders(tenant: Tenant): Promise<Order[]> {
    const open = await this.deps.orders.listOpen(tenant.id);
    const now = this.deps.clock.now();
    // Only a hint: the database decides by its own clock, which stamped createdAt.
    const cutoff = now.getTime() - FORGOTTEN_AFTER_HOURS * 3_600_000;
    if (!open.some((o) => o.createdAt.getTime() < cutoff)) return open;
    const cleared = await this.deps.orders.clearForgotten(tenant.id, FORGOTTEN_AFTER_HOURS, now, orderCleared(tenant));
    // None cleared here: another request may have cleared them since `open` was read (its update won the row).
    if (cleared.length === 0) return this.deps.orders.listOpen(tenant.id);
    this.deps.log.info({ tenant: tenant.slug, cleared: cleared.length }, "forgotten open orders cleared");
    await this.deps.audit
      ?.record(tenant.id, {
        actor: SYSTEM_ACTOR,
        action: "orders.clearForgotten",
        details: {
          hours: FORGOTTEN_AFTER_HOURS,
          count: cleared.length,
          orders: cleared.map((o) => ({ businessDay: o.businessDay, shift: o.shift, number: o.number, display: displayNumber(o.prefix, o.number) })),
        },
      })
      .catch((e: unknown) =>
        this.deps.log.error({ tenant: tenant.slug, err: e instanceof Error ? e.message : String(e) }, "could not audit clearing forgotten orders"),
      );
    for (const o of cleared) this.deps.events.orderUpdated(tenant, toBoardOrder(o));
    const gone = new Set(cleared.map((o) => o.id));
    return open.filter((o) => !gone.has(o.id));
  }

  /** What the dining-room board shows: every open order, whatever its shift or day. */
  async board(tenant: Tenant): Promise<BoardView> {
    const { day, shift, open } = await this.openFloor(tenant);
    return boardView({ businessDay: day, shift, readyClearMinutes: tenant.floor.readyClearMinutes }, open.map(toBoardOrder), this.deps.clock.now().getTime());
  }

  /** Whether the board could call a displayed number (`K12`, or `12` without a prefix) now: an open order (PLACED or READY, of any shift or day) holds it. */
  async holds(tenant: Tenant, number: number, prefix = ""): Promise<boolean> {
    return this.deps.orders.holdsOpen(tenant.id, number, prefix);
  }

  /** What the kitchen works on: every open order (all shifts and days, oldest first) and today's last collected ones. */
  async floor(tenant: Tenant): Promise<{ businessDay: string; shift: number; open: Order[]; recentlyCollected: CollectedOrder[] }> {
    const day = this.deps.issuer.today(tenant);
    const [{ shift, open }, recentlyCollected] = await Promise.all([
      this.openFloor(tenant),
      this.deps.orders.listRecentlyCollected(tenant.id, day, RECENTLY_COLLECTED),
    ]);
    return { businessDay: day, shift, open, recentlyCollected };
  }

  /** The customer's page: the order, and the keys of the orders still being prepared ahead of it. */
  async track(tenant: Tenant, id: string): Promise<{ order: Order; aheadKeys: string[] }> {
    const order = await getOrder(this.deps, tenant, id);
    if (!isOpen(order.status) || order.clearedAt) return { order, aheadKeys: [] };
    const open = await this.openOrders(tenant);
    return { order, aheadKeys: aheadKeys(open.map(toBoardOrder), toBoardOrder(order)) };
  }
}
