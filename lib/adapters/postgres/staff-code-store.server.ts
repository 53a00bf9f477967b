/** Staff sign-in codes in PostgreSQL (table StaffCredential): hash and generation. */
import type { StaffRole } from "@/lib/core/tenants";
import { type Db, Prisma } from "./prisma.server";
import type { StaffCodeStore } from "@/lib/core/ports";

export class PrismaStaffCodeStore implements StaffCodeStore {
  constructor(private readonly db: Db) {}

  async rotate(tenantId: string, role: StaffRole, secretHash: string, at: Date, audit: Parameters<StaffCodeStore["rotate"]>[4]): Promise<number | null> {
    return this.db.$transaction(async (tx) => {
      const { count } = await tx.staffCredential.updateMany({ where: { tenantId, role }, data: { secretHash, generation: { increment: 1 }, rotatedAt: at } });
      if (count === 0) return null;
      await tx.auditEntry.create({ data: { tenantId, actor: audit.actor, action: audit.action, details: audit.details as Prisma.InputJsonValue } });
      const top = await tx.staffCredential.aggregate({ where: { tenantId, role }, _max: { generation: true } });
      return top._max.generation ?? 1;
    });
  }

  /** The generation sessions of this role must carry (the highest of its credentials); 0 when it has none. */
  async generation(tenantId: string, role: StaffRole): Promise<number> {
    const top = await this.db.staffCredential.aggregate({ where: { tenantId, role }, _max: { generation: true } });
    return top._max.generation ?? 0;
  }
}
