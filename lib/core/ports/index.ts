/**
 * What the core needs from the outside world. Adapters (lib/adapters/*) implement these;
 * the core never imports an adapter.
 */
import type { BusinessDay } from "../business-day";
import type { BoardOrder, NewOrder, Order, OrderItem, OrderStatus } from "../orders";
import type { Block } from "../numbering";
import type { Tenant } from "../tenants";
import type { Emits } from "../webhooks/events";
import type { DayShift, DaySkip } from "../schedule";

export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** The stores behind the ports. */
export type Store = "database" | "redis";

/** Marks UnavailableErrors across module copies (Next.js bundles its own copy of lib/core), as AppError's mark does. */
const UNAVAILABLE = Symbol.for("nextup.UnavailableError");

/**
 * Raised by an adapter when its store cannot be reached (refused, reset, timed out, shut
 * down, out of connections): the request may be retried later, and the edges answer 503.
 */
export class UnavailableError extends Error {
  readonly [UNAVAILABLE] = true;
  constructor(
    readonly store: Store,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "UnavailableError";
  }
}

export function isUnavailableError(e: unknown): e is UnavailableError {
  return typeof e === "object" && e !== null && (e as { [UNAVAILABLE]?: unknown })[UNAVAILABLE] === true;
}

/** Raised by an OrderRepository when the unique (tenant, day, shift, number) index refuses a row. */
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

/** Raised by an OrderRepository when another request stored the same idempotency key first. */
export class DuplicateIdempotencyKeyError extends Error {
  constructor(readonly idempotencyKey: string) {
    super(`Idempotency key already used`);
    this.name = "DuplicateIdempotencyKeyError";
  }
}

export interface OrderRecord extends Omit<NewOrder, "channel" | "items"> {
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
}

/**
 * `emits` (optional) gives the webhook events of a change from the row as stored: they are
 * written in the same transaction as the change (the outbox), so none is lost or invented.
 */
export interface OrderRepository {
  insert(record: OrderRecord, emits?: Emits<Order>): Promise<Order>;
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
  /** Whether an open order (of any day and shift) has `number`: one indexed row, for the board's voice. */
  holdsOpen(tenantId: string, number: number): Promise<boolean>;
  /** The last `limit` orders of a business day moved to COLLECTED, most recent first. */
  listRecentlyCollected(tenantId: string, day: BusinessDay, limit: number): Promise<Order[]>;
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
   * Moves an order from `from` to `to` only if it still has status `from` (no lost
   * updates between two kitchen screens); returns null when it did not.
   */
  updateStatus(tenantId: string, id: string, from: OrderStatus, to: OrderStatus, at: Date, emits?: Emits<Order>): Promise<Order | null>;
}

export interface ShiftInfo {
  businessDay: BusinessDay;
  shift: number;
  firstNumber: number;
  startedAt: Date;
  startedBy: string;
  reason: string | null;
}

/**
 * A scheduled start carried a leadership term older than the current one: another node
 * became the scheduler's leader since (docs/decisions/0010). The caller must step down.
 */
export class StaleLeaderError extends Error {
  constructor(
    readonly term: number,
    readonly currentTerm: number,
  ) {
    super(`Scheduler term ${term} is stale (current: ${currentTerm})`);
    this.name = "StaleLeaderError";
  }
}

/** The unique (tenant, day, slot) index refused a scheduled start: that slot has its shift. */
export class SlotAlreadyStartedError extends Error {
  constructor(
    readonly businessDay: BusinessDay,
    readonly slot: string,
  ) {
    super(`Slot ${slot} of ${businessDay} already started a shift`);
    this.name = "SlotAlreadyStartedError";
  }
}

/** A start asked for by the schedule: which slot, when it fired, under which leadership term. */
export interface ScheduledStart {
  slot: string;
  slotAt: Date;
  term: number;
}

/** Why a scheduled start did not happen: the slot has its shift, or a shift was started since the slot's time. */
export type ScheduleSkip = "slotStarted" | "shiftSince";

/** How a shift starts: who and why, its first number, its guard and block, the schedule's slot, its webhook events. */
export interface StartShiftOptions {
  startedBy: string;
  reason: string | null;
  firstNumber: number;
  ifCurrentShift?: number;
  blockSize: number;
  scheduled?: ScheduledStart;
  emits?: Emits<ShiftInfo>;
}

export interface ShiftRepository {
  /** The current shift of `day` (1 when no manager started one). */
  currentShift(tenantId: string, day: BusinessDay): Promise<number>;
  /**
   * Records shift `current + 1` of `day` with its first block of numbers (reserved in the
   * ledger, starting at `firstNumber`) and runs `commit(shift, block)` before the record is
   * committed; `commit` answers whether the block is in use (if not, it is given back); if
   * it throws, nothing is recorded. Concurrent calls are serialized.
   * When `ifCurrentShift` is given and the day has already moved past it, nothing is
   * started and the latest shift is returned with `created: false`.
   * With `scheduled`, the start is refused with StaleLeaderError unless `term` is the
   * current scheduler term (checked in the same transaction), and skipped (`created: false`
   * with `skipped`) when the slot already has its shift or any shift of the day was started
   * at or after `slotAt`; SlotAlreadyStartedError if the unique index catches a race.
   * `emits`: the new shift's webhook events, written in its transaction.
   */
  startShift(
    tenantId: string,
    day: BusinessDay,
    opts: StartShiftOptions,
    commit: (shift: ShiftInfo, firstBlock: Block) => Promise<boolean>,
  ): Promise<{ shift: ShiftInfo; created: boolean; skipped?: ScheduleSkip }>;
  /**
   * Writes the audit entry `entry` for a skipped slot, once: false (nothing written) when the
   * slot has its shift or its skip is already recorded. StaleLeaderError as startShift.
   */
  recordScheduleSkip(
    tenantId: string,
    day: BusinessDay,
    scheduled: ScheduledStart,
    entry: { actor: string; details: Record<string, unknown> },
  ): Promise<boolean>;
  /** The shifts of `day` (with the slot that started each) and the slots recorded as skipped: what the overview merges. */
  scheduleRecord(tenantId: string, day: BusinessDay): Promise<{ shifts: DayShift[]; skips: DaySkip[] }>;
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

export interface EventPublisher {
  orderCreated(tenant: Tenant, order: BoardOrder): void;
  orderUpdated(tenant: Tenant, order: BoardOrder): void;
  /** Staff asked every board of the tenant to call this (ready) number again. */
  orderCalled(tenant: Tenant, order: BoardOrder): void;
  shiftStarted(tenant: Tenant, shift: { businessDay: BusinessDay; shift: number; startedAt: string }): void;
  /** The restaurant's settings changed: open screens re-read what they use of them. */
  settingsChanged(tenant: Tenant): void;
  /** The menu changed (an item sold out, a new dish, a price): open kiosks re-read it. */
  menuChanged(tenant: Tenant): void;
}

/** What the core reports for Prometheus (lib/server/ops/metrics.server.ts); counts and timings only. */
export interface Metrics {
  duplicateNumber(tenant: Tenant): void;
  /** One order's number took `seconds` to issue, from Redis's blocks or straight from PostgreSQL. */
  numberIssued(source: "redis" | "database", seconds: number): void;
  /** An order was stored (a replayed idempotent retry is not counted). */
  orderPlaced(channel: string): void;
  /** An order moved to `status`. */
  orderStatusChanged(status: OrderStatus): void;
  /** The unique index refused an order insert and it was handled: another number drawn, or a concurrent twin's order answered. */
  uniqueViolation(index: "number" | "idempotencyKey"): void;
}
