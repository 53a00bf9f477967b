/**
 * Taking an order and moving it through the kitchen: validate → issue a number → store →
 * broadcast. The number is returned only once the order is stored.
 */
import { isUuid } from "./ids";
import { createHash } from "node:crypto";
import { z } from "zod";
import { AppError } from "./errors";
import { boardView, type BoardView } from "./board";
import { matchTypedNumber, typedCandidate } from "./kitchen";
import { aheadKeys } from "./queue-position";
import type { NumberIssuer } from "./numbering";
import {
  assertTransition,
  idempotencyKeySchema,
  isOpen,
  newOrderSchema,
  nextStep,
  parseOrThrow,
  statusChangeSchema,
  toBoardOrder,
  type NewOrder,
  type Order,
  type OrderItem,
  type OrderStatus,
} from "./orders";
import {
  DuplicateIdempotencyKeyError,
  DuplicateNumberError,
  NumberOpenError,
  type EventPublisher,
  type IdempotencyClaims,
  type Logger,
  type Metrics,
  type OrderRepository,
  type ShiftRepository,
  type Clock,
  type MenuCatalog,
  type AuditLog,
  type PrintRequest,
} from "./ports";
import type { Tenant } from "./tenants";
import { resolveOrderLines } from "./menu";
import { orderCleared, orderCreated, orderMoved } from "./webhooks/events";
import { SYSTEM_ACTOR } from "./audit";
import { displayNumber, numberOfTicket, parseTypedNumber, seriesFor, seriesOf, type Channel, type Series } from "./series";
import { OpenNumberSkips } from "./open-number-skips";
import { trackPath } from "./order-json";
import type { PrinterService } from "./printing/printer-service";

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

/** An order still open this long after it was taken is forgotten: it is cleared off the floor (docs/decisions/0022). */
export const FORGOTTEN_AFTER_HOURS = 12;

/** How long a claim on an idempotency key lasts, and how long a concurrent retry waits for the first attempt's order. */
const CLAIM_TTL_MS = 10_000;
const CLAIM_WAIT_MS = 5_000;

/** How often an insert may meet the unique index before we give up (it should never happen twice). */
const MAX_NUMBER_ATTEMPTS = 5;

/** An Undo that would put a number back on the floor after it was handed to another open order. */
const numberReissued = (order: Order) =>
  new AppError("CONFLICT", {
    message: `Number ${displayNumber(order.prefix, order.number)} has been given to another order since: order ${order.id} cannot be open again`,
    userMessage: `Number ${displayNumber(order.prefix, order.number)} has been given to another order since; it cannot be put back.`,
    details: { number: order.number, display: displayNumber(order.prefix, order.number) },
    reason: "numberReissued",
  });

export type PlaceOrderOptions = {
  /** Default channel when the input names none. */
  channel: string;
  /**
   * Print the ticket on the restaurant's network printer (unless the order says `"print": false`):
   * the device's own printer when it chose one, and the origin the customer's QR code opens.
   */
  print?: { device: string | null; origin: string };
} & (
  | { idempotencyKey?: null }
  | {
      idempotencyKey: string | null;
      /**
       * Whose key it is (an API key, a kiosk device): keys are unique per scope and business
       * day, so two integrators' `order-1001` are two orders (decision 0025).
       */
      idempotencyScope: string;
    }
);

export interface Placed {
  order: Order;
  /** False when an idempotent retry found the order already taken. */
  created: boolean;
  printer: string | null;
}

export class OrderService {
  constructor(private readonly deps: OrderServiceDeps) {}

  /** Takes an order; `printer` is the printer its ticket was queued on (null: none, or a replay). */
  async place(tenant: Tenant, input: unknown, opts: PlaceOrderOptions): Promise<Placed> {
    // No body at all is a bare number; a body of `null` is not an order and is refused.
    const data = parseOrThrow(newOrderSchema, input === undefined ? {} : input, "order");
    const key = opts.idempotencyKey == null ? null : parseOrThrow(idempotencyKeySchema, opts.idempotencyKey, "Idempotency-Key", "Idempotency-Key");
    const scope = "idempotencyScope" in opts ? opts.idempotencyScope : null;
    const { issuer, orders } = this.deps;

    const channel = data.channel ?? opts.channel;
    // The series is chosen before anything is drawn: an unknown name is a 400 that spends nothing.
    const series = seriesFor(seriesOf(tenant), { series: data.series ?? null, channel: channel as Channel });
    const requestHash = key ? orderFingerprint(data, channel) : null;
    const replay = (existing: Order) => {
      if (existing.requestHash && existing.requestHash !== requestHash) {
        throw new AppError("CONFLICT", {
          message: `Idempotency-Key ${key} reused with a different order`,
          userMessage: "This Idempotency-Key was already used for a different order. Use a new key for a new order.",
        });
      }
      return { order: existing, created: false, printer: null };
    };

    if (key) {
      // The types rule this out; a caller that slips through must not share keys with everyone.
      if (scope === null) throw new AppError("INTERNAL", { message: "An idempotency key came without its caller's scope" });
      const day = issuer.today(tenant);
      const existing = await orders.findByIdempotencyKey(tenant.id, day, scope, key);
      if (existing) return replay(existing);
      // A retry racing its own first attempt waits for that attempt's order instead of
      // drawing a second number.
      if (!(await this.deps.claims.claim(tenant.id, day, scope, key, CLAIM_TTL_MS))) {
        const deadline = Date.now() + CLAIM_WAIT_MS;
        while (Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 25));
          const first = await orders.findByIdempotencyKey(tenant.id, day, scope, key);
          if (first) return replay(first);
        }
        // The first attempt failed or is stuck: go ahead (the unique index still decides).
      }
      try {
        return await this.insertWithNumber(tenant, data, channel, series, { key, scope }, requestHash, replay, opts.print);
      } catch (e) {
        await this.deps.claims.release(tenant.id, day, scope, key).catch(() => {});
        throw e;
      }
    }
    return this.insertWithNumber(tenant, data, channel, series, null, null, replay, opts.print);
  }

  /** Where this order's ticket prints, decided before a number is drawn; null: nowhere. */
  private async printRequest(
    tenant: Tenant,
    data: NewOrder,
    channel: string,
    seriesId: string | null,
    print: PlaceOrderOptions["print"],
  ): Promise<PrintRequest | null> {
    if (!print || data.print === false || !this.deps.printing) return null;
    const chosen = await this.deps.printing.printerFor(tenant, { channel, seriesId }, print.device);
    return chosen && { printerId: chosen.printerId, urlOf: (orderId) => `${print.origin}${trackPath(tenant, orderId)}` };
  }

  private async insertWithNumber(
    tenant: Tenant,
    data: NewOrder,
    channel: string,
    series: Series,
    key: { key: string; scope: string } | null,
    requestHash: string | null,
    replay: (existing: Order) => Placed,
    print: PlaceOrderOptions["print"],
  ): Promise<Placed> {
    const { issuer, orders, events, log, metrics } = this.deps;
    // Menu lines are checked (and their names copied) before a number is drawn: a refused
    // order spends no number.
    const items = await this.resolveItems(tenant, data.items);
    const monotonic = this.deps.monotonic ?? (() => performance.now());
    const seriesId = series.isDefault ? null : series.id;
    const printTo = await this.printRequest(tenant, data, channel, seriesId, print);
    const open = new OpenNumberSkips(series, () => orders.openNumbers(tenant.id, series.prefix), tenant.slug);
    for (let attempt = 1; ;) {
      const started = monotonic();
      // The default series counts numbers; another series counts tickets, each showing a number of its range.
      const issued = await issuer.issue(tenant, seriesId);
      metrics.numberIssued(issued.source, (monotonic() - started) / 1000);
      const number = seriesId === null ? issued.number : numberOfTicket(series, issued.number);
      if (open.holds(number)) {
        await open.skip();
        continue;
      }
      try {
        const order = await orders.insert(
          {
            items,
            note: data.note,
            tenantId: tenant.id,
            businessDay: issued.businessDay,
            shift: issued.shift,
            number,
            prefix: series.prefix,
            seriesId,
            seriesName: seriesId === null ? null : series.name,
            ticket: seriesId === null ? null : issued.number,
            channel,
            idempotencyKey: key?.key ?? null,
            idempotencyScope: key?.scope ?? null,
            requestHash,
          },
          orderCreated(tenant),
          printTo,
        );
        metrics.orderPlaced(channel);
        log.info(
          {
            tenant: tenant.slug,
            orderId: order.id,
            businessDay: order.businessDay,
            shift: order.shift,
            number: order.number,
            display: displayNumber(order.prefix, order.number),
            channel,
          },
          "order placed",
        );
        events.orderCreated(tenant, toBoardOrder(order));
        // A ticket more waits for its printer: kiosks and the console show the count.
        if (printTo) events.printersChanged(tenant);
        return { order, created: true, printer: printTo?.printerId ?? null };
      } catch (e) {
        if (e instanceof DuplicateIdempotencyKeyError && key) {
          // A concurrent retry with the same key won the race; its order is the answer.
          // The number we drew stays unused (a gap, never a duplicate).
          metrics.uniqueViolation("idempotencyKey");
          const winner = await orders.findByIdempotencyKey(tenant.id, issued.businessDay, key.scope, key.key);
          if (winner) return replay(winner);
        }
        if (e instanceof NumberOpenError) {
          // An open order of an earlier shift or day shows this number: never a twin on the board.
          metrics.uniqueViolation("openNumber");
          await open.refused(e.number);
          continue;
        }
        if (e instanceof DuplicateNumberError) {
          // The last line of defence: the counter handed out a number already stored.
          // The database refused it; draw another one transparently.
          metrics.duplicateNumber(tenant);
          metrics.uniqueViolation("number");
          await issuer.distrust(tenant, issued, seriesId);
          log.error(
            { tenant: tenant.slug, businessDay: e.businessDay, shift: e.shift, number: e.number, attempt },
            "counter issued a number that is already stored; issuing another",
          );
          if (attempt++ < MAX_NUMBER_ATTEMPTS) continue;
          throw new AppError("UNAVAILABLE", {
            message: `Gave up after ${attempt} duplicate numbers for ${tenant.slug}`,
            userMessage: "Could not issue a unique number right now. Please try again.",
            cause: e,
          });
        }
        throw e;
      }
    }
  }

  private async resolveItems(tenant: Tenant, lines: NewOrder["items"]): Promise<OrderItem[]> {
    const ids = [...new Set(lines.flatMap((l) => (l.menuItemId !== undefined ? [l.menuItemId] : [])))];
    const known = ids.length === 0 || !this.deps.menu ? [] : await this.deps.menu.findItems(tenant.id, ids);
    return resolveOrderLines(lines, known);
  }

  async get(tenant: Tenant, id: string): Promise<Order> {
    const order = isUuid(id) ? await this.deps.orders.findById(tenant.id, id) : null;
    if (!order) throw new AppError("NOT_FOUND", { message: `No order ${id} for ${tenant.slug}`, userMessage: "Order not found.", reason: "orderNotFound" });
    return order;
  }

  async changeStatus(tenant: Tenant, id: string, input: unknown): Promise<Order> {
    const { status } = parseOrThrow(statusChangeSchema, input, "status change");
    // Two kitchen screens may race; the conditional update makes the loser re-read.
    for (let attempt = 0; attempt < 3; attempt++) {
      const current = await this.get(tenant, id);
      if (current.clearedAt) throw clearedOrder(current);
      assertTransition(current.status, status);
      if (current.status === status) return current;
      const updated = await this.deps.orders
        .updateStatus(tenant.id, id, current.status, status, this.deps.clock.now(), orderMoved(tenant))
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
    throw new AppError("CONFLICT", {
      message: `Order ${id} keeps changing`,
      userMessage: "This order was changed by someone else. Please retry.",
      reason: "orderKeepsChanging",
    });
  }

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
  private async openFloor(tenant: Tenant): Promise<{ day: string; shift: number; open: Order[] }> {
    const day = this.deps.issuer.today(tenant);
    const [shift, open] = await Promise.all([this.deps.shifts.currentShift(tenant.id, day), this.openOrders(tenant)]);
    return { day, shift, open };
  }

  /**
   * The open orders, oldest first. Orders forgotten for good (open for FORGOTTEN_AFTER_HOURS)
   * are cleared here, as they are met, audited and announced to the screens: no job to run,
   * and a conditional update lets one node do each.
   */
  private async openOrders(tenant: Tenant): Promise<Order[]> {
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
  async floor(tenant: Tenant): Promise<{ businessDay: string; shift: number; open: Order[]; recentlyCollected: Order[] }> {
    const day = this.deps.issuer.today(tenant);
    const [{ shift, open }, recentlyCollected] = await Promise.all([
      this.openFloor(tenant),
      this.deps.orders.listRecentlyCollected(tenant.id, day, RECENTLY_COLLECTED),
    ]);
    return { businessDay: day, shift, open, recentlyCollected };
  }

  /**
   * The cook typed a number (`K12`, `k12`, `12`): that open order moves one step forward
   * (PLACED → READY → COLLECTED). `12` that two open orders show (12 and K12, K12 and D12)
   * moves neither: the 409 lists them, and the screen asks which.
   */
  async advanceByNumber(tenant: Tenant, input: unknown): Promise<Order> {
    const { number: typed } = parseOrThrow(typedNumberSchema, input, "order number");
    const { day, shift, open } = await this.openFloor(tenant);
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
    return this.changeStatus(tenant, match.order.id, { status: nextStep(match.order.status)! });
  }

  /**
   * "Call again": every board of the tenant calls this ready number once more, and shows it
   * again for readyClearMinutes (an order that had left the board comes back to it).
   */
  async callAgain(tenant: Tenant, id: string): Promise<Order> {
    const read = await this.get(tenant, id);
    const callable = read.status === "READY" && !read.clearedAt;
    const again = callable ? await this.deps.orders.readyAgain(tenant.id, id, this.deps.clock.now()) : null;
    if (!again) {
      // Refused though it looked callable: it changed meanwhile (cleared, collected); say why from what it is now.
      const order = callable ? await this.get(tenant, id) : read;
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

  /** The customer's page: the order, and the keys of the orders still being prepared ahead of it. */
  async track(tenant: Tenant, id: string): Promise<{ order: Order; aheadKeys: string[] }> {
    const order = await this.get(tenant, id);
    if (!isOpen(order.status) || order.clearedAt) return { order, aheadKeys: [] };
    const open = await this.openOrders(tenant);
    return { order, aheadKeys: aheadKeys(open.map(toBoardOrder), toBoardOrder(order)) };
  }
}

/** An order cleared off the floor stays as it was: no screen shows it, so nothing may move or call it. */
function clearedOrder(order: Order): AppError {
  return new AppError("CONFLICT", {
    message: `Order ${order.id} was cleared off the floor`,
    userMessage: `Number ${displayNumber(order.prefix, order.number)} was cleared off the floor and can no longer be changed.`,
    reason: "orderCleared",
    details: { number: order.number, display: displayNumber(order.prefix, order.number), clearedAt: order.clearedAt?.toISOString() ?? null },
  });
}

/** How many collected orders the kitchen can recall. */
export const RECENTLY_COLLECTED = 20;

/** A typed number: `12` (a JSON number or text), `K12` or `k12`; 1–99999999 (MAX_SERIES_NUMBER). */
const typedNumberSchema = z.strictObject({
  number: z.union([z.number(), z.string()], { error: "Type an order number" }).transform((v, ctx) => {
    const typed = parseTypedNumber(String(v));
    if (!typed) ctx.addIssue({ code: "custom", message: "Type an order number as shown, e.g. 12 or K12 (1 to 99999999)" });
    return typed ?? { prefix: null, number: 0 };
  }),
});

/**
 * A fingerprint of what was ordered (after validation), stored with an idempotency key:
 * a retry with the same key must carry the same order.
 */
function orderFingerprint(order: NewOrder, channel: string): string {
  // Menu lines by id (not by the name they resolve to): a retry after a rename still matches.
  const canonical = JSON.stringify({
    items: order.items.map((i) => (i.menuItemId !== undefined ? [{ menuItemId: i.menuItemId }, i.qty] : [i.name, i.qty])),
    note: order.note ?? null,
    channel,
    // Only when named: an order without one hashes as it did before series (stored hashes still match).
    ...(order.series !== undefined ? { series: order.series.toLocaleLowerCase("en") } : {}),
  });
  return createHash("sha256").update(canonical).digest("hex");
}
