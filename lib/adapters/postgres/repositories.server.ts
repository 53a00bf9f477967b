/**
 * PostgreSQL implementations of the core's repositories. Dates of business days are
 * stored as SQL `date` and handled as "YYYY-MM-DD" strings everywhere else.
 */
import type { BusinessDay } from "@/lib/core/business-day";
import type { Order, OrderItem, OrderStatus } from "@/lib/core/orders";
import {
  DuplicateIdempotencyKeyError,
  DuplicateNumberError,
  SlotAlreadyStartedError,
  StaleLeaderError,
  type ScheduleSkip,
  type ScheduledStart,
  type OrderRecord,
  type OrderRepository,
  type StartShiftOptions,
  type ShiftRepository,
  type Block,
} from "@/lib/core/ports";
import type { StaffRole, Tenant } from "@/lib/core/tenants";
import { asLocale } from "@/lib/core/locales";
import type { Emits } from "@/lib/core/webhooks/events";
import type { DayShift, DaySkip } from "@/lib/core/schedule";
import { Prisma, type Db, type Tx } from "./prisma.server";
import type { WebhookOutbox } from "./webhook-outbox.server";
import { findOrder, findOrderByIdempotencyKey, insertOrder, updateOrderStatus, violatedConstraint } from "./order-sql.server";
import type pg from "pg";
import type { Order as OrderRow, Shift as ShiftRow, Tenant as TenantRow } from "./generated/prisma/client";
import type { ShiftInfo } from "@/lib/core/shifts";

export const toSqlDate = (day: BusinessDay): Date => new Date(`${day}T00:00:00Z`);
export const fromSqlDate = (d: Date): BusinessDay => d.toISOString().slice(0, 10);

export function toOrder(row: OrderRow): Order {
  return {
    id: row.id,
    tenantId: row.tenantId,
    businessDay: fromSqlDate(row.businessDay),
    shift: row.shift,
    number: row.number,
    status: row.status,
    items: (Array.isArray(row.items) ? row.items : []) as unknown as OrderItem[],
    note: row.note,
    channel: row.channel,
    idempotencyKey: row.idempotencyKey,
    idempotencyScope: row.idempotencyScope,
    requestHash: row.requestHash,
    createdAt: row.createdAt,
    readyAt: row.readyAt,
    collectedAt: row.collectedAt,
    cancelledAt: row.cancelledAt,
    clearedAt: row.clearedAt,
  };
}

export function toTenant(row: TenantRow): Tenant {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    timeZone: row.timeZone,
    dayStartMinutes: row.dayStartMinutes,
    floor: {
      language: asLocale(row.language),
      readyClearMinutes: row.readyClearMinutes,
      ageWarnMinutes: row.ageWarnMinutes,
      ageLateMinutes: row.ageLateMinutes,
      currency: row.currency,
      kioskNumberOnly: row.kioskNumberOnly,
    },
    schedule: row.schedule,
    scheduleChangedAt: row.scheduleChangedAt,
  };
}

function toShiftInfo(row: ShiftRow): ShiftInfo {
  return {
    businessDay: fromSqlDate(row.businessDay),
    shift: row.number,
    firstNumber: row.firstNumber,
    startedAt: row.startedAt,
    startedBy: row.startedBy,
    reason: row.reason,
  };
}

/** The columns a unique violation names, however the driver adapter reports them. */
export function uniqueViolationOn(e: unknown): string | null {
  if (!(e instanceof Prisma.PrismaClientKnownRequestError) || e.code !== "P2002") return null;
  return JSON.stringify(e.meta ?? {});
}

const STATUS_TIMESTAMP: Partial<Record<OrderStatus, "readyAt" | "collectedAt" | "cancelledAt">> = {
  READY: "readyAt",
  COLLECTED: "collectedAt",
  CANCELLED: "cancelledAt",
};

/** Open on the floor: being prepared or ready, and not cleared, of any business day. */
const openOf = (tenantId: string) => ({
  tenantId,
  status: { in: ["PLACED", "READY"] as OrderStatus[] },
  clearedAt: null,
});

/** The events of a batch: those of each row in it. */
const eachOf = <T>(emits: Emits<T> | undefined): Emits<T[]> | undefined => (emits ? (rows) => rows.flatMap(emits) : undefined);

export class PrismaOrderRepository implements OrderRepository {
  /**
   * Without `outbox`, changes emit no webhook events (tools and tests that need none). With
   * `sql` (the client's own pool), an order without webhook events is inserted and moved in
   * SQL, and any order is found by id or idempotency key in SQL (a read writes no events).
   */
  constructor(
    private readonly db: Db,
    private readonly outbox?: WebhookOutbox,
    private readonly sql?: pg.Pool,
  ) {}

  /** Whether a change of `tenantId` that `emits` has webhook events to write. */
  private async writesEvents<T>(tenantId: string, emits: Emits<T> | undefined): Promise<boolean> {
    return !!this.outbox && !!emits && (await this.outbox.active(tenantId));
  }

  /** Runs `change` and writes the events it emits in one transaction (none without an outbox). */
  private async withEvents<T>(tenantId: string, emits: Emits<T> | undefined, change: (db: Tx | Db) => Promise<T | null>): Promise<T | null> {
    const outbox = this.outbox;
    if (!outbox || !emits || !(await this.writesEvents(tenantId, emits))) return change(this.db);
    const { row, queued } = await this.db.$transaction(async (tx) => {
      const row = await change(tx);
      return { row, queued: row === null ? 0 : await outbox.write(tx, tenantId, emits(row)) };
    });
    outbox.committed(queued);
    return row;
  }

  async insert(r: OrderRecord, emits?: Emits<Order>): Promise<Order> {
    try {
      if (this.sql && !(await this.writesEvents(r.tenantId, emits))) return await insertOrder(this.sql, r);
      const order = await this.withEvents(r.tenantId, emits, async (db) =>
        toOrder(
          await db.order.create({
            data: {
              tenantId: r.tenantId,
              businessDay: toSqlDate(r.businessDay),
              shift: r.shift,
              number: r.number,
              items: r.items as unknown as Prisma.InputJsonValue,
              note: r.note ?? null,
              channel: r.channel,
              idempotencyKey: r.idempotencyKey,
              idempotencyScope: r.idempotencyScope,
              requestHash: r.requestHash,
            },
          }),
        ),
      );
      return order!;
    } catch (e) {
      const target = uniqueViolationOn(e) ?? violatedConstraint(e);
      if (target?.includes("idempotencyKey") || target?.includes("idempotency_key")) {
        throw new DuplicateIdempotencyKeyError(r.idempotencyKey ?? "");
      }
      if (target !== null) throw new DuplicateNumberError(r.businessDay, r.shift, r.number);
      throw e;
    }
  }

  async findById(tenantId: string, id: string): Promise<Order | null> {
    if (this.sql) return findOrder(this.sql, tenantId, id);
    const row = await this.db.order.findFirst({ where: { id, tenantId } });
    return row ? toOrder(row) : null;
  }

  async findByIdempotencyKey(tenantId: string, day: BusinessDay, scope: string, key: string): Promise<Order | null> {
    if (this.sql) return findOrderByIdempotencyKey(this.sql, tenantId, day, scope, key);
    const row = await this.db.order.findFirst({
      where: { tenantId, businessDay: toSqlDate(day), idempotencyKey: key, OR: [{ idempotencyScope: scope }, { idempotencyScope: null }] },
      // The caller's own order first; an unscoped one (from before keys were scoped) only failing that.
      orderBy: { idempotencyScope: { sort: "asc", nulls: "last" } },
    });
    return row ? toOrder(row) : null;
  }

  async listShift(tenantId: string, day: BusinessDay, shift: number, statuses?: readonly OrderStatus[]): Promise<Order[]> {
    const rows = await this.db.order.findMany({
      where: { tenantId, businessDay: toSqlDate(day), shift, ...(statuses ? { status: { in: [...statuses] } } : {}) },
      orderBy: { number: "asc" },
    });
    return rows.map(toOrder);
  }

  async listOpen(tenantId: string): Promise<Order[]> {
    const rows = await this.db.order.findMany({
      where: openOf(tenantId),
      // Orders inserted in one statement share createdAt: their numbers keep them in the order they were taken.
      orderBy: [{ createdAt: "asc" }, { shift: "asc" }, { number: "asc" }],
    });
    return rows.map(toOrder);
  }

  async countOpen(tenantId: string): Promise<number> {
    return this.db.order.count({ where: openOf(tenantId) });
  }

  async holdsOpen(tenantId: string, number: number): Promise<boolean> {
    return (await this.db.order.findFirst({ where: { ...openOf(tenantId), number }, select: { id: true } })) !== null;
  }

  async listRecentlyCollected(tenantId: string, day: BusinessDay, limit: number): Promise<Order[]> {
    const rows = await this.db.order.findMany({
      where: { tenantId, businessDay: toSqlDate(day), status: "COLLECTED" },
      orderBy: [{ collectedAt: "desc" }],
      take: limit,
    });
    return rows.map(toOrder);
  }

  async readyAgain(tenantId: string, id: string, at: Date): Promise<Order | null> {
    const { count } = await this.db.order.updateMany({ where: { id, tenantId, status: "READY", clearedAt: null }, data: { readyAt: at } });
    return count === 1 ? this.findById(tenantId, id) : null;
  }

  async clearOpen(tenantId: string, day: BusinessDay, beforeShift: number, at: Date, emits?: Emits<Order>): Promise<number> {
    const where = { ...openOf(tenantId), OR: [{ businessDay: { lt: toSqlDate(day) } }, { businessDay: toSqlDate(day), shift: { lt: beforeShift } }] };
    if (!(await this.writesEvents(tenantId, emits))) return (await this.db.order.updateMany({ where, data: { clearedAt: at } })).count;
    // One UPDATE … RETURNING, and one event per cleared order in the same transaction (a batch insert however many).
    const cleared = await this.withEvents(tenantId, eachOf(emits), async (db) =>
      (await db.order.updateManyAndReturn({ where, data: { clearedAt: at } })).map(toOrder),
    );
    return cleared?.length ?? 0;
  }

  async clearForgotten(tenantId: string, hours: number, at: Date, emits?: Emits<Order>): Promise<Order[]> {
    const cleared = await this.withEvents(tenantId, eachOf(emits), async (db) => {
      // The age by the clock that stamped createdAt; conditional on still being open, so of
      // two nodes sweeping at once each row is cleared by one.
      const rows = await db.$queryRaw<{ id: string }[]>`
        UPDATE "Order" SET "clearedAt" = ${at}
        WHERE "tenantId" = ${tenantId}::uuid AND status IN ('PLACED', 'READY') AND "clearedAt" IS NULL
          AND "createdAt" < now() - make_interval(hours => ${hours}::int)
        RETURNING id`;
      if (rows.length === 0) return [];
      const found = await db.order.findMany({
        where: { tenantId, id: { in: rows.map((r) => r.id) } },
        orderBy: [{ createdAt: "asc" }, { number: "asc" }],
      });
      return found.map(toOrder);
    });
    return cleared ?? [];
  }

  async updateStatus(tenantId: string, id: string, from: OrderStatus, to: OrderStatus, at: Date, emits?: Emits<Order>): Promise<Order | null> {
    if (this.sql && !(await this.writesEvents(tenantId, emits))) return updateOrderStatus(this.sql, tenantId, id, from, to, at);
    const stamp = STATUS_TIMESTAMP[to];
    return this.withEvents(tenantId, emits, async (db) => {
      const { count } = await db.order.updateMany({
        where: { id, tenantId, status: from },
        // Undo clears the stamp of the step taken back: READY → PLACED drops readyAt, COLLECTED → READY drops collectedAt.
        data: {
          status: to,
          ...(stamp ? { [stamp]: at } : {}),
          ...(to === "PLACED" ? { readyAt: null } : {}),
          ...(from === "COLLECTED" ? { collectedAt: null } : {}),
        },
      });
      if (count !== 1) return null;
      const row = await db.order.findFirst({ where: { id, tenantId } });
      return row ? toOrder(row) : null;
    });
  }
}

export class PrismaShiftRepository implements ShiftRepository {
  /** Without `outbox`, a new shift emits no webhook event. */
  constructor(
    private readonly db: Db,
    private readonly outbox?: WebhookOutbox,
  ) {}

  async currentShift(tenantId: string, day: BusinessDay): Promise<number> {
    const latest = await this.db.shift.findFirst({
      where: { tenantId, businessDay: toSqlDate(day) },
      orderBy: { number: "desc" },
      select: { number: true },
    });
    return latest?.number ?? 1;
  }

  async startShift(
    tenantId: string,
    day: BusinessDay,
    opts: StartShiftOptions,
    commit: (shift: ShiftInfo, firstBlock: Block) => Promise<boolean>,
  ): Promise<{ shift: ShiftInfo; created: boolean; skipped?: ScheduleSkip }> {
    const s = opts.scheduled;
    let queued = 0;
    try {
      const result = await this.db.$transaction(async (tx) => {
        // One reset at a time per tenant: concurrent presses are serialized here.
        await lockTenantShifts(tx, tenantId);
        const latest = await tx.shift.findFirst({
          where: { tenantId, businessDay: toSqlDate(day) },
          orderBy: { number: "desc" },
        });
        const current = latest?.number ?? 1;
        if (opts.ifCurrentShift !== undefined && current > opts.ifCurrentShift && latest) {
          return { shift: toShiftInfo(latest), created: false };
        }
        if (s) {
          await checkTerm(tx, s.term);
          const skipped = await scheduleSkip(tx, tenantId, day, s);
          if (skipped && latest) return { shift: toShiftInfo(latest), created: false, skipped };
        }
        const row = await tx.shift.create({
          data: {
            tenantId,
            businessDay: toSqlDate(day),
            number: current + 1,
            firstNumber: opts.firstNumber,
            startedBy: opts.startedBy,
            reason: opts.reason,
            ...(s ? { trigger: "SCHEDULE" as const, slot: s.slot, term: s.term } : {}),
          },
        });
        // The new shift's first block, reserved with the shift itself.
        const [reserved] = await tx.$queryRaw<{ ceiling: number }[]>`
          INSERT INTO "CounterCeiling" ("tenantId", "businessDay", "shift", "ceiling")
          VALUES (${tenantId}::uuid, ${day}::date, ${row.number}, ${opts.firstNumber - 1 + opts.blockSize})
          ON CONFLICT ("tenantId", "businessDay", "shift")
            DO UPDATE SET "ceiling" = "CounterCeiling"."ceiling" + ${opts.blockSize}, "updatedAt" = now()
          RETURNING "ceiling"`;
        const hi = reserved!.ceiling;
        const shift = toShiftInfo(row);
        // The shift's webhook events, before Redis is moved: a failure here leaves nothing to undo.
        if (this.outbox && opts.emits) queued = await this.outbox.write(tx, tenantId, opts.emits(shift));
        const inUse = await commit(shift, { businessDay: day, shift: row.number, lo: hi - opts.blockSize, hi });
        if (!inUse) {
          // Nobody will issue from that block: give it back, so the shift still starts at
          // its first number when the database issues the numbers.
          await tx.$executeRaw`
            UPDATE "CounterCeiling" SET "ceiling" = "ceiling" - ${opts.blockSize}
            WHERE "tenantId" = ${tenantId}::uuid AND "businessDay" = ${day}::date AND "shift" = ${row.number}`;
        }
        return { shift, created: true };
      });
      this.outbox?.committed(queued);
      return result;
    } catch (e) {
      // The backstop: the unique (tenant, day, slot) index (the checks above make it rare).
      if (s && uniqueViolationOn(e)?.includes("slot")) throw new SlotAlreadyStartedError(day, s.slot);
      throw e;
    }
  }

  async recordScheduleSkip(
    tenantId: string,
    day: BusinessDay,
    s: ScheduledStart,
    entry: { actor: string; details: Record<string, unknown> },
  ): Promise<boolean> {
    return this.db.$transaction(async (tx) => {
      // Under the tenant's shift lock and the term check, so two nodes never both record it.
      await lockTenantShifts(tx, tenantId);
      await checkTerm(tx, s.term);
      const started = await tx.shift.findFirst({ where: { tenantId, businessDay: toSqlDate(day), slot: s.slot }, select: { id: true } });
      if (started) return false;
      const [recorded] = await tx.$queryRaw<{ n: bigint }[]>`
        SELECT count(*) AS n FROM "AuditEntry"
        WHERE "tenantId" = ${tenantId}::uuid AND "action" = 'shift.scheduleSkipped'
          AND "details"->>'businessDay' = ${day} AND "details"->>'slot' = ${s.slot}`;
      if (Number(recorded?.n ?? 0) > 0) return false;
      await tx.auditEntry.create({
        data: { tenantId, actor: entry.actor, action: "shift.scheduleSkipped", details: { ...entry.details, businessDay: day, slot: s.slot } },
      });
      return true;
    });
  }

  async scheduleRecord(tenantId: string, day: BusinessDay): Promise<{ shifts: DayShift[]; skips: DaySkip[] }> {
    const [shifts, skips] = await Promise.all([
      this.db.shift.findMany({ where: { tenantId, businessDay: toSqlDate(day) }, select: { number: true, slot: true }, orderBy: { number: "asc" } }),
      this.db.$queryRaw<DaySkip[]>`
        SELECT "details"->>'slot' AS "slot", coalesce("details"->>'reason', '') AS "reason" FROM "AuditEntry"
        WHERE "tenantId" = ${tenantId}::uuid AND "action" = 'shift.scheduleSkipped' AND "details"->>'businessDay' = ${day}`,
    ]);
    return { shifts: shifts.map((s) => ({ shift: s.number, slot: s.slot })), skips: skips.filter((s) => s.slot) };
  }
}

async function lockTenantShifts(tx: Tx, tenantId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`shift:${tenantId}`}, 0))`;
}

/**
 * Fencing: the caller's term must still be the current one. FOR SHARE holds the row until
 * commit, so a node being elected (UPDATE term = term + 1) waits for this start to finish,
 * and every start after its election carries an older term and is refused.
 */
async function checkTerm(tx: Tx, term: number): Promise<void> {
  // A leader paused (SIGSTOP, GC) inside this transaction would hold the term row forever and
  // block the next election: PostgreSQL ends the transaction after 5 s of silence instead.
  await tx.$executeRaw`SELECT set_config('idle_in_transaction_session_timeout', '5000', true)`;
  const [row] = await tx.$queryRaw<{ term: number }[]>`SELECT "term" FROM "SchedulerTerm" WHERE "id" = 1 FOR SHARE`;
  const current = row?.term ?? 0;
  if (current !== term) throw new StaleLeaderError(term, current);
}

/** Why the slot must not start a shift now, if it must not. */
async function scheduleSkip(tx: Tx, tenantId: string, day: BusinessDay, s: ScheduledStart): Promise<ScheduleSkip | null> {
  const started = await tx.shift.findFirst({ where: { tenantId, businessDay: toSqlDate(day), slot: s.slot }, select: { id: true } });
  if (started) return "slotStarted";
  const since = await tx.shift.findFirst({ where: { tenantId, businessDay: toSqlDate(day), startedAt: { gte: s.slotAt } }, select: { id: true } });
  return since ? "shiftSince" : null;
}

/**
 * The durable side of the counter: one row per (tenant, day, shift) holding the highest
 * number ever handed out there. Each method is one SQL statement.
 */
export class PrismaTenantRepository {
  constructor(private readonly db: Db) {}

  async findBySlug(slug: string): Promise<Tenant | null> {
    const row = await this.db.tenant.findUnique({ where: { slug } });
    return row ? toTenant(row) : null;
  }

  async findById(id: string): Promise<Tenant | null> {
    const row = await this.db.tenant.findUnique({ where: { id } });
    return row ? toTenant(row) : null;
  }

  async staffCredentials(tenantId: string, role: StaffRole) {
    return this.db.staffCredential.findMany({ where: { tenantId, role } });
  }

  async apiKeyByHash(keyHash: string) {
    return this.db.apiKey.findUnique({ where: { keyHash }, include: { tenant: true } });
  }
}
