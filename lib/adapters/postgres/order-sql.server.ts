/**
 * The order's hot paths in SQL, as prepared statements over the Prisma client's own pool:
 * taking an order, reading one (by id or by idempotency key), moving it. Prisma costs over a
 * millisecond of CPU per query (decision 0018). The writes run for a restaurant without
 * webhooks, whose changes need no outbox rows in their transaction (with webhooks the
 * repository goes through Prisma); the reads run for every restaurant.
 */
import { randomUUID } from "node:crypto";
import type pg from "pg";
import type { BusinessDay } from "@/lib/core/business-day";
import type { Order, OrderItem, OrderStatus } from "@/lib/core/orders";
import type { OrderRecord } from "@/lib/core/ports";

/** Every column, the business day as "YYYY-MM-DD" (node-postgres would make a local Date of a `date`). */
const COLUMNS = `id, "tenantId", "businessDay"::text AS "businessDay", shift, number, status, items, note, channel, "idempotencyKey", "requestHash", "createdAt", "readyAt", "collectedAt", "cancelledAt", "clearedAt"`;

type OrderRow = Omit<Order, "items"> & { items: unknown };

const toOrder = (row: OrderRow): Order => ({ ...row, items: (Array.isArray(row.items) ? row.items : []) as OrderItem[] });

export async function insertOrder(pool: pg.Pool, r: OrderRecord): Promise<Order> {
  const { rows } = await pool.query<OrderRow>({
    name: "nextup-order-insert",
    text: `INSERT INTO "Order" (id, "tenantId", "businessDay", shift, number, items, note, channel, "idempotencyKey", "requestHash")
VALUES ($1, $2, $3::date, $4, $5, $6::jsonb, $7, $8, $9, $10) RETURNING ${COLUMNS}`,
    values: [randomUUID(), r.tenantId, r.businessDay, r.shift, r.number, JSON.stringify(r.items), r.note ?? null, r.channel, r.idempotencyKey, r.requestHash],
  });
  return toOrder(rows[0]!);
}

export async function findOrder(pool: pg.Pool, tenantId: string, id: string): Promise<Order | null> {
  const { rows } = await pool.query<OrderRow>({
    name: "nextup-order-find",
    text: `SELECT ${COLUMNS} FROM "Order" WHERE id = $1 AND "tenantId" = $2`,
    values: [id, tenantId],
  });
  return rows[0] ? toOrder(rows[0]) : null;
}

/**
 * The order taken on `day` with idempotency key `key`, if any (the unique index on
 * tenant, day and key): the lookup before, while and after an idempotent order is placed.
 */
export async function findOrderByIdempotencyKey(pool: pg.Pool, tenantId: string, day: BusinessDay, key: string): Promise<Order | null> {
  const { rows } = await pool.query<OrderRow>({
    name: "nextup-order-find-by-key",
    text: `SELECT ${COLUMNS} FROM "Order" WHERE "tenantId" = $1 AND "businessDay" = $2::date AND "idempotencyKey" = $3`,
    values: [tenantId, day, key],
  });
  return rows[0] ? toOrder(rows[0]) : null;
}

const STAMP: Partial<Record<OrderStatus, string>> = { READY: `"readyAt"`, COLLECTED: `"collectedAt"`, CANCELLED: `"cancelledAt"` };

/**
 * `from` → `to` if the order is still `from` (two screens may race: the loser gets null).
 * Undo clears the stamp of the step taken back: READY → PLACED drops readyAt, COLLECTED → READY drops collectedAt.
 */
export async function updateOrderStatus(pool: pg.Pool, tenantId: string, id: string, from: OrderStatus, to: OrderStatus, at: Date): Promise<Order | null> {
  const set = [`status = $4::"OrderStatus"`];
  if (STAMP[to]) set.push(`${STAMP[to]} = $5`);
  if (to === "PLACED") set.push(`"readyAt" = NULL`);
  if (from === "COLLECTED") set.push(`"collectedAt" = NULL`);
  const { rows } = await pool.query<OrderRow>({
    name: `nextup-order-move-${from}-${to}`,
    text: `UPDATE "Order" SET ${set.join(", ")} WHERE id = $1 AND "tenantId" = $2 AND status = $3::"OrderStatus" RETURNING ${COLUMNS}`,
    values: STAMP[to] ? [id, tenantId, from, to, at] : [id, tenantId, from, to],
  });
  return rows[0] ? toOrder(rows[0]) : null;
}

/** The unique constraint a node-postgres error violated (23505), else null. */
export function violatedConstraint(e: unknown): string | null {
  const err = e as { code?: unknown; constraint?: unknown } | null;
  return err && err.code === "23505" && typeof err.constraint === "string" ? err.constraint : null;
}
