/**
 * A business day's takings (issue #41): what its orders came to, from the unit prices
 * copied onto their lines when taken (options included), per shift, channel and service.
 * Integer minor units throughout. Cancelled orders are counted apart; an order cleared off
 * the floor without being collected was paid at the till, so it counts as sold. Pure.
 */
import { orderTotal } from "../money";
import { CHANNELS, SERVICES, type OrderItem, type OrderStatus, type Service } from "../orders";

/** What the takings read of an order of the day. */
export interface TakingsOrder {
  shift: number;
  channel: string;
  service: Service | null;
  status: OrderStatus;
  items: readonly Pick<OrderItem, "qty" | "priceCents">[];
}

/** A sum over some orders. */
export interface TakingsSum {
  orders: number;
  /** Price × quantity over their lines, in minor units; a line without a price counts 0. */
  totalCents: number;
  /** Of `orders`, those with at least one line without a price: while above 0 the total is partial. */
  unpricedOrders: number;
}

export interface DayTakings {
  /** The restaurant's currency (ISO 4217), null when it set none. */
  currency: string | null;
  /** Every order of the day but the cancelled ones. */
  total: TakingsSum;
  /** The day's shifts, in order; a shift without orders sums to 0. */
  shifts: (TakingsSum & { shift: number })[];
  /** The channels that took orders: the known ones in their usual order, then any other by name. */
  channels: (TakingsSum & { channel: string })[];
  /** Eat in, take away, then not stated (null): those with orders. */
  services: (TakingsSum & { service: Service | null })[];
  /** The cancelled orders and what they would have come to; in none of the sums above. */
  cancelled: TakingsSum;
}

const empty = (): TakingsSum => ({ orders: 0, totalCents: 0, unpricedOrders: 0 });

function add(sum: TakingsSum, cents: number, unpriced: boolean): void {
  sum.orders++;
  sum.totalCents += cents;
  if (!Number.isSafeInteger(sum.totalCents)) throw new RangeError("Takings too large to add up exactly");
  if (unpriced) sum.unpricedOrders++;
}

function tally<K>(map: Map<K, TakingsSum>, key: K, cents: number, unpriced: boolean): void {
  const sum = map.get(key) ?? empty();
  add(sum, cents, unpriced);
  map.set(key, sum);
}

const channelRank = (c: string) => {
  const i = (CHANNELS as readonly string[]).indexOf(c);
  return i === -1 ? CHANNELS.length : i;
};
const serviceRank = (s: Service | null) => (s === null ? SERVICES.length : SERVICES.indexOf(s));

/** The day's takings; `shifts` are the day's shift numbers (a shift seen only in `orders` is listed too). */
export function dayTakings(orders: readonly TakingsOrder[], day: { shifts: readonly number[]; currency: string | null }): DayTakings {
  const total = empty();
  const cancelled = empty();
  const shifts = new Map<number, TakingsSum>(day.shifts.map((s) => [s, empty()]));
  const channels = new Map<string, TakingsSum>();
  const services = new Map<Service | null, TakingsSum>();
  for (const o of orders) {
    const sum = orderTotal(o.items);
    const cents = sum?.cents ?? 0;
    const unpriced = sum === null ? o.items.length > 0 : sum.unpriced > 0;
    if (o.status === "CANCELLED") {
      add(cancelled, cents, unpriced);
      continue;
    }
    add(total, cents, unpriced);
    tally(shifts, o.shift, cents, unpriced);
    tally(channels, o.channel, cents, unpriced);
    tally(services, o.service, cents, unpriced);
  }
  return {
    currency: day.currency,
    total,
    shifts: [...shifts].sort(([a], [b]) => a - b).map(([shift, s]) => ({ shift, ...s })),
    channels: [...channels].sort(([a], [b]) => channelRank(a) - channelRank(b) || a.localeCompare(b, "en")).map(([channel, s]) => ({ channel, ...s })),
    services: [...services].sort(([a], [b]) => serviceRank(a) - serviceRank(b)).map(([service, s]) => ({ service, ...s })),
    cancelled,
  };
}
