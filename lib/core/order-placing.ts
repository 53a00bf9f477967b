/**
 * Taking an order: validate → issue a number → store → broadcast. The number is returned
 * only once the order is stored; an idempotent retry gets the first attempt's order, and a
 * number the database refuses is skipped (still open) or its counter block distrusted
 * (repeated), then another drawn.
 */
import { createHash } from "node:crypto";
import { AppError } from "./errors";
import { idempotencyKeySchema, newOrderSchema, parseOrThrow, serviceOf, toBoardOrder, type NewOrder, type Order, type OrderItem } from "./orders";
import { DuplicateIdempotencyKeyError, DuplicateNumberError, NumberOpenError, type PrintRequest } from "./ports";
import type { Tenant } from "./tenants";
import { resolveOrderLines } from "./menu";
import { routeLines, type OrderPart } from "./stations";
import { chitsFor } from "./printing/chit";
import { orderCreated } from "./webhooks/events";
import { displayNumber, numberOfTicket, seriesFor, seriesOf, type Channel, type Series } from "./series";
import { OpenNumberSkips } from "./open-number-skips";
import { trackPath } from "./order-json";
import type { OrderServiceDeps } from "./order-common";

/** How long a claim on an idempotency key lasts, and how long a concurrent retry waits for the first attempt's order. */
const CLAIM_TTL_MS = 10_000;
const CLAIM_WAIT_MS = 5_000;

/** How often an insert may meet the unique index before we give up (it should never happen twice). */
const MAX_NUMBER_ATTEMPTS = 5;

export type PlaceOrderOptions = {
  /** Default channel when the input names none. */
  channel: string;
  /** Who takes it (Caller.by: a person's name, a shared code's role label, an API key's label); null: no one named. */
  by: string | null;
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

export class OrderPlacing {
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
        return await this.insertWithNumber(tenant, data, channel, series, { key, scope }, requestHash, replay, opts);
      } catch (e) {
        await this.deps.claims.release(tenant.id, day, scope, key).catch(() => {});
        throw e;
      }
    }
    return this.insertWithNumber(tenant, data, channel, series, null, null, replay, opts);
  }

  /**
   * Where this order's ticket and its stations' chits print, decided before a number is
   * drawn; null: nowhere. A chit is kitchen work: it prints whatever `"print"` says (that
   * flag is about the customer's ticket).
   */
  private async printRequest(
    tenant: Tenant,
    data: NewOrder,
    channel: string,
    seriesId: string | null,
    print: PlaceOrderOptions["print"],
    parts: readonly OrderPart[],
  ): Promise<PrintRequest | null> {
    if (!this.deps.printing) return null;
    const chits = chitsFor(tenant.stations ?? [], parts);
    const chosen = !print || data.print === false ? null : await this.deps.printing.printerFor(tenant, { channel, seriesId }, print.device);
    const ticket = chosen && { printerId: chosen.printerId, urlOf: (orderId: string) => `${print!.origin}${trackPath(tenant, orderId)}` };
    return ticket || chits.length > 0 ? { ticket, chits } : null;
  }

  private async insertWithNumber(
    tenant: Tenant,
    data: NewOrder,
    channel: string,
    series: Series,
    key: { key: string; scope: string } | null,
    requestHash: string | null,
    replay: (existing: Order) => Placed,
    { print, by }: Pick<PlaceOrderOptions, "print" | "by">,
  ): Promise<Placed> {
    const { issuer, orders, events, log, metrics } = this.deps;
    // Menu lines are checked (and their names copied) before a number is drawn: a refused
    // order spends no number.
    const { items, parts } = await this.resolveItems(tenant, data.items, channel);
    const monotonic = this.deps.monotonic ?? (() => performance.now());
    const seriesId = series.isDefault ? null : series.id;
    const printTo = await this.printRequest(tenant, data, channel, seriesId, print, parts);
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
            placedBy: by,
            stations: parts,
            service: serviceOf(data.service, tenant.floor),
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
        // A ticket or chit more waits for its printer: kiosks and the console show the count.
        if (printTo) events.printersChanged(tenant);
        return { order, created: true, printer: printTo?.ticket?.printerId ?? null };
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

  /** The order's lines as stored, each with the station that makes it, and the parts that gives (none without stations). */
  private async resolveItems(tenant: Tenant, lines: NewOrder["items"], channel: string): Promise<{ items: OrderItem[]; parts: OrderPart[] }> {
    const ids = [...new Set(lines.flatMap((l) => (l.menuItemId !== undefined ? [l.menuItemId] : [])))];
    const known = ids.length === 0 || !this.deps.menu ? [] : await this.deps.menu.findItems(tenant.id, ids);
    const byId = new Map(known.map((i) => [i.id, { itemStationId: i.stationId, categoryStationId: i.categoryStationId }]));
    const acceptSoldOut = (tenant.floor.soldOutAcceptedFrom as readonly string[]).includes(channel);
    return routeLines(resolveOrderLines(lines, known, acceptSoldOut), tenant.stations ?? [], (id) => byId.get(id));
  }
}

/**
 * A fingerprint of what was ordered (after validation), stored with an idempotency key:
 * a retry with the same key must carry the same order.
 */
function orderFingerprint(order: NewOrder, channel: string): string {
  // Menu lines by id (not by the name they resolve to): a retry after a rename still matches.
  const canonical = JSON.stringify({
    // Options, a line's note and the service only when sent: older orders' stored hashes still match.
    items: order.items.map((i) => {
      const extra = { ...(i.options?.length ? { options: i.options } : {}), ...(i.note ? { note: i.note } : {}) };
      const line = i.menuItemId !== undefined ? [{ menuItemId: i.menuItemId }, i.qty] : [i.name, i.qty];
      return Object.keys(extra).length > 0 ? [...line, extra] : line;
    }),
    note: order.note ?? null,
    channel,
    // Only when named: an order without one hashes as it did before series (stored hashes still match).
    ...(order.series !== undefined ? { series: order.series.toLocaleLowerCase("en") } : {}),
    ...(order.service !== undefined ? { service: order.service } : {}),
  });
  return createHash("sha256").update(canonical).digest("hex");
}
