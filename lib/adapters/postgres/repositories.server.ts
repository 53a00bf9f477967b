/**
 * PostgreSQL implementations of the core's repositories. Dates of business days are
 * stored as SQL `date` and handled as "YYYY-MM-DD" strings everywhere else.
 */
import DataLoader from "dataloader";
import type { BusinessDay } from "@/lib/core/business-day";
import type { Block, CounterLedger, IssuedNumber } from "@/lib/core/numbering";
import type { Order, OrderItem, OrderStatus } from "@/lib/core/orders";
import {
  DuplicateIdempotencyKeyError,
  DuplicateNumberError,
  type OrderRecord,
  type OrderRepository,
  type ShiftInfo,
  type ShiftRepository,
} from "@/lib/core/ports";
import type { StaffRole, Tenant } from "@/lib/core/tenants";
import { Prisma, type Db } from "./prisma.server";
import type { Order as OrderRow, Shift as ShiftRow, Tenant as TenantRow } from "./generated/prisma/client";

export const toSqlDate = (day: BusinessDay): Date => new Date(`${day}T00:00:00Z`);
export const fromSqlDate = (d: Date): BusinessDay => d.toISOString().slice(0, 10);

function toOrder(row: OrderRow): Order {
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
    requestHash: row.requestHash,
    createdAt: row.createdAt,
    readyAt: row.readyAt,
    collectedAt: row.collectedAt,
    cancelledAt: row.cancelledAt,
  };
}

export function toTenant(row: TenantRow): Tenant {
  return { id: row.id, slug: row.slug, name: row.name, timeZone: row.timeZone, dayStartMinutes: row.dayStartMinutes };
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

export class PrismaOrderRepository implements OrderRepository {
  constructor(private readonly db: Db) {}

  async insert(r: OrderRecord): Promise<Order> {
    try {
      const row = await this.db.order.create({
        data: {
          tenantId: r.tenantId,
          businessDay: toSqlDate(r.businessDay),
          shift: r.shift,
          number: r.number,
          items: r.items as unknown as Prisma.InputJsonValue,
          note: r.note ?? null,
          channel: r.channel,
          idempotencyKey: r.idempotencyKey,
          requestHash: r.requestHash,
        },
      });
      return toOrder(row);
    } catch (e) {
      const target = uniqueViolationOn(e);
      if (target?.includes("idempotencyKey") || target?.includes("idempotency_key")) {
        throw new DuplicateIdempotencyKeyError(r.idempotencyKey ?? "");
      }
      if (target !== null) throw new DuplicateNumberError(r.businessDay, r.shift, r.number);
      throw e;
    }
  }

  async findById(tenantId: string, id: string): Promise<Order | null> {
    const row = await this.db.order.findFirst({ where: { id, tenantId } });
    return row ? toOrder(row) : null;
  }

  async findByIdempotencyKey(tenantId: string, day: BusinessDay, key: string): Promise<Order | null> {
    const row = await this.db.order.findUnique({
      where: { tenantId_businessDay_idempotencyKey: { tenantId, businessDay: toSqlDate(day), idempotencyKey: key } },
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

  async listOpen(tenantId: string, day: BusinessDay): Promise<Order[]> {
    const rows = await this.db.order.findMany({
      where: { tenantId, businessDay: toSqlDate(day), status: { in: ["PLACED", "READY"] } },
      orderBy: [{ createdAt: "asc" }],
    });
    return rows.map(toOrder);
  }

  async updateStatus(tenantId: string, id: string, from: OrderStatus, to: OrderStatus, at: Date): Promise<Order | null> {
    const stamp = STATUS_TIMESTAMP[to];
    const { count } = await this.db.order.updateMany({
      where: { id, tenantId, status: from },
      data: { status: to, ...(stamp ? { [stamp]: at } : {}), ...(to === "PLACED" ? { readyAt: null } : {}) },
    });
    return count === 1 ? this.findById(tenantId, id) : null;
  }
}

export class PrismaShiftRepository implements ShiftRepository {
  constructor(private readonly db: Db) {}

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
    opts: { startedBy: string; reason: string | null; firstNumber: number; ifCurrentShift?: number; blockSize: number },
    commit: (shift: ShiftInfo, firstBlock: Block) => Promise<boolean>,
  ): Promise<{ shift: ShiftInfo; created: boolean }> {
    return this.db.$transaction(async (tx) => {
      // One reset at a time per tenant: concurrent presses are serialized here.
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`shift:${tenantId}`}, 0))`;
      const latest = await tx.shift.findFirst({
        where: { tenantId, businessDay: toSqlDate(day) },
        orderBy: { number: "desc" },
      });
      const current = latest?.number ?? 1;
      if (opts.ifCurrentShift !== undefined && current > opts.ifCurrentShift && latest) {
        return { shift: toShiftInfo(latest), created: false };
      }
      const row = await tx.shift.create({
        data: {
          tenantId,
          businessDay: toSqlDate(day),
          number: current + 1,
          firstNumber: opts.firstNumber,
          startedBy: opts.startedBy,
          reason: opts.reason,
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
  }
}

/**
 * The durable side of the counter: one row per (tenant, day, shift) holding the highest
 * number ever handed out there. Each method is one SQL statement.
 */
interface ReserveRequest {
  tenantId: string;
  day: BusinessDay;
  shift: number;
  size: number;
}

/**
 * The counter's durable side. `reserve` (the block refills, one every 40 numbers per busy
 * tenant) is batched: the reservations asked for in one turn of the event loop go to
 * PostgreSQL as one statement, so a node issuing tens of thousands of numbers a second
 * sends a few hundred statements, not thousands.
 */
export class PrismaCounterLedger implements CounterLedger {
  private readonly reservations: DataLoader<ReserveRequest, Block | null>;

  constructor(private readonly db: Db) {
    this.reservations = new DataLoader((requests) => this.reserveBatch(requests), {
      cache: false,
      maxBatchSize: 500,
      batchScheduleFn: (send) => setImmediate(send),
    });
  }

  async reserve(tenantId: string, day: BusinessDay, shift: number, size: number): Promise<Block> {
    return (await this.reservations.load({ tenantId, day, shift, size })) ?? this.reserveCurrent(tenantId, day, size);
  }

  /**
   * One statement for a batch of reservations. Each (tenant, day, shift) is reserved in
   * `shift` only if no later shift of the day exists (null: the caller's view was stale);
   * requests for the same one share a single row update and split its range in order.
   * Rows are locked in key order, so two nodes' batches cannot deadlock.
   */
  private async reserveBatch(requests: readonly ReserveRequest[]): Promise<(Block | null)[]> {
    const rows = new Map<string, { tenantId: string; day: BusinessDay; shift: number; size: number; at: number[] }>();
    requests.forEach((r, i) => {
      const id = `${r.tenantId}/${r.day}/${r.shift}`;
      const row = rows.get(id);
      if (row) {
        row.size += r.size;
        row.at.push(i);
      } else rows.set(id, { tenantId: r.tenantId, day: r.day, shift: r.shift, size: r.size, at: [i] });
    });
    const want = [...rows.values()];
    const reserved = await this.db.$queryRaw<{ tenantId: string; businessDay: Date; shift: number; ceiling: number }[]>`
      WITH req AS (
        SELECT * FROM unnest(
          ${want.map((w) => w.tenantId)}::uuid[], ${want.map((w) => w.day)}::date[],
          ${want.map((w) => w.shift)}::int[], ${want.map((w) => w.size)}::int[]
        ) AS r("tenantId", "businessDay", "shift", "size")
      )
      INSERT INTO "CounterCeiling" ("tenantId", "businessDay", "shift", "ceiling")
      SELECT req."tenantId", req."businessDay", req."shift", req."size" FROM req
      WHERE COALESCE((
        SELECT MAX(s."number") FROM "Shift" s WHERE s."tenantId" = req."tenantId" AND s."businessDay" = req."businessDay"
      ), 1) <= req."shift"
      ORDER BY 1, 2, 3
      ON CONFLICT ("tenantId", "businessDay", "shift")
        DO UPDATE SET "ceiling" = "CounterCeiling"."ceiling" + EXCLUDED."ceiling", "updatedAt" = now()
      RETURNING "tenantId", "businessDay", "shift", "ceiling"`;
    const ceilings = new Map(reserved.map((r) => [`${r.tenantId}/${fromSqlDate(r.businessDay)}/${r.shift}`, r.ceiling]));
    const blocks: (Block | null)[] = new Array(requests.length).fill(null);
    for (const [id, w] of rows) {
      const ceiling = ceilings.get(id);
      if (ceiling === undefined) continue;
      let lo = ceiling - w.size;
      for (const i of w.at) {
        const size = requests[i]!.size;
        blocks[i] = { businessDay: w.day, shift: w.shift, lo, hi: lo + size };
        lo += size;
      }
    }
    return blocks;
  }

  async reserveCurrent(tenantId: string, day: BusinessDay, size: number): Promise<Block> {
    // The business day only moves forward: if another node already numbers the next day
    // (its clock is ahead of ours by less than a day), follow it. The current shift is the
    // latest one a manager started that day (1 when none).
    const [row] = await this.db.$queryRaw<{ businessDay: Date; shift: number; ceiling: number }[]>`
      WITH d AS (
        SELECT GREATEST(${day}::date, COALESCE((
          SELECT MAX("businessDay") FROM "CounterCeiling"
          WHERE "tenantId" = ${tenantId}::uuid AND "businessDay" <= ${day}::date + 1
        ), ${day}::date)) AS day
      ), latest AS (
        SELECT d.day, COALESCE((
          SELECT MAX(s."number") FROM "Shift" s WHERE s."tenantId" = ${tenantId}::uuid AND s."businessDay" = d.day
        ), 1) AS shift FROM d
      )
      INSERT INTO "CounterCeiling" ("tenantId", "businessDay", "shift", "ceiling")
      SELECT ${tenantId}::uuid, latest.day, latest.shift, ${size} FROM latest
      ON CONFLICT ("tenantId", "businessDay", "shift")
        DO UPDATE SET "ceiling" = "CounterCeiling"."ceiling" + ${size}, "updatedAt" = now()
      RETURNING "businessDay", "shift", "ceiling"`;
    if (!row) throw new Error("reserveCurrent returned no row");
    return { businessDay: fromSqlDate(row.businessDay), shift: row.shift, lo: row.ceiling - size, hi: row.ceiling };
  }

  async issueDirect(tenantId: string, day: BusinessDay): Promise<IssuedNumber> {
    const b = await this.reserveCurrent(tenantId, day, 1);
    return { businessDay: b.businessDay, shift: b.shift, number: b.hi };
  }
}

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
