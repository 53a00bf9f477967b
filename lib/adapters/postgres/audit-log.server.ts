/** The audit trail in PostgreSQL (table AuditEntry). */
import type { AuditAction, AuditEntry } from "@/lib/core/audit";
import { type Db, Prisma } from "./prisma.server";
import type { AuditLog } from "@/lib/core/ports";

export class PrismaAuditLog implements AuditLog {
  constructor(private readonly db: Db) {}

  async record(tenantId: string, entry: Omit<AuditEntry, "at"> & { at?: Date }): Promise<void> {
    await this.db.auditEntry.create({
      data: { tenantId, actor: entry.actor, action: entry.action, details: entry.details as Prisma.InputJsonValue, ...(entry.at ? { at: entry.at } : {}) },
    });
  }

  async list(tenantId: string, limit: number): Promise<AuditEntry[]> {
    const rows = await this.db.auditEntry.findMany({ where: { tenantId }, orderBy: [{ at: "desc" }, { id: "desc" }], take: limit });
    return rows.map((r) => ({ at: r.at, actor: r.actor, action: r.action as AuditAction, details: (r.details ?? {}) as Record<string, unknown> }));
  }
}
