/**
 * The core's ports in memory, for unit tests of its rules (NumberIssuer, OrderService,
 * ShiftService) without Redis or PostgreSQL. Each fake keeps the contract its port
 * documents in lib/core/ports/, as the real adapters do; the adapters
 * themselves are tested on the real stores in tests/integration/counter*.test.ts.
 *
 * `MemoryCounter` follows lua/issue-numbers-n.lua, install-block-1.lua and burn-block-1.lua
 * one call at a time (no batching): a current block, one block in reserve, and a refill
 * lease. Faults are switches: `down` (unreachable), `failCalls` (calls that fail before the
 * breaker opens), `forgetful` (every block it is given is lost at once, as an evicting Redis
 * would), `forget()` (a restart that lost the key).
 */
import type { OptionGroup } from "@/lib/core/menu-options";
import type { OrderPart } from "@/lib/core/stations";
import { randomUUID } from "node:crypto";
import type { BusinessDay } from "@/lib/core/business-day";
import type { AuditEntry } from "@/lib/core/audit";
import type { MenuItem, OrderableItem } from "@/lib/core/menu";
import { LOW_WATER, NumberIssuer, REFILL_LEASE_MS, type IssuerHooks } from "@/lib/core/numbering";
import { OrderService } from "@/lib/core/order-service";
import { isOpen, lastMoveBy, type Order, type OrderMove, type OrderStatus } from "@/lib/core/orders";
import {
  DuplicateIdempotencyKeyError,
  DuplicateNumberError,
  NumberOpenError,
  UnavailableError,
  type EventPublisher,
  type IdempotencyClaims,
  type Metrics,
  type OrderRecord,
  type OrderRepository,
  type ShiftRepository,
  type StartShiftOptions,
  type AuditLog,
  type CollectedOrder,
  type MenuCatalog,
  CounterUnavailableError,
  type Block,
  type Clock,
  type CounterLedger,
  type FastCounter,
  type FastIssue,
  type IssuedNumber,
  type CounterId,
  counterName,
  tenantOfCounter,
} from "@/lib/core/ports";
import { ShiftService } from "@/lib/core/shift-service";
import type { Tenant } from "@/lib/core/tenants";
import type { ShiftInfo } from "@/lib/core/shifts";
import type { Emits, OutboxEvent } from "@/lib/core/webhooks/events";

/** A tenant of the tests: Berlin, business day from 04:00. */
export function memoryTenant(slug = "t1"): Tenant {
  return {
    id: randomUUID(),
    slug,
    name: slug.toUpperCase(),
    timeZone: "Europe/Berlin",
    dayStartMinutes: 240,
    floor: {
      language: null,
      readyClearMinutes: 10,
      ageWarnMinutes: 10,
      ageLateMinutes: 20,
      currency: null,
      kioskNumberOnly: false,
      printGiveUpMinutes: 10,
      readyWhen: "parts",
      askService: "off",
      defaultService: "eatIn",
      soldOutAcceptedFrom: [],
    },
    schedule: [],
  };
}

/** A ceiling's key: the counter (a tenant's default series, or one of its series), the day, the shift. */
const dayShift = (counter: CounterId, day: BusinessDay, shift: number) => `${counterName(counter)}|${day}|${shift}`;

/** What PostgreSQL holds for the core: ceilings, shifts and orders. */
export class MemoryDatabase {
  readonly ceilings = new Map<string, number>();
  readonly shifts: (ShiftInfo & { tenantId: string })[] = [];
  readonly orders: Order[] = [];
  /** OrderEvent: every stored move, in the order written (the move and its event are one write). */
  readonly moves: (OrderMove & { orderId: string })[] = [];
  /** The webhook events the changes emitted (the outbox rows a real repository writes with them). */
  readonly outbox: OutboxEvent[] = [];
  /** While true, every call fails as an unreachable database does. */
  down = false;

  check(): void {
    if (this.down) throw new UnavailableError("database", "in-memory database is down");
  }

  currentShift(tenantId: string, day: BusinessDay): number {
    return Math.max(1, ...this.shifts.filter((s) => s.tenantId === tenantId && s.businessDay === day).map((s) => s.shift));
  }

  /** Adds `size` to the ceiling of (day, shift): the block (old, new]. */
  raise(counter: CounterId, day: BusinessDay, shift: number, size: number, floor = 0): Block {
    const key = dayShift(counter, day, shift);
    const before = this.ceilings.get(key) ?? 0;
    const hi = Math.max(before, floor) + size;
    this.ceilings.set(key, hi);
    return { businessDay: day, shift, lo: hi - size, hi, ...(before < floor ? { ceilingBehind: floor - before } : {}) };
  }

  /** A failover to a standby that missed the last writes: the ceiling goes back to `to`. */
  forget(counter: CounterId, day: BusinessDay, shift: number, to: number): void {
    this.ceilings.set(dayShift(counter, day, shift), to);
  }

  ceiling(counter: CounterId, day: BusinessDay, shift: number): number {
    return this.ceilings.get(dayShift(counter, day, shift)) ?? 0;
  }
}

export type LedgerCall = { method: "reserve" | "reserveCurrent" | "issueDirect"; businessDay: BusinessDay; shift: number; lo: number; hi: number };

/** CounterLedger (ports/counter.ts) over MemoryDatabase, recording every block and number it hands out. */
export class MemoryLedger implements CounterLedger {
  readonly calls: LedgerCall[] = [];
  private held: Promise<void> | null = null;
  constructor(private readonly db: MemoryDatabase) {}

  /** Block reservations (`reserve`) hang until the returned function is called: a slow refill. */
  holdReserves(): () => void {
    let release!: () => void;
    this.held = new Promise((r) => (release = r));
    return () => {
      this.held = null;
      release();
    };
  }

  async reserve(counter: CounterId, day: BusinessDay, shift: number, size: number, floor = 0): Promise<Block> {
    if (this.held) await this.held;
    this.db.check();
    // A later shift of the day exists: the caller's view was stale.
    if (this.db.currentShift(tenantOfCounter(counter), day) > shift) return this.reserveCurrent(counter, day, size);
    return this.record("reserve", this.db.raise(counter, day, shift, size, floor));
  }

  async reserveCurrent(counter: CounterId, day: BusinessDay, size: number): Promise<Block> {
    this.db.check();
    return this.record("reserveCurrent", this.current(counter, day, size));
  }

  async issueDirect(counter: CounterId, day: BusinessDay): Promise<IssuedNumber> {
    this.db.check();
    const b = this.record("issueDirect", this.current(counter, day, 1));
    return { businessDay: b.businessDay, shift: b.shift, number: b.hi };
  }

  async highestStored(counter: CounterId, day: BusinessDay, shift: number): Promise<number> {
    this.db.check();
    const seriesId = typeof counter === "string" ? null : counter.seriesId;
    const counted = this.db.orders.filter(
      (o) => o.tenantId === tenantOfCounter(counter) && o.businessDay === day && o.shift === shift && o.seriesId === seriesId,
    );
    return Math.max(0, ...counted.map((o) => (seriesId === null ? o.number : o.ticket!)));
  }

  /** The current shift of `day`, or of the next day when the ledger already numbers it. */
  private current(counter: CounterId, day: BusinessDay, size: number): Block {
    const later = [...this.db.ceilings.keys()]
      .map((k) => k.split("|"))
      .filter(([c, d]) => c === counterName(counter) && d! > day)
      .map(([, d]) => d!)
      .sort();
    const target = later[0] ?? day;
    return this.db.raise(counter, target, this.db.currentShift(tenantOfCounter(counter), target), size);
  }

  private record(method: LedgerCall["method"], b: Block): Block {
    this.calls.push({ method, businessDay: b.businessDay, shift: b.shift, lo: b.lo, hi: b.hi });
    return b;
  }
}

interface CounterState {
  day: BusinessDay;
  shift: number;
  /** The current block is lo + 1 … max; `cur` was handed out last. */
  lo: number;
  max: number;
  cur: number;
  next: { lo: number; hi: number } | null;
  leaseUntil: number;
}

export type CounterCall = { method: "next" | "addBlock" | "restore" | "burn"; detail?: unknown };

/** FastCounter (ports/counter.ts) in memory, with the Lua scripts' rules and switchable faults. */
export class MemoryCounter implements FastCounter {
  private readonly state = new Map<string, CounterState>();
  /** The lease a caller holds to restore a missing counter, per tenant. */
  private readonly missingLease = new Map<string, number>();
  readonly calls: CounterCall[] = [];
  /** Unreachable: every call throws CounterUnavailableError and available() is false. */
  down = false;
  /** Loses every block it is given (as an evicting Redis would): accepts it, then forgets the counter. */
  forgetful = false;
  /** The next this many calls fail while available() still says yes (a breaker not yet open). */
  failCalls = 0;

  /** Redis restarted empty. */
  forget(counter: CounterId): void {
    this.state.delete(counterName(counter));
    this.missingLease.delete(counterName(counter));
  }

  /** The counter of a tenant as it stands (a copy), or undefined when missing. */
  peek(counter: CounterId): Readonly<CounterState> | undefined {
    const s = this.state.get(counterName(counter));
    return s && { ...s, next: s.next && { ...s.next } };
  }

  available(): boolean {
    return !this.down;
  }

  private reach(method: CounterCall["method"], detail?: unknown): void {
    this.calls.push({ method, detail });
    if (this.down) throw new CounterUnavailableError("in-memory counter is down");
    if (this.failCalls > 0) {
      this.failCalls--;
      throw new CounterUnavailableError("in-memory counter call failed");
    }
  }

  async next(counter: CounterId, today: BusinessDay, nowMs: number): Promise<FastIssue> {
    this.reach("next", today);
    const tenantId = counterName(counter);
    let s = this.state.get(tenantId);
    if (!s) {
      // One caller restores; the others wait for it.
      const lease = (this.missingLease.get(tenantId) ?? 0) <= nowMs;
      if (lease) this.missingLease.set(tenantId, nowMs + REFILL_LEASE_MS);
      return { kind: "missing", lease };
    }
    if (today > s.day) {
      // A newer day starts at shift 1 with no block.
      s = { day: today, shift: 1, lo: 0, max: 0, cur: 0, next: null, leaseUntil: 0 };
      this.state.set(tenantId, s);
    }
    if (s.cur >= s.max && s.next) {
      s.lo = s.cur = s.next.lo;
      s.max = s.next.hi;
      s.next = null;
    }
    if (s.cur >= s.max) {
      const lease = s.leaseUntil <= nowMs;
      if (lease) s.leaseUntil = nowMs + REFILL_LEASE_MS;
      return { kind: "empty", businessDay: s.day, shift: s.shift, lease, reached: s.max };
    }
    s.cur++;
    // The number that crosses the low-water mark asks for the next block, once.
    const left = s.max - s.cur;
    const refill = left === LOW_WATER - 1 && !s.next && s.leaseUntil <= nowMs;
    if (refill) s.leaseUntil = nowMs + REFILL_LEASE_MS;
    return { kind: "issued", issued: { businessDay: s.day, shift: s.shift, number: s.cur }, refill, reached: s.max };
  }

  async addBlock(counter: CounterId, b: Block): Promise<boolean> {
    this.reach("addBlock", b);
    return this.install(counterName(counter), b, "add");
  }

  async restore(counter: CounterId, b: Block): Promise<boolean> {
    this.reach("restore", b);
    return this.install(counterName(counter), b, "restore");
  }

  private install(tenantId: string, b: Block, mode: "add" | "restore"): boolean {
    const s = this.state.get(tenantId);
    let installed = false;
    if (!s || s.day !== b.businessDay || s.shift !== b.shift) {
      const behind = !s || b.businessDay > s.day || (b.businessDay === s.day && b.shift > s.shift);
      if (mode === "restore" && behind) {
        this.state.set(tenantId, { day: b.businessDay, shift: b.shift, lo: b.lo, max: b.hi, cur: b.lo, next: null, leaseUntil: 0 });
        installed = true;
      }
    } else if (b.hi > b.lo && b.lo >= s.max) {
      // (An empty block only ever moves a counter to a later shift.)
      if (s.cur >= s.max) {
        Object.assign(s, { lo: b.lo, cur: b.lo, max: b.hi, leaseUntil: 0 });
        installed = true;
      } else if (!s.next || s.next.lo <= b.lo) {
        Object.assign(s, { next: { lo: b.lo, hi: b.hi }, leaseUntil: 0 });
        installed = true;
      }
    }
    if (this.forgetful) this.forget(tenantId);
    return installed;
  }

  async burn(counter: CounterId, issued: IssuedNumber, storedUpTo: number): Promise<void> {
    this.reach("burn", { issued, storedUpTo });
    const s = this.state.get(counterName(counter));
    if (!s || s.day !== issued.businessDay || s.shift !== issued.shift || issued.number <= s.lo || issued.number > s.max) return;
    s.cur = s.max;
    if (s.next && s.next.lo < storedUpTo) s.next = null;
  }
}

/** OrderRepository (ports/orders.ts) over MemoryDatabase, with the unique indexes of the real table. */
export class MemoryOrders implements OrderRepository {
  /** Runs before each insert is checked: a test makes a concurrent request win a race here. */
  beforeInsert: ((record: OrderRecord) => Promise<void> | void) | null = null;

  constructor(
    private readonly db: MemoryDatabase,
    private readonly clock: Clock,
  ) {}

  private of(tenantId: string): Order[] {
    return this.db.orders.filter((o) => o.tenantId === tenantId);
  }

  async insert(record: OrderRecord, emits?: Emits<Order>): Promise<Order> {
    this.db.check();
    await this.beforeInsert?.(record);
    const same = this.of(record.tenantId).filter((o) => o.businessDay === record.businessDay);
    // The two unique indexes of decision 0025: (day, scope, key), and (day, key) among unscoped rows.
    const sameKey = (o: Order) => o.idempotencyKey === record.idempotencyKey && o.idempotencyScope === record.idempotencyScope;
    if (record.idempotencyKey && same.some(sameKey)) throw new DuplicateIdempotencyKeyError(record.idempotencyKey);
    // One number per shift in the default series, one ticket per shift in another (decision 0027).
    const counted = (o: Order) =>
      record.seriesId === null ? o.seriesId === null && o.number === record.number : o.seriesId === record.seriesId && o.ticket === record.ticket;
    if (same.some((o) => o.shift === record.shift && counted(o)))
      throw new DuplicateNumberError(record.businessDay, record.shift, record.seriesId === null ? record.number : record.ticket!);
    // The index over open numbers (decision 0027): no open order of any shift or day shows it.
    if (this.of(record.tenantId).some((o) => isOpen(o.status) && o.clearedAt === null && o.prefix === record.prefix && o.number === record.number))
      throw new NumberOpenError(record.number, record.prefix);
    const order: Order = {
      id: randomUUID(),
      tenantId: record.tenantId,
      businessDay: record.businessDay,
      shift: record.shift,
      number: record.number,
      status: "PLACED",
      items: record.items,
      note: record.note ?? null,
      channel: record.channel,
      idempotencyKey: record.idempotencyKey,
      idempotencyScope: record.idempotencyScope,
      requestHash: record.requestHash,
      createdAt: this.clock.now(),
      readyAt: null,
      collectedAt: null,
      cancelledAt: null,
      clearedAt: null,
      prefix: record.prefix,
      seriesId: record.seriesId,
      seriesName: record.seriesName,
      ticket: record.ticket,
      placedBy: record.placedBy,
      stations: record.stations ?? [],
      service: record.service ?? null,
    };
    this.db.orders.push(order);
    if (emits) this.db.outbox.push(...emits(order));
    return order;
  }

  async findById(tenantId: string, id: string): Promise<Order | null> {
    this.db.check();
    return this.of(tenantId).find((o) => o.id === id) ?? null;
  }

  async findByIdempotencyKey(tenantId: string, day: BusinessDay, scope: string, key: string): Promise<Order | null> {
    this.db.check();
    const keyed = this.of(tenantId).filter((o) => o.businessDay === day && o.idempotencyKey === key);
    // The caller's own order first; an unscoped one (from before keys were scoped) only failing that.
    return keyed.find((o) => o.idempotencyScope === scope) ?? keyed.find((o) => o.idempotencyScope === null) ?? null;
  }

  async listShift(tenantId: string, day: BusinessDay, shift: number, statuses?: readonly OrderStatus[]): Promise<Order[]> {
    return this.of(tenantId).filter((o) => o.businessDay === day && o.shift === shift && (!statuses?.length || statuses.includes(o.status)));
  }

  async listOpen(tenantId: string): Promise<Order[]> {
    return this.of(tenantId).filter((o) => (o.status === "PLACED" || o.status === "READY") && !o.clearedAt);
  }

  async countOpen(tenantId: string): Promise<number> {
    return (await this.listOpen(tenantId)).length;
  }

  async holdsOpen(tenantId: string, number: number, prefix = ""): Promise<boolean> {
    return (await this.listOpen(tenantId)).some((o) => o.number === number && o.prefix === prefix);
  }

  async openNumbers(tenantId: string, prefix = ""): Promise<Set<number>> {
    return new Set((await this.listOpen(tenantId)).filter((o) => o.prefix === prefix).map((o) => o.number));
  }

  async listRecentlyCollected(tenantId: string, day: BusinessDay, limit: number): Promise<CollectedOrder[]> {
    return this.of(tenantId)
      .filter((o) => o.businessDay === day && o.collectedAt)
      .sort((a, b) => b.collectedAt!.getTime() - a.collectedAt!.getTime())
      .slice(0, limit)
      .map((o) => ({ ...o, collectedBy: lastMoveBy(this.movesOf(o.id), "COLLECTED") }));
  }

  private movesOf(orderId: string): OrderMove[] {
    return this.db.moves.filter((m) => m.orderId === orderId).map(({ status, at, by }) => ({ status, at, by }));
  }

  async moves(tenantId: string, id: string): Promise<OrderMove[]> {
    this.db.check();
    return this.of(tenantId).some((o) => o.id === id) ? this.movesOf(id) : [];
  }

  async readyAgain(tenantId: string, id: string, at: Date): Promise<Order | null> {
    const o = this.of(tenantId).find((x) => x.id === id && x.status === "READY" && !x.clearedAt);
    if (!o) return null;
    o.readyAt = at;
    return { ...o };
  }

  async clearOpen(tenantId: string, day: BusinessDay, beforeShift: number, at: Date, emits?: Emits<Order>): Promise<number> {
    const open = (await this.listOpen(tenantId)).filter((o) => o.businessDay < day || (o.businessDay === day && o.shift < beforeShift));
    for (const o of open) o.clearedAt = at;
    if (emits) this.db.outbox.push(...open.flatMap((o) => emits({ ...o })));
    return open.length;
  }

  async clearForgotten(tenantId: string, hours: number, at: Date, emits?: Emits<Order>): Promise<Order[]> {
    const cutoff = at.getTime() - hours * 3_600_000;
    const old = (await this.listOpen(tenantId)).filter((o) => o.createdAt.getTime() < cutoff);
    for (const o of old) o.clearedAt = at;
    if (emits) this.db.outbox.push(...old.flatMap((o) => emits({ ...o })));
    return old.map((o) => ({ ...o }));
  }

  async updateStatus(
    tenantId: string,
    id: string,
    from: OrderStatus,
    to: OrderStatus,
    at: Date,
    by: string | null,
    emits?: Emits<Order>,
  ): Promise<Order | null> {
    const o = this.of(tenantId).find((x) => x.id === id && x.status === from && !x.clearedAt);
    if (!o) return null;
    // Back on the floor (an Undo of a collect) only while no other open order shows its number.
    if (
      !isOpen(from) &&
      isOpen(to) &&
      this.of(tenantId).some((x) => x.id !== id && isOpen(x.status) && x.clearedAt === null && x.prefix === o.prefix && x.number === o.number)
    )
      throw new NumberOpenError(o.number, o.prefix);
    o.status = to;
    if (to === "READY") o.readyAt = at;
    if (to === "COLLECTED") o.collectedAt = at;
    if (to === "CANCELLED") o.cancelledAt = at;
    // The move and its entry in the history are one write, as in SQL: a refused move stores neither.
    this.db.moves.push({ orderId: id, status: to, at, by });
    if (emits) this.db.outbox.push(...emits({ ...o }));
    return { ...o };
  }

  async updateParts(
    tenantId: string,
    id: string,
    status: { from: OrderStatus; to: OrderStatus },
    parts: { from: readonly OrderPart[]; to: readonly OrderPart[] },
    at: Date,
    by: string | null,
    emits?: Emits<Order>,
  ): Promise<Order | null> {
    const o = this.of(tenantId).find((x) => x.id === id && x.status === status.from && !x.clearedAt);
    // The parts as expected, as the SQL compares them (jsonb equality).
    if (!o || JSON.stringify(o.stations) !== JSON.stringify(parts.from)) return null;
    o.stations = parts.to.map((p) => ({ ...p }));
    if (status.from === status.to) return { ...o };
    if (status.to === "PLACED") o.readyAt = null;
    return this.updateStatus(tenantId, id, status.from, status.to, at, by, emits);
  }
}

/** ShiftRepository (ports/shifts.ts) over MemoryDatabase: manual starts (the schedule's fencing is tested on PostgreSQL). */
export class MemoryShifts implements ShiftRepository {
  constructor(
    private readonly db: MemoryDatabase,
    private readonly clock: Clock,
  ) {}

  async currentShift(tenantId: string, day: BusinessDay): Promise<number> {
    this.db.check();
    return this.db.currentShift(tenantId, day);
  }

  async startShift(
    tenantId: string,
    day: BusinessDay,
    opts: StartShiftOptions,
    commit: (shift: ShiftInfo, firstBlock: Block) => Promise<boolean>,
  ): Promise<{ shift: ShiftInfo; created: boolean }> {
    this.db.check();
    if (opts.scheduled) throw new Error("MemoryShifts: scheduled starts are not modelled");
    const current = this.db.currentShift(tenantId, day);
    const latest = this.db.shifts.find((s) => s.tenantId === tenantId && s.businessDay === day && s.shift === current);
    if (opts.ifCurrentShift !== undefined && current > opts.ifCurrentShift && latest) return { shift: latest, created: false };
    const shift: ShiftInfo = {
      businessDay: day,
      shift: current + 1,
      firstNumber: opts.firstNumber,
      startedAt: this.clock.now(),
      startedBy: opts.startedBy,
      reason: opts.reason,
    };
    // The new shift's first block starts at its first number, reserved with the shift itself.
    const key = dayShift(tenantId, day, shift.shift);
    const before = this.db.ceilings.get(key);
    const hi = (before ?? opts.firstNumber - 1) + opts.blockSize;
    this.db.ceilings.set(key, hi);
    let inUse: boolean;
    try {
      inUse = await commit(shift, { businessDay: day, shift: shift.shift, lo: hi - opts.blockSize, hi });
    } catch (e) {
      // The transaction rolls back: no shift, no ceiling.
      if (before === undefined) this.db.ceilings.delete(key);
      else this.db.ceilings.set(key, before);
      throw e;
    }
    // Nobody issues from an unused block: given back, so the database starts at the first number.
    if (!inUse) this.db.ceilings.set(key, hi - opts.blockSize);
    this.db.shifts.push({ ...shift, tenantId });
    return { shift, created: true };
  }

  async recordScheduleSkip(): Promise<boolean> {
    throw new Error("MemoryShifts: the schedule is not modelled");
  }

  async scheduleRecord(): Promise<never> {
    throw new Error("MemoryShifts: the schedule is not modelled");
  }
}

/** IdempotencyClaims (ports/orders.ts): SET NX PX in memory. */
export class MemoryClaims implements IdempotencyClaims {
  private readonly held = new Map<string, number>();
  constructor(private readonly clock: Clock) {}

  async claim(tenantId: string, day: BusinessDay, scope: string, key: string, ttlMs: number): Promise<boolean> {
    const id = `${tenantId}/${day}/${scope}/${key}`;
    const now = this.clock.now().getTime();
    if ((this.held.get(id) ?? 0) > now) return false;
    this.held.set(id, now + ttlMs);
    return true;
  }

  async release(tenantId: string, day: BusinessDay, scope: string, key: string): Promise<void> {
    this.held.delete(`${tenantId}/${day}/${scope}/${key}`);
  }
}

export class MemoryMenu implements MenuCatalog {
  constructor(
    readonly items: MenuItem[] = [],
    /** Each category's station, by category id (none: no station). */
    readonly categoryStations: ReadonlyMap<string, string> = new Map(),
    /** Each category's shared option groups, by category id (none: no groups). */
    readonly categoryGroups: ReadonlyMap<string, OptionGroup[]> = new Map(),
  ) {}
  async findItems(tenantId: string, ids: readonly string[]): Promise<OrderableItem[]> {
    return this.items
      .filter((i) => ids.includes(i.id))
      .map((i) => ({
        ...i,
        categoryStationId: this.categoryStations.get(i.categoryId) ?? null,
        categoryOptionGroups: this.categoryGroups.get(i.categoryId) ?? [],
      }));
  }
}

/** What the core reported: metrics, broadcasts, logs, audit entries. */
export class Recorder {
  readonly issuedFrom: ("redis" | "database")[] = [];
  readonly placed: string[] = [];
  readonly uniqueViolations: string[] = [];
  readonly duplicates: string[] = [];
  readonly events: { type: string; payload: unknown }[] = [];
  readonly logs: { level: "info" | "warn" | "error"; obj: object; msg?: string }[] = [];
  readonly audit: { tenantId: string; entry: unknown }[] = [];

  readonly metrics: Metrics = {
    duplicateNumber: (t) => this.duplicates.push(t.slug),
    numberIssued: (source) => this.issuedFrom.push(source),
    orderPlaced: (channel) => this.placed.push(channel),
    orderStatusChanged: () => {},
    uniqueViolation: (index) => this.uniqueViolations.push(index),
  };

  readonly log = {
    info: (obj: object, msg?: string) => this.logs.push({ level: "info", obj, msg }),
    warn: (obj: object, msg?: string) => this.logs.push({ level: "warn", obj, msg }),
    error: (obj: object, msg?: string) => this.logs.push({ level: "error", obj, msg }),
  };

  readonly events_: EventPublisher = {
    orderCreated: (_t, payload) => this.events.push({ type: "order:created", payload }),
    orderUpdated: (_t, payload) => this.events.push({ type: "order:updated", payload }),
    orderCalled: (_t, payload) => this.events.push({ type: "order:called", payload }),
    shiftStarted: (_t, payload) => this.events.push({ type: "shift:started", payload }),
    settingsChanged: () => this.events.push({ type: "settings:changed", payload: null }),
    menuChanged: () => this.events.push({ type: "menu:changed", payload: null }),
    printersChanged: () => this.events.push({ type: "printer:changed", payload: null }),
  };

  readonly auditLog: AuditLog = {
    record: async (tenantId, entry) => void this.audit.push({ tenantId, entry }),
    list: async (): Promise<AuditEntry[]> => [],
  };
}

/**
 * The number-issuing core wired on in-memory ports. `refillWaitMs` is how long a caller
 * waits for a block another caller is bringing (short: these tests do not wait for real).
 */
export function memoryCore(opts: { clock: Clock; refillWaitMs?: number; menu?: MenuItem[]; hooks?: IssuerHooks }) {
  const db = new MemoryDatabase();
  const counter = new MemoryCounter();
  const ledger = new MemoryLedger(db);
  const recorder = new Recorder();
  const issuer = new NumberIssuer(counter, ledger, opts.clock, recorder.log, opts.refillWaitMs ?? 50, opts.hooks);
  const orders = new MemoryOrders(db, opts.clock);
  const shifts = new MemoryShifts(db, opts.clock);
  const claims = new MemoryClaims(opts.clock);
  const orderService = new OrderService({
    issuer,
    claims,
    orders,
    shifts,
    events: recorder.events_,
    metrics: recorder.metrics,
    log: recorder.log,
    clock: opts.clock,
    menu: new MemoryMenu(opts.menu),
    audit: recorder.auditLog,
  });
  const shiftService = new ShiftService({
    issuer,
    counter,
    shifts,
    orders,
    events: recorder.events_,
    audit: recorder.auditLog,
    log: recorder.log,
    clock: opts.clock,
  });
  return { db, counter, ledger, recorder, issuer, orders, shifts, claims, orderService, shiftService };
}
