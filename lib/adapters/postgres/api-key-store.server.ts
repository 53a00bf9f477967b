/** API keys in PostgreSQL (table ApiKey): only the SHA-256 of a key is stored, never the key. */
import { type Db, Prisma } from "./prisma.server";
import type { ApiKeyInfo, ApiKeyStore } from "@/lib/core/ports";

const PUBLIC = { id: true, role: true, name: true, prefix: true, createdAt: true, createdBy: true, revokedAt: true } as const;

export class PrismaApiKeyStore implements ApiKeyStore {
  constructor(private readonly db: Db) {}

  async list(tenantId: string): Promise<ApiKeyInfo[]> {
    return this.db.apiKey.findMany({ where: { tenantId }, select: PUBLIC, orderBy: [{ createdAt: "desc" }, { id: "asc" }] });
  }

  async create(tenantId: string, key: Parameters<ApiKeyStore["create"]>[1], audit: Parameters<ApiKeyStore["create"]>[2]): Promise<ApiKeyInfo> {
    return this.db.$transaction(async (tx) => {
      const row = await tx.apiKey.create({ data: { tenantId, ...key }, select: PUBLIC });
      const entry = audit(row);
      await tx.auditEntry.create({ data: { tenantId, actor: entry.actor, action: entry.action, details: entry.details as Prisma.InputJsonValue } });
      return row;
    });
  }

  async revoke(tenantId: string, id: string, at: Date, audit: Parameters<ApiKeyStore["revoke"]>[3]): Promise<{ key: ApiKeyInfo; changed: boolean } | null> {
    return this.db.$transaction(async (tx) => {
      // The tenant filter is the whole check: another restaurant's key is simply not found.
      const { count } = await tx.apiKey.updateMany({ where: { id, tenantId, revokedAt: null }, data: { revokedAt: at } });
      const row = await tx.apiKey.findFirst({ where: { id, tenantId }, select: PUBLIC });
      if (!row) return null;
      if (count === 1) {
        const entry = audit(row);
        await tx.auditEntry.create({ data: { tenantId, actor: entry.actor, action: entry.action, details: entry.details as Prisma.InputJsonValue } });
      }
      return { key: row, changed: count === 1 };
    });
  }
}
