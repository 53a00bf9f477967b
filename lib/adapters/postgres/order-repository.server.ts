/**
 * The core's OrderRepository on PostgreSQL: Prisma, and prepared SQL for the order's hot
 * paths (order-sql.server.ts) when no webhook event is written with the change.
 */
import type { OrderPart } from "@/lib/core/stations";
import type { BusinessDay } from "@/lib/core/business-day";
import type { Order, OrderMove, OrderStatus } from "@/lib/core/orders";
import { NumberOpenError, type CollectedOrder, type OrderRecord, type OrderRepository } from "@/lib/core/ports";
import type { Emits } from "@/lib/core/webhooks/events";
import type pg from "pg";
import { Prisma, type Db, type Tx } from "./prisma.server";
import type { WebhookOutbox } from "./webhook-outbox.server";
import type { PrismaPrinterStore } from "./printer-store.server";
import type { PrintRequest } from "@/lib/core/ports";
import {
  findOrder,
  findOrderByIdempotencyKey,
  insertOrder,
  orderMoves,
  readyAgain as readyAgainSql,
  updateOrderParts,
  updateOrderStatus,
  violatedConstraint,
} from "./order-sql.server";
import { OPEN_NUMBER_INDEX, refusalOf } from "./order-refusals.server";
import { toOrder, toSqlDate, uniqueViolationOn } from "./rows.server";

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
    /** Where an order's print job is written, in the order's transaction (decision 0029). */
    private readonly prints?: Pick<PrismaPrinterStore, "write" | "committed">,
  ) {}

  /** Whether a change of `tenantId` that `emits` has webhook events to write. */
  private async writesEvents<T>(tenantId: string, emits: Emits<T> | undefined): Promise<boolean> {
    return !!this.outbox && !!emits && (await this.outbox.active(tenantId));
  }

  /**
   * Runs `change` and writes the events it emits in one transaction (none without an
   * outbox), with `also` (an order's print job) in it too.
   */
  private async withEvents<T>(
    tenantId: string,
    emits: Emits<T> | undefined,
    change: (db: Tx | Db) => Promise<T | null>,
    also?: (tx: Tx, row: T) => Promise<void>,
  ): Promise<T | null> {
    const outbox = this.outbox;
    const events = !!outbox && !!emits && (await this.writesEvents(tenantId, emits));
    if (!events && !also) return change(this.db);
    const { row, queued } = await this.db.$transaction(async (tx) => {
      const row = await change(tx);
      if (row !== null && also) await also(tx, row);
      return { row, queued: row === null || !events ? 0 : await outbox.write(tx, tenantId, emits(row)) };
    });
    outbox?.committed(queued);
    return row;
  }

  async insert(r: OrderRecord, emits?: Emits<Order>, print?: PrintRequest | null): Promise<Order> {
    try {
      const prints = print ? this.prints : undefined;
      if (this.sql && !prints && !(await this.writesEvents(r.tenantId, emits))) return await insertOrder(this.sql, r);
      const write = async (db: Tx | Db) =>
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
              prefix: r.prefix,
              seriesId: r.seriesId,
              seriesName: r.seriesName,
              ticket: r.ticket,
              placedBy: r.placedBy,
              stations: (r.stations ?? []) as unknown as Prisma.InputJsonValue,
              service: r.service ?? null,
            },
          }),
        );
      if (prints && print) {
        // The order's jobs are stored exactly when it is: the print outbox.
        const order = await this.withEvents(r.tenantId, emits, write, async (tx, order) => {
          if (print.ticket) {
            await prints.write(tx, r.tenantId, { printerId: print.ticket.printerId, orderId: order.id, kind: "ticket", url: print.ticket.urlOf(order.id) });
          }
          for (const chit of print.chits) {
            await prints.write(tx, r.tenantId, { printerId: chit.printerId, orderId: order.id, kind: "chit", url: null, stationId: chit.stationId });
          }
        });
        prints.committed();
        return order!;
      }
      return (await this.withEvents(r.tenantId, emits, write))!;
    } catch (e) {
      const target = uniqueViolationOn(e) ?? violatedConstraint(e);
      // Which index PostgreSQL names depends on their creation order: the rows decide.
      if (target !== null) throw await refusalOf(this.db, r, target);
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
      // The caller's own order first; an unscoped one (from before keys were scoped) only failing that, until docs/database.md's contract step.
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

  async holdsOpen(tenantId: string, number: number, prefix = ""): Promise<boolean> {
    return (await this.db.order.findFirst({ where: { ...openOf(tenantId), prefix, number }, select: { id: true } })) !== null;
  }

  async openNumbers(tenantId: string, prefix = ""): Promise<Set<number>> {
    const rows = await this.db.order.findMany({ where: { ...openOf(tenantId), prefix }, select: { number: true } });
    return new Set(rows.map((r) => r.number));
  }

  async listRecentlyCollected(tenantId: string, day: BusinessDay, limit: number): Promise<CollectedOrder[]> {
    const rows = await this.db.order.findMany({
      where: { tenantId, businessDay: toSqlDate(day), status: "COLLECTED" },
      orderBy: [{ collectedAt: "desc" }],
      take: limit,
      // Who collected it: its latest move to COLLECTED (none when a node of the release before moved it).
      include: { events: { where: { status: "COLLECTED" }, orderBy: [{ at: "desc" }, { id: "desc" }], take: 1, select: { by: true } } },
    });
    return rows.map(({ events, ...row }) => ({ ...toOrder(row), collectedBy: events[0]?.by ?? null }));
  }

  async moves(tenantId: string, id: string): Promise<OrderMove[]> {
    if (this.sql) return orderMoves(this.sql, tenantId, id);
    return this.db.orderEvent.findMany({
      where: { tenantId, orderId: id },
      orderBy: [{ at: "asc" }, { id: "asc" }],
      select: { status: true, at: true, by: true },
    });
  }

  async readyAgain(tenantId: string, id: string, at: Date): Promise<Order | null> {
    // One statement: the new readyAt and a push to each of the order's subscriptions (decision 0053).
    return readyAgainSql(this.sql ?? this.db, tenantId, id, at);
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

  async updateStatus(
    tenantId: string,
    id: string,
    from: OrderStatus,
    to: OrderStatus,
    at: Date,
    by: string | null,
    emits?: Emits<Order>,
  ): Promise<Order | null> {
    try {
      return await this.writeStatus(tenantId, id, from, to, at, by, emits);
    } catch (e) {
      // Undo of a collected order whose number another open order shows since (decision 0027).
      if ((uniqueViolationOn(e) ?? violatedConstraint(e))?.includes(OPEN_NUMBER_INDEX)) {
        const order = await this.findById(tenantId, id);
        throw new NumberOpenError(order?.number ?? 0, order?.prefix ?? "");
      }
      throw e;
    }
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
    // Parts alone: one conditional UPDATE, no history entry and no event (the order did not move).
    if (status.from === status.to) return updateOrderParts(this.sql ?? this.db, tenantId, id, status.from, parts.from, parts.to);
    return this.writeStatus(tenantId, id, status.from, status.to, at, by, emits, parts);
  }

  /**
   * One statement either way (order-sql.server.ts), the move and its entry in the order's
   * history together: on the pool, or in the transaction that writes the move's webhook events.
   */
  private async writeStatus(
    tenantId: string,
    id: string,
    from: OrderStatus,
    to: OrderStatus,
    at: Date,
    by: string | null,
    emits?: Emits<Order>,
    parts?: { from: readonly OrderPart[]; to: readonly OrderPart[] },
  ): Promise<Order | null> {
    if (this.sql && !(await this.writesEvents(tenantId, emits))) return updateOrderStatus(this.sql, tenantId, id, from, to, at, by, parts);
    return this.withEvents(tenantId, emits, (db) => updateOrderStatus(db, tenantId, id, from, to, at, by, parts));
  }
}
