/**
 * Orders as the edges use them, one object over the jobs: taking an order and issuing its
 * number (order-placing.ts), moving and calling it (order-moves.ts), a station's part of it
 * (order-parts.ts), and the floor of open orders, forgotten ones cleared as they are met
 * (order-floor.ts).
 */
import type { BoardView } from "./board";
import { orderHistory, type Order, type OrderMove, type OrderStatus } from "./orders";
import type { CollectedOrder } from "./ports";
import type { Tenant } from "./tenants";
import { getOrder, type OrderServiceDeps } from "./order-common";
import { OrderFloor } from "./order-floor";
import { OrderMoves } from "./order-moves";
import { OrderParts } from "./order-parts";
import { OrderPlacing, type PlaceOrderOptions, type Placed } from "./order-placing";
import { StationBumps } from "./station-bumps";

export type { OrderServiceDeps } from "./order-common";
export { FORGOTTEN_AFTER_HOURS, RECENTLY_COLLECTED } from "./order-floor";
export type { PlaceOrderOptions, Placed } from "./order-placing";

export class OrderService {
  private readonly placing: OrderPlacing;
  private readonly open: OrderFloor;
  private readonly moves: OrderMoves;
  private readonly parts: OrderParts;
  private readonly bumps: StationBumps;

  constructor(private readonly deps: OrderServiceDeps) {
    this.placing = new OrderPlacing(deps);
    this.open = new OrderFloor(deps);
    this.moves = new OrderMoves(deps, this.open);
    this.parts = new OrderParts(deps);
    this.bumps = new StationBumps(deps, this.open, this.parts);
  }

  /** Takes an order; `printer` is the printer its ticket was queued on (null: none, or a replay). */
  place(tenant: Tenant, input: unknown, opts: PlaceOrderOptions): Promise<Placed> {
    return this.placing.place(tenant, input, opts);
  }

  get(tenant: Tenant, id: string): Promise<Order> {
    return getOrder(this.deps, tenant, id);
  }

  /** The order and its history, oldest first: taken (createdAt, placedBy), then every stored move with who made it. */
  async withHistory(tenant: Tenant, id: string): Promise<{ order: Order; history: OrderMove[] }> {
    const order = await getOrder(this.deps, tenant, id);
    return { order, history: orderHistory(order, await this.deps.orders.moves(tenant.id, order.id)) };
  }

  /** `by`: who moves it (Caller.by), stored with the move and named by its webhook event. */
  changeStatus(tenant: Tenant, id: string, input: unknown, by: string | null): Promise<Order> {
    return this.moves.changeStatus(tenant, id, input, by);
  }

  /** The cook typed a number (`K12`, `k12`, `12`): that open order moves one step forward, by `by`. */
  advanceByNumber(tenant: Tenant, input: unknown, by: string | null): Promise<Order> {
    return this.moves.advanceByNumber(tenant, input, by);
  }

  /** Station `stationId` is done with its part of order `id` (issue #40); the last part done makes it ready. */
  partDone(tenant: Tenant, id: string, stationId: string, by: string | null): Promise<Order> {
    return this.parts.done(tenant, id, stationId, by);
  }

  /** Undo of a station's Done. */
  partUndo(tenant: Tenant, id: string, stationId: string, by: string | null): Promise<Order> {
    return this.parts.undo(tenant, id, stationId, by);
  }

  /** A station's screen: its share of order `id` done (its own part, and on the default's a removed station's). */
  stationDone(tenant: Tenant, id: string, stationId: string, by: string | null): Promise<Order> {
    return this.bumps.done(tenant, id, stationId, by);
  }

  /** Undo of a station screen's Done. */
  stationUndo(tenant: Tenant, id: string, stationId: string, by: string | null): Promise<Order> {
    return this.bumps.undo(tenant, id, stationId, by);
  }

  /** A number typed on a station's screen: that order's share of the station is done. */
  partDoneByNumber(tenant: Tenant, input: unknown, stationId: string, by: string | null): Promise<Order> {
    return this.bumps.doneByNumber(tenant, input, stationId, by);
  }

  /** "Call again": every board calls this ready number once more. */
  callAgain(tenant: Tenant, id: string): Promise<Order> {
    return this.moves.callAgain(tenant, id);
  }

  /** The current shift of today: its number and its orders (optionally of some statuses). */
  currentShift(tenant: Tenant, statuses?: readonly OrderStatus[]): Promise<{ businessDay: string; shift: number; orders: Order[] }> {
    return this.open.currentShift(tenant, statuses);
  }

  /** What the dining-room board shows: every open order, whatever its shift or day. */
  board(tenant: Tenant): Promise<BoardView> {
    return this.open.board(tenant);
  }

  /** Whether an open order shows the displayed number (`K12`, or `12` without a prefix). */
  holds(tenant: Tenant, number: number, prefix = ""): Promise<boolean> {
    return this.open.holds(tenant, number, prefix);
  }

  /** What the kitchen works on: every open order and today's last collected ones. */
  floor(tenant: Tenant): Promise<{ businessDay: string; shift: number; open: Order[]; recentlyCollected: CollectedOrder[] }> {
    return this.open.floor(tenant);
  }

  /** The customer's page: the order, and the keys of the orders still being prepared ahead of it. */
  track(tenant: Tenant, id: string): Promise<{ order: Order; aheadKeys: string[] }> {
    return this.open.track(tenant, id);
  }
}
