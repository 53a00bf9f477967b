/**
 * Everything a tenant has stored, as a value to compare before and after a request: a
 * count and a digest of its rows in every table, and its Redis counter hash (so a number
 * drawn and not stored shows even when no row changed).
 */
import type pg from "pg";
import type { Redis } from "ioredis";
import { counterKey } from "@/lib/adapters/redis/counter.server";

const TABLES = ["Order", "Shift", "CounterCeiling", "AuditEntry", "MenuCategory", "MenuItem", "ApiKey", "StaffCredential"] as const;

export type TenantState = Record<string, string | Record<string, string>>;

export async function tenantState(db: pg.Client, redis: Redis, keyPrefix: string, tenantId: string): Promise<TenantState> {
  const columns = [
    ...TABLES.map(
      (t) => `(SELECT count(*) || ':' || md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) FROM "${t}" x WHERE x."tenantId" = $1) AS "${t}"`,
    ),
    `(SELECT md5(x::text) FROM "Tenant" x WHERE x.id = $1) AS "Tenant"`,
  ];
  const { rows } = await db.query<Record<string, string>>(`SELECT ${columns.join(", ")}`, [tenantId]);
  return { ...rows[0]!, counter: await redis.hgetall(counterKey(keyPrefix, tenantId)) };
}
