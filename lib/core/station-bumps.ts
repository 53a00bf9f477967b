/**
 * A station's screen bumps its share of an order (issue #40): by a tap, or by a typed number
 * matched against the orders that still have work for that station. Its share is every part
 * partIsFor gives it (its own, and on the default's screen a removed station's); each part is
 * written by OrderParts, fenced on the state it read.
 */
import { AppError } from "./errors";
import { matchTypedNumber, typedCandidate } from "./kitchen";
import { parseOrThrow, type Order } from "./orders";
import { getOrder, type OrderServiceDeps } from "./order-common";
import type { OrderFloor } from "./order-floor";
import { typedNumberSchema } from "./order-moves";
import type { OrderParts } from "./order-parts";
import { displayNumber, seriesOf } from "./series";
import { partIsFor, type OrderPart, type Station } from "./stations";
import type { Tenant } from "./tenants";

/** The live station `stationId` of the restaurant; 404 for one it does not have (now). */
export function liveStation(tenant: Tenant, stationId: string): Station {
  const station = (tenant.stations ?? []).find((s) => s.id === stationId);
  if (!station) {
    throw new AppError("NOT_FOUND", {
      message: `No station ${stationId} for ${tenant.slug}`,
      userMessage: "This station does not exist.",
      reason: "stationNotFound",
    });
  }
  return station;
}

/** The parts of an order that station `station`'s screen works on. */
export const partsFor = (order: Pick<Order, "stations">, station: Station, tenant: Tenant): OrderPart[] =>
  order.stations.filter((p) => partIsFor(p, station, tenant.stations ?? []));

/** Whether the order is still to prepare at this station: preparing, with a part of it not done. */
export const openAt = (order: Pick<Order, "status" | "stations">, station: Station, tenant: Tenant): boolean =>
  order.status === "PLACED" && partsFor(order, station, tenant).some((p) => p.doneAt === null);

export class StationBumps {
  constructor(
    private readonly deps: Pick<OrderServiceDeps, "orders">,
    private readonly floor: Pick<OrderFloor, "openFloor">,
    private readonly parts: Pick<OrderParts, "done" | "undo">,
  ) {}

  /** The station's share of order `id` is done; already done, it is left as it is. */
  async done(tenant: Tenant, id: string, stationId: string, by: string | null): Promise<Order> {
    const station = liveStation(tenant, stationId);
    let order = await getOrder(this.deps, tenant, id);
    for (const part of partsFor(order, station, tenant)) {
      if (part.doneAt === null) order = await this.parts.done(tenant, id, part.id, by);
    }
    return order;
  }

  /** Undo of the station's Done: each of its parts that is done is open again (a Ready they made is taken back). */
  async undo(tenant: Tenant, id: string, stationId: string, by: string | null): Promise<Order> {
    const station = liveStation(tenant, stationId);
    let order = await getOrder(this.deps, tenant, id);
    for (const part of partsFor(order, station, tenant)) {
      if (part.doneAt !== null) order = await this.parts.undo(tenant, id, part.id, by);
    }
    return order;
  }

  /**
   * The cook typed a number on a station's screen: the order showing it among those still
   * to prepare at this station has its share done. A number open elsewhere but done here
   * (or with nothing here) is `nothingForStation`, so the screen can say so.
   */
  async doneByNumber(tenant: Tenant, input: unknown, stationId: string, by: string | null): Promise<Order> {
    const station = liveStation(tenant, stationId);
    const { number: typed } = parseOrThrow(typedNumberSchema, input, "order number");
    const { day, shift, open } = await this.floor.openFloor(tenant);
    const here = open.filter((o) => openAt(o, station, tenant));
    const current = { businessDay: day, shift };
    const prefixes = seriesOf(tenant).map((s) => s.prefix);
    const match = matchTypedNumber(here, typed, current, prefixes);
    const display = displayNumber(typed.prefix ?? "", typed.number);
    const details = { number: typed.number, prefix: typed.prefix, display, station: station.name };
    if (match.kind === "one") return this.done(tenant, match.order.id, station.id, by);
    if (match.kind === "several") {
      const candidates = match.orders.map(typedCandidate);
      throw new AppError("CONFLICT", {
        message: `${display} matches ${candidates.length} orders open at ${station.name}`,
        userMessage: `${display} matches more than one order (${candidates.map((c) => c.display).join(", ")}): choose one.`,
        reason: "severalOpen",
        details: { ...details, candidates },
      });
    }
    if (match.unknownPrefix) {
      throw new AppError("NOT_FOUND", {
        message: `No series or open order of ${tenant.slug} has the prefix ${typed.prefix}`,
        userMessage: `No order number starts with ${typed.prefix}: type a number as it is shown, e.g. 12 or K12.`,
        reason: "unknownPrefix",
        details,
      });
    }
    // Open on the floor, but not here: the cook should hear that, not "no such order".
    const elsewhere = matchTypedNumber(open, typed, current, prefixes).kind !== "none";
    throw new AppError("NOT_FOUND", {
      message: elsewhere ? `Order ${display} has nothing left for ${station.name}` : `No open order ${display} for ${tenant.slug}`,
      userMessage: elsewhere ? `Number ${display} has nothing left to make at ${station.name}.` : `No open order has number ${display}.`,
      reason: elsewhere ? "nothingForStation" : "noOpenOrder",
      details,
    });
  }
}
