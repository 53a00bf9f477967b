/** Webhook endpoints in PostgreSQL: the signing secret sealed (SecretCipher), never listed. */
import { randomUUID } from "node:crypto";
import type { OutboxEvent, WebhookEventType } from "@/lib/core/webhooks/events";
import type { WebhookOutbox } from "./webhook-outbox.server";
import type { SecretCipher } from "@/lib/auth/webhook-secrets.server";
import { type Db, Prisma } from "./prisma.server";
import type { WebhookDeliveryInfo, WebhookEndpoint, WebhookStore } from "@/lib/core/ports";

const PUBLIC = { id: true, url: true, events: true, createdAt: true, createdBy: true } as const;
const toEndpoint = (r: { id: string; url: string; events: string[]; createdAt: Date; createdBy: string | null }): WebhookEndpoint => ({
  ...r,
  events: r.events as WebhookEventType[],
});

export class PrismaWebhookStore implements WebhookStore {
  constructor(
    private readonly db: Db,
    private readonly cipher: SecretCipher,
    /** Queues test messages (ping); without it, ping is refused. */
    private readonly outbox?: WebhookOutbox,
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

  async update(
    tenantId: string,
    id: string,
    patch: Parameters<WebhookStore["update"]>[2],
    audit: Parameters<WebhookStore["update"]>[3],
  ): Promise<WebhookEndpoint | null> {
    return this.db.$transaction(async (tx) => {
      // Locked, so two edits of one endpoint audit what each really changed.
      const [locked] = await tx.$queryRaw<
        { id: string }[]
      >`SELECT "id" FROM "WebhookEndpoint" WHERE "id" = ${id}::uuid AND "tenantId" = ${tenantId}::uuid FOR UPDATE`;
      if (!locked) return null;
      const before = toEndpoint(await tx.webhookEndpoint.findFirstOrThrow({ where: { id, tenantId }, select: PUBLIC }));
      const after = toEndpoint(
        await tx.webhookEndpoint.update({
          where: { id },
          data: { ...(patch.url !== undefined ? { url: patch.url } : {}), ...(patch.events !== undefined ? { events: patch.events } : {}) },
          select: PUBLIC,
        }),
      );
      const entry = audit(before, after);
      if (entry) await tx.auditEntry.create({ data: { tenantId, actor: entry.actor, action: entry.action, details: entry.details as Prisma.InputJsonValue } });
      return after;
    });
  }

  async rotateSecret(tenantId: string, id: string, secret: string, audit: Parameters<WebhookStore["rotateSecret"]>[3]): Promise<WebhookEndpoint | null> {
    return this.db.$transaction(async (tx) => {
      const { count } = await tx.webhookEndpoint.updateMany({ where: { id, tenantId }, data: { secretEnc: this.cipher.seal(secret, id) } });
      if (count === 0) return null;
      const row = toEndpoint(await tx.webhookEndpoint.findFirstOrThrow({ where: { id, tenantId }, select: PUBLIC }));
      const entry = audit(row);
      await tx.auditEntry.create({ data: { tenantId, actor: entry.actor, action: entry.action, details: entry.details as Prisma.InputJsonValue } });
      return row;
    });
  }

  async ping(tenantId: string, id: string, event: OutboxEvent, audit: Parameters<WebhookStore["ping"]>[3]): Promise<string | null> {
    const outbox = this.outbox;
    if (!outbox) throw new Error("PrismaWebhookStore without an outbox cannot queue a ping");
    const deliveryId = await this.db.$transaction(async (tx) => {
      const row = await tx.webhookEndpoint.findFirst({ where: { id, tenantId }, select: PUBLIC });
      if (!row) return null;
      const queued = await outbox.writeTo(tx, tenantId, id, event);
      const entry = audit(toEndpoint(row));
      await tx.auditEntry.create({ data: { tenantId, actor: entry.actor, action: entry.action, details: entry.details as Prisma.InputJsonValue } });
      return queued;
    });
    if (deliveryId) outbox.committed(1);
    return deliveryId;
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
