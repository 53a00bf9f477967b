/** Webhook endpoints in PostgreSQL: the signing secret sealed (SecretCipher), never listed. */
import { randomUUID } from "node:crypto";
import type { WebhookEventType } from "@/lib/core/webhooks/events";
import type { WebhookDeliveryInfo, WebhookEndpoint, WebhookStore } from "@/lib/core/webhooks/ports";
import type { SecretCipher } from "@/lib/auth/webhook-secrets.server";
import { type Db, Prisma } from "./prisma.server";

const PUBLIC = { id: true, url: true, events: true, createdAt: true, createdBy: true } as const;
const toEndpoint = (r: { id: string; url: string; events: string[]; createdAt: Date; createdBy: string | null }): WebhookEndpoint => ({
  ...r,
  events: r.events as WebhookEventType[],
});

export class PrismaWebhookStore implements WebhookStore {
  constructor(
    private readonly db: Db,
    private readonly cipher: SecretCipher,
  ) {}

  async list(tenantId: string): Promise<WebhookEndpoint[]> {
    return (await this.db.webhookEndpoint.findMany({ where: { tenantId }, select: PUBLIC, orderBy: [{ createdAt: "desc" }, { id: "asc" }] })).map(toEndpoint);
  }

  count(tenantId: string): Promise<number> {
    return this.db.webhookEndpoint.count({ where: { tenantId } });
  }

  async create(tenantId: string, e: Parameters<WebhookStore["create"]>[1], audit: Parameters<WebhookStore["create"]>[2]): Promise<WebhookEndpoint> {
    const id = randomUUID();
    return this.db.$transaction(async (tx) => {
      const row = toEndpoint(
        await tx.webhookEndpoint.create({
          data: { id, tenantId, url: e.url, events: e.events, secretEnc: this.cipher.seal(e.secret, id), createdBy: e.createdBy },
          select: PUBLIC,
        }),
      );
      const entry = audit(row);
      await tx.auditEntry.create({ data: { tenantId, actor: entry.actor, action: entry.action, details: entry.details as Prisma.InputJsonValue } });
      return row;
    });
  }

  async delete(tenantId: string, id: string, audit: Parameters<WebhookStore["delete"]>[2]): Promise<WebhookEndpoint | null> {
    return this.db.$transaction(async (tx) => {
      // The tenant filter is the whole check: another restaurant's endpoint is simply not found.
      const row = await tx.webhookEndpoint.findFirst({ where: { id, tenantId }, select: PUBLIC });
      if (!row) return null;
      await tx.webhookEndpoint.deleteMany({ where: { id, tenantId } });
      const entry = audit(toEndpoint(row));
      await tx.auditEntry.create({ data: { tenantId, actor: entry.actor, action: entry.action, details: entry.details as Prisma.InputJsonValue } });
      return toEndpoint(row);
    });
  }

  async deliveries(tenantId: string, endpointId: string, limit: number): Promise<WebhookDeliveryInfo[] | null> {
    const endpoint = await this.db.webhookEndpoint.findFirst({ where: { id: endpointId, tenantId }, select: { id: true } });
    if (!endpoint) return null;
    return this.db.webhookDelivery.findMany({
      where: { endpointId, tenantId },
      select: {
        id: true,
        type: true,
        createdAt: true,
        attempts: true,
        lastStatus: true,
        lastError: true,
        nextAttemptAt: true,
        deliveredAt: true,
        gaveUpAt: true,
      },
      orderBy: [{ createdAt: "desc" }, { id: "asc" }],
      take: limit,
    });
  }
}
