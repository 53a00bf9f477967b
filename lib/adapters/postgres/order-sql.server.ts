/**
 * The order's hot paths in SQL, as prepared statements over the Prisma client's own pool:
 * taking an order, reading one (by id or by idempotency key), moving it. Prisma costs over a
 * millisecond of CPU per query (decision 0018). The insert runs for a restaurant without
 * webhooks, whose changes need no outbox rows in their transaction (with webhooks the
 * repository goes through Prisma); the move is the same statement either way, run in the
 * outbox's transaction when there is one; the reads run for every restaurant. The inserts asked for
 * in one turn of the event loop go as one statement, each retried alone if its row did not.
 */
import { randomUUID } from "node:crypto";
import type DataLoader from "dataloader";
import type pg from "pg";
import type { BusinessDay } from "@/lib/core/business-day";
import { asService, type Order, type OrderItem, type OrderMove, type OrderStatus } from "@/lib/core/orders";
import type { OrderRecord } from "@/lib/core/ports";
import { toParts, type OrderPart } from "@/lib/core/stations";
import type { Tx } from "./prisma.server";
import { turnBatcher } from "./turn-batcher.server";

/** Every column, the business day as "YYYY-MM-DD" (node-postgres would make a local Date of a `date`). */
const COLUMNS = `id, "tenantId", "businessDay"::text AS "businessDay", shift, number, status, items, note, channel, "idempotencyKey", "idempotencyScope", "requestHash", "createdAt", "readyAt", "collectedAt", "cancelledAt", "clearedAt", prefix, "seriesId", "seriesName", ticket, "placedBy", stations, service`;

type OrderRow = Omit<Order, "items" | "stations" | "service"> & { items: unknown; stations: unknown; service: string | null };

const toOrder = (row: OrderRow): Order => ({
  ...row,
  items: (Array.isArray(row.items) ? row.items : []) as OrderItem[],
  stations: toParts(row.stations),
  service: asService(row.service),
});

const INSERT_COLUMNS = `id, "tenantId", "businessDay", shift, number, items, note, channel, "idempotencyKey", "requestHash", "idempotencyScope", prefix, "seriesId", "seriesName", ticket, "placedBy", stations, service`;

/** One row alone: its own error (a 23505 naming the unique constraint) is the caller's. */
async function insertOne(pool: pg.Pool, r: OrderRecord, id: string = randomUUID()): Promise<Order> {
  const { rows } = await pool.query<OrderRow>({
    name: "nextup-order-insert",
    text: `INSERT INTO "Order" (${INSERT_COLUMNS})
VALUES ($1, $2, $3::date, $4, $5, $6::jsonb, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17::jsonb, $18) RETURNING ${COLUMNS}`,
    values: [
      id,
      r.tenantId,
      r.businessDay,
      r.shift,
      r.number,
      JSON.stringify(r.items),
      r.note ?? null,
      r.channel,
      r.idempotencyKey,
      r.requestHash,
      r.idempotencyScope,
      r.prefix,
      r.seriesId,
      r.seriesName,
      r.ticket,
      r.placedBy,
      JSON.stringify(r.stations ?? []),
      r.service ?? null,
    ],
  });
  return toOrder(rows[0]!);
}

/** Settled outcomes as DataLoader wants them: a value, or the Error that caller gets. */
const outcomes = async (work: Promise<Order>[]): Promise<(Order | Error)[]> =>
  (await Promise.allSettled(work)).map((s) => (s.status === "fulfilled" ? s.value : s.reason instanceof Error ? s.reason : new Error(String(s.reason))));

/** One statement; a row it did not store (a conflict), or every row if it failed, is retried alone for its own outcome. */
async function insertBatch(pool: pg.Pool, records: readonly OrderRecord[]): Promise<(Order | Error)[]> {
  const ids = records.map(() => randomUUID());
  let stored: Map<string, OrderRow>;
  try {
    // Rows go in (tenant, day, shift, number) order, so two nodes' batches lock index entries alike.
    const { rows } = await pool.query<OrderRow>({
      name: "nextup-order-insert-batch",
      text: `INSERT INTO "Order" (${INSERT_COLUMNS})
SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::date[], $4::int[], $5::int[], $6::jsonb[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::uuid[], $14::text[], $15::int[], $16::text[], $17::jsonb[], $18::text[])
ORDER BY 2, 3, 4, 5
ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
      values: [
        ids,
        records.map((r) => r.tenantId),
        records.map((r) => r.businessDay),
        records.map((r) => r.shift),
        records.map((r) => r.number),
        records.map((r) => JSON.stringify(r.items)),
        records.map((r) => r.note ?? null),
        records.map((r) => r.channel),
        records.map((r) => r.idempotencyKey),
        records.map((r) => r.requestHash),
        records.map((r) => r.idempotencyScope),
        records.map((r) => r.prefix),
        records.map((r) => r.seriesId),
        records.map((r) => r.seriesName),
        records.map((r) => r.ticket),
        records.map((r) => r.placedBy),
        records.map((r) => JSON.stringify(r.stations ?? [])),
        records.map((r) => r.service ?? null),
      ],
    });
    stored = new Map(rows.map((row) => [row.id, row]));
  } catch {
    stored = new Map();
  }
  return outcomes(records.map((r, i) => (stored.has(ids[i]!) ? Promise.resolve(toOrder(stored.get(ids[i]!)!)) : insertOne(pool, r, ids[i]))));
}

// One batcher per pool; a WeakMap lets a closed pool go.
const inserters = new WeakMap<pg.Pool, DataLoader<OrderRecord, Order>>();

export async function insertOrder(pool: pg.Pool, r: OrderRecord): Promise<Order> {
  let loader = inserters.get(pool);
  if (!loader) {
    // An insert alone in its turn is the single-row statement.
    loader = turnBatcher({ many: (records) => insertBatch(pool, records), one: (record) => insertOne(pool, record), maxBatchSize: 200 });
    inserters.set(pool, loader);
  }
  return loader.load(r);
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
 * The order `scope` took on `day` with idempotency key `key` (the unique index on tenant,
 * day, scope and key), else one taken with that key before keys were scoped (no scope):
 * the lookup before, while and after an idempotent order is placed. One round trip. The
 * unscoped part goes at the contract step in docs/database.md ("Upgrades").
 */
export async function findOrderByIdempotencyKey(pool: pg.Pool, tenantId: string, day: BusinessDay, scope: string, key: string): Promise<Order | null> {
  const { rows } = await pool.query<OrderRow>({
    name: "nextup-order-find-by-scoped-key",
    text: `SELECT ${COLUMNS} FROM "Order"
WHERE "tenantId" = $1 AND "businessDay" = $2::date AND "idempotencyKey" = $3 AND ("idempotencyScope" = $4 OR "idempotencyScope" IS NULL)
ORDER BY "idempotencyScope" NULLS LAST LIMIT 1`,
    values: [tenantId, day, key, scope],
  });
  return rows[0] ? toOrder(rows[0]) : null;
}

/**
 * One push per subscription of the order in `moved` (decision 0053), written by the statement
 * that moved it: no push without its move, nothing to do for an order no one subscribed to.
 */
const PUSH_DELIVERIES = (kind: "ready" | "again", since: string) =>
  `INSERT INTO "PushDelivery" (id, "tenantId", "subscriptionId", "orderId", kind, since)
  SELECT gen_random_uuid(), s."tenantId", s.id, s."orderId", '${kind}', ${since} FROM "PushSubscription" s JOIN moved m ON s."orderId" = m.id
  ON CONFLICT DO NOTHING`;

/**
 * A ready order called again: its readyAt is now `at` (the board shows it again), and each
 * subscription gets one more push, in the same statement. Null when it is not ready (or cleared).
 */
export async function readyAgain(on: pg.Pool | Pick<Tx, "$queryRawUnsafe">, tenantId: string, id: string, at: Date): Promise<Order | null> {
  const text = `WITH moved AS (
  UPDATE "Order" SET "readyAt" = $3::timestamptz
  WHERE id = $1::uuid AND "tenantId" = $2::uuid AND status = 'READY' AND "clearedAt" IS NULL RETURNING ${COLUMNS}
), push AS (${PUSH_DELIVERIES("again", "$3::timestamptz")})
SELECT * FROM moved`;
  const values = [id, tenantId, at];
  const rows =
    "query" in on ? (await on.query<OrderRow>({ name: "nextup-order-ready-again", text, values })).rows : await on.$queryRawUnsafe<OrderRow[]>(text, ...values);
  return rows[0] ? toOrder(rows[0]) : null;
}

const STAMP: Partial<Record<OrderStatus, string>> = { READY: `"readyAt"`, COLLECTED: `"collectedAt"`, CANCELLED: `"cancelledAt"` };

/**
 * `from` → `to` if the order is still `from` and not cleared off the floor: the write itself
 * decides (two screens may race, a clear may land after the caller read the order), and the
 * loser gets null. The one statement that moves an order, on the pool (prepared) or in the
 * Prisma transaction that writes the move's webhook events (decision 0034). The same
 * statement stores the move in the order's history (`OrderEvent`, with `at` and `by`) from
 * the row it updated: a move refused by its condition updates no row and so stores nothing,
 * and no move is stored without its event. PLACED → READY also writes the order's pushes
 * (decision 0053), one per subscription, in the same statement.
 * Undo clears the stamp of the step taken back: READY → PLACED drops readyAt, COLLECTED → READY drops collectedAt.
 * With `parts` (a station's Done or Undo that moves the order, issue #40) the order's parts
 * become `parts.to` only if they are still `parts.from`: the same single write decides both.
 */
export async function updateOrderStatus(
  on: pg.Pool | Pick<Tx, "$queryRawUnsafe">,
  tenantId: string,
  id: string,
  from: OrderStatus,
  to: OrderStatus,
  at: Date,
  by: string | null,
  parts?: { from: readonly OrderPart[]; to: readonly OrderPart[] },
): Promise<Order | null> {
  const set = [`status = $4::"OrderStatus"`];
  if (STAMP[to]) set.push(`${STAMP[to]} = $5::timestamptz`);
  if (to === "PLACED") set.push(`"readyAt" = NULL`);
  if (from === "COLLECTED") set.push(`"collectedAt" = NULL`);
  if (parts) set.push(`stations = $8::jsonb`);
  const text = `WITH moved AS (
  UPDATE "Order" SET ${set.join(", ")}
  WHERE id = $1::uuid AND "tenantId" = $2::uuid AND status = $3::"OrderStatus" AND "clearedAt" IS NULL${parts ? ` AND stations = $9::jsonb` : ""} RETURNING ${COLUMNS}
), event AS (
  INSERT INTO "OrderEvent" (id, "tenantId", "orderId", status, at, by) SELECT $7::uuid, "tenantId", id, status, $5::timestamptz, $6::text FROM moved
)${from === "PLACED" && to === "READY" ? `, push AS (${PUSH_DELIVERIES("ready", "$5::timestamptz")})` : ""}
SELECT * FROM moved`;
  const values: unknown[] = [id, tenantId, from, to, at, by, randomUUID()];
  if (parts) values.push(JSON.stringify(parts.to), JSON.stringify(parts.from));
  const name = `nextup-order-move-${from}-${to}${parts ? "-parts" : ""}`;
  const rows = "query" in on ? (await on.query<OrderRow>({ name, text, values })).rows : await on.$queryRawUnsafe<OrderRow[]>(text, ...values);
  return rows[0] ? toOrder(rows[0]) : null;
}

/**
 * A station's Done or Undo that leaves the order's status as it is: its parts become `to`
 * only if they are still `from` and the order is still `status` and on the floor. Two
 * stations finishing at once on two nodes: one write wins, the other re-reads and sees it.
 */
export async function updateOrderParts(
  on: pg.Pool | Pick<Tx, "$queryRawUnsafe">,
  tenantId: string,
  id: string,
  status: OrderStatus,
  from: readonly OrderPart[],
  to: readonly OrderPart[],
): Promise<Order | null> {
  const text = `UPDATE "Order" SET stations = $4::jsonb
WHERE id = $1::uuid AND "tenantId" = $2::uuid AND status = $3::"OrderStatus" AND "clearedAt" IS NULL AND stations = $5::jsonb RETURNING ${COLUMNS}`;
  const values = [id, tenantId, status, JSON.stringify(to), JSON.stringify(from)];
  const rows =
    "query" in on ? (await on.query<OrderRow>({ name: "nextup-order-parts", text, values })).rows : await on.$queryRawUnsafe<OrderRow[]>(text, ...values);
  return rows[0] ? toOrder(rows[0]) : null;
}

/** The stored moves of an order, oldest first (moves stored in one millisecond: in the order they were written is not known; by id). */
export async function orderMoves(pool: pg.Pool, tenantId: string, id: string): Promise<OrderMove[]> {
  const { rows } = await pool.query<OrderMove>({
    name: "nextup-order-moves",
    text: `SELECT status, at, by FROM "OrderEvent" WHERE "orderId" = $1::uuid AND "tenantId" = $2::uuid ORDER BY at, id`,
    values: [id, tenantId],
  });
  return rows;
}

/** The unique constraint a node-postgres error violated (23505), else null. */
export function violatedConstraint(e: unknown): string | null {
  const err = e as { code?: unknown; constraint?: unknown } | null;
  return err && err.code === "23505" && typeof err.constraint === "string" ? err.constraint : null;
}
