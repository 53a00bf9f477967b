/** Where orders are stored (PostgreSQL), the claims on idempotency keys (Redis), and what their unique indexes raise. */
import type { BusinessDay } from "../business-day";
import type { NewOrder, Order, OrderItem, OrderMove, OrderStatus, Service } from "../orders";
import type { Emits } from "../webhooks/events";
import type { PrintRequest } from "./printing";
import type { OrderPart } from "../stations";

/**
 * Raised by an OrderRepository when the unique (tenant, day, shift, number) index of the
 * default series refuses a row, or (tenant, day, shift, series, ticket) of another series:
 * `number` is then the ticket.
 */
export class DuplicateNumberError extends Error {
  constructor(
    readonly businessDay: BusinessDay,
    readonly shift: number,
    readonly number: number,
  ) {
    super(`Number ${number} already stored for shift ${shift} of ${businessDay}`);
    this.name = "DuplicateNumberError";
  }
}

/**
 * Raised by an OrderRepository when an open order (of any shift or day) already shows the
 * number: the index over open numbers refused the row (decision 0027).
 */
export class NumberOpenError extends Error {
  constructor(
    readonly number: number,
    readonly prefix: string = "",
  ) {
    super(`Number ${prefix}${number} is still open`);
    this.name = "NumberOpenError";
  }
}

/** Raised by an OrderRepository when another request stored the same idempotency key first. */
export class DuplicateIdempotencyKeyError extends Error {
  constructor(readonly idempotencyKey: string) {
    super(`Idempotency key already used`);
    this.name = "DuplicateIdempotencyKeyError";
  }
}

export interface OrderRecord extends Omit<NewOrder, "channel" | "items" | "series" | "service"> {
  /** Menu lines already resolved to names (lib/core/menu.ts resolveOrderLines). */
  items: OrderItem[];
  tenantId: string;
  businessDay: BusinessDay;
  shift: number;
  number: number;
  channel: string;
  idempotencyKey: string | null;
  /** The caller the key belongs to (set whenever a key is). */
  idempotencyScope: string | null;
  requestHash: string | null;
  /** The series it is numbered in (decision 0027): null and "" for the default series. */
  seriesId: string | null;
  seriesName: string | null;
  prefix: string;
  /** The series' ticket the number came from; null in the default series. */
  ticket: number | null;
  /** Who took it (Caller.by); null: no one named. */
  placedBy: string | null;
  /** Its parts, one per station with lines of it (issue #40); absent or []: no stations. */
  stations?: OrderPart[];
  /** Eat in or take away; absent or null: not stated. */
  service?: Service | null;
}

/** A collected order as the kitchen recalls it: who collected it (the latest move to COLLECTED; null: none stored or no one named). */
export type CollectedOrder = Order & { collectedBy: string | null };

/**
 * `emits` (optional) gives the webhook events of a change from the row as stored: they are
 * written in the same transaction as the change (the outbox), so none is lost or invented.
 */
export interface OrderRepository {
  /** Stores a new order; with `print`, its print job in the same transaction (decision 0029). */
  insert(record: OrderRecord, emits?: Emits<Order>, print?: PrintRequest | null): Promise<Order>;
  findById(tenantId: string, id: string): Promise<Order | null>;
  /**
   * The order `scope` took on `day` with `key`; else one taken with `key` before keys were
   * scoped (no scope: a node of the release before, decision 0025), whoever sent it.
   */
  findByIdempotencyKey(tenantId: string, day: BusinessDay, scope: string, key: string): Promise<Order | null>;
  listShift(tenantId: string, day: BusinessDay, shift: number, statuses?: readonly OrderStatus[]): Promise<Order[]>;
  /**
   * Open (PLACED/READY, not cleared) orders of every business day and shift, oldest first:
   * what the floor shows. Neither a new day nor a changed day rule takes one off it.
   */
  listOpen(tenantId: string): Promise<Order[]>;
  /** How many orders listOpen would return. */
  countOpen(tenantId: string): Promise<number>;
  /** Whether an open order (of any day and shift) shows `prefix` + `number`: one indexed row, for the board's voice. */
  holdsOpen(tenantId: string, number: number, prefix?: string): Promise<boolean>;
  /** The numbers open orders (of any day and shift, not cleared) show with `prefix`: what a new number must skip. */
  openNumbers(tenantId: string, prefix?: string): Promise<Set<number>>;
  /** The last `limit` orders of a business day moved to COLLECTED, most recent first, each with who collected it. */
  listRecentlyCollected(tenantId: string, day: BusinessDay, limit: number): Promise<CollectedOrder[]>;
  /** The stored moves of order `id`, oldest first (taking the order is none: it is the order's createdAt and placedBy). */
  moves(tenantId: string, id: string): Promise<OrderMove[]>;
  /** Stamps a ready (not cleared) order ready again at `at`; null when it is not ready any more. */
  readyAgain(tenantId: string, id: string, at: Date): Promise<Order | null>;
  /**
   * Clears the open orders taken before shift `beforeShift` of `day` (earlier days included);
   * returns how many. `emits` is applied to each cleared order, in the clearing's transaction.
   */
  clearOpen(tenantId: string, day: BusinessDay, beforeShift: number, at: Date, emits?: Emits<Order>): Promise<number>;
  /**
   * Clears the open orders taken more than `hours` ago by the database's clock; returns them
   * as cleared. `emits` is applied to each cleared order, in the clearing's transaction.
   */
  clearForgotten(tenantId: string, hours: number, at: Date, emits?: Emits<Order>): Promise<Order[]>;
  /**
   * Moves an order from `from` to `to` only if it still has status `from` and is not
   * cleared, decided by the write itself (no lost updates between two kitchen screens, no
   * move of an order a clear took off the floor meanwhile); returns null when it did not.
   * The move is stored with `at` and `by` (who moved it) by the same write: no move without
   * its entry in the order's history, no entry without its move.
   */
  updateStatus(tenantId: string, id: string, from: OrderStatus, to: OrderStatus, at: Date, by: string | null, emits?: Emits<Order>): Promise<Order | null>;
  /**
   * A station's Done or Undo (issue #40): the order's parts become `parts.to` only if they are
   * still `parts.from` and its status is still `status.from`, decided by one write (two stations
   * of two nodes at once: one wins, the other gets null and re-reads). When `status.to` differs
   * it is a move like updateStatus (its history entry, pushes and `emits` written with it).
   */
  updateParts(
    tenantId: string,
    id: string,
    status: { from: OrderStatus; to: OrderStatus },
    parts: { from: readonly OrderPart[]; to: readonly OrderPart[] },
    at: Date,
    by: string | null,
    emits?: Emits<Order>,
  ): Promise<Order | null>;
}

/**
 * Claims on idempotency keys, so that concurrent retries of one order do not each draw a
 * number. Best effort: when the store is unavailable every caller gets the claim (the
 * unique index still makes one order win; the others' numbers are skipped).
 */
export interface IdempotencyClaims {
  /** True when this caller holds (tenant, day, scope, key) now, for at most `ttlMs`. */
  claim(tenantId: string, day: BusinessDay, scope: string, key: string, ttlMs: number): Promise<boolean>;
  release(tenantId: string, day: BusinessDay, scope: string, key: string): Promise<void>;
}
