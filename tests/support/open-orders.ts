/** The floor in tests: open orders hold their numbers across shifts and days (decision 0027). */
import type { Db } from "@/lib/adapters/postgres/prisma.server";

/** Collects every open order of a tenant: a test of restarting numbers starts with a clear floor. */
export function collectAll(db: Db, tenantId: string): Promise<unknown> {
  return db.order.updateMany({ where: { tenantId, status: { in: ["PLACED", "READY"] } }, data: { status: "COLLECTED", collectedAt: new Date() } });
}
