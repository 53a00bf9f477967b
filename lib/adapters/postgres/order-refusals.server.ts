/**
 * Why the unique indexes refused a new order, decided from the rows, not from the index
 * PostgreSQL names (decision 0034). A row can break several at once — a number handed out
 * twice in its shift while the first is still open breaks the shift's index and the index
 * over open numbers — and PostgreSQL names the first it checks, which is the order the
 * indexes were created in: a dump and restore changes it. The recovery differs (a repeated
 * number abandons the counter's block; an open one is skipped), so it must not.
 */
import { DuplicateIdempotencyKeyError, DuplicateNumberError, NumberOpenError, type OrderRecord } from "@/lib/core/ports";
import type { Db } from "./prisma.server";

/** The partial unique index over open orders' displayed numbers (migration 20261125221512_open_numbers). */
export const OPEN_NUMBER_INDEX = "Order_open_number_key";

/** The stored rows `r` collides with, one query. */
async function collisions(db: Pick<Db, "$queryRaw">, r: OrderRecord): Promise<{ key: boolean; shift: boolean; open: boolean }> {
  const [row] = await db.$queryRaw<{ key: boolean; shift: boolean; open: boolean }[]>`
    SELECT
      EXISTS (SELECT 1 FROM "Order" WHERE "tenantId" = ${r.tenantId}::uuid AND "businessDay" = ${r.businessDay}::date
        AND "idempotencyKey" = ${r.idempotencyKey}::text
        AND ("idempotencyScope" = ${r.idempotencyScope}::text OR (${r.idempotencyScope}::text IS NULL AND "idempotencyScope" IS NULL))) AS "key",
      EXISTS (SELECT 1 FROM "Order" WHERE "tenantId" = ${r.tenantId}::uuid AND "businessDay" = ${r.businessDay}::date AND shift = ${r.shift}::int
        AND ((${r.seriesId}::uuid IS NULL AND "seriesId" IS NULL AND number = ${r.number}::int)
          OR ("seriesId" = ${r.seriesId}::uuid AND ticket = ${r.ticket}::int))) AS "shift",
      EXISTS (SELECT 1 FROM "Order" WHERE "tenantId" = ${r.tenantId}::uuid AND prefix = ${r.prefix} AND number = ${r.number}::int
        AND status IN ('PLACED', 'READY') AND "clearedAt" IS NULL AND NOT "sharedOpenNumber") AS "open"`;
  return row!;
}

/**
 * The error for `r`, refused by a unique index (`named`: what the driver reported of it).
 * Every collision is looked for, and the first of: the key (another attempt of the same
 * order: its answer is the replay), the shift's own number or ticket (the counter repeated
 * itself: distrust its block), an open order showing the number (skip it). None found (the
 * other row moved on since): the index named decides, as nothing better is known.
 */
export async function refusalOf(db: Pick<Db, "$queryRaw">, r: OrderRecord, named: string): Promise<Error> {
  const found = await collisions(db, r);
  const key = () => new DuplicateIdempotencyKeyError(r.idempotencyKey ?? "");
  const duplicate = () => new DuplicateNumberError(r.businessDay, r.shift, r.seriesId === null ? r.number : (r.ticket ?? r.number));
  const open = () => new NumberOpenError(r.number, r.prefix);
  if (found.key) return key();
  if (found.shift) return duplicate();
  if (found.open) return open();
  if (named.includes("idempotencyKey") || named.includes("idempotency_key")) return key();
  if (named.includes(OPEN_NUMBER_INDEX) || named.includes("prefix")) return open();
  return duplicate();
}
