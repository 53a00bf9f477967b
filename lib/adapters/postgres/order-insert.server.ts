/**
 * The order INSERT in SQL, as one prepared statement over the shared pool: the hot path of
 * taking an order, for a restaurant without webhooks (with them, the insert and its outbox
 * rows share a Prisma transaction). Decision 0018.
 */
import { randomUUID } from "node:crypto";
import type pg from "pg";
import type { Order, OrderStatus } from "@/lib/core/orders";
import type { OrderRecord } from "@/lib/core/ports";

const INSERT_ORDER = `INSERT INTO "Order" (id, "tenantId", "businessDay", shift, number, items, note, channel, "idempotencyKey", "requestHash")
VALUES ($1, $2, $3::date, $4, $5, $6::jsonb, $7, $8, $9, $10)
RETURNING "businessDay"::text AS day, status, "createdAt"`;

export async function insertOrder(pool: pg.Pool, r: OrderRecord): Promise<Order> {
  const id = randomUUID();
  const { rows } = await pool.query<{ day: string; status: OrderStatus; createdAt: Date }>({
    name: "nextup-insert-order",
    text: INSERT_ORDER,
    values: [id, r.tenantId, r.businessDay, r.shift, r.number, JSON.stringify(r.items), r.note ?? null, r.channel, r.idempotencyKey, r.requestHash],
  });
  const row = rows[0]!;
  return {
    id,
    tenantId: r.tenantId,
    businessDay: row.day,
    shift: r.shift,
    number: r.number,
    status: row.status,
    items: r.items,
    note: r.note ?? null,
    channel: r.channel,
    idempotencyKey: r.idempotencyKey,
    requestHash: r.requestHash,
    createdAt: row.createdAt,
    readyAt: null,
    collectedAt: null,
    cancelledAt: null,
    clearedAt: null,
  };
}

/** The unique constraint a node-postgres error violated (23505), else null. */
export function violatedConstraint(e: unknown): string | null {
  const err = e as { code?: unknown; constraint?: unknown } | null;
  return err && err.code === "23505" && typeof err.constraint === "string" ? err.constraint : null;
}
