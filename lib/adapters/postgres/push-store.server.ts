/**
 * Web Push in PostgreSQL (decision 0053): the deployment's VAPID key, the subscriptions
 * (stored under the order's row lock), and the deliveries' ledger, each write of which is
 * conditional on the queue job that owns the delivery.
 */
import { createECDH, randomUUID } from "node:crypto";
import type { SecretCipher } from "@/lib/auth/webhook-secrets.server";
import type { AddSubscriptionResult, DuePush, NewPushSubscription, PushAttemptRecord, PushLedger, PushSubscriptionStore } from "@/lib/core/ports";
import type { PushKind } from "@/lib/core/push/push-payload";
import type { Db } from "./prisma.server";
import { pushJob, type PushQueue } from "./push-queue.server";

const KEY_ROW = 1;
/** What the sealed private key is bound to (SecretCipher's associated data). */
const KEY_BINDING = "push-vapid-key-1";

export interface VapidKeys {
  /** base64url, uncompressed P-256 point (65 bytes). */
  publicKey: string;
  /** base64url, the 32-byte scalar. */
  privateKey: string;
}

/**
 * The key pair every node signs with: made by the first node to start (the insert that wins),
 * read by all. `{ unreadable: true }` when the stored private key cannot be opened
 * (SESSION_SECRET changed): push stays off rather than a new key silently orphaning every subscription.
 */
export async function loadVapidKeys(db: Db, cipher: SecretCipher): Promise<VapidKeys | { unreadable: true }> {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const fresh = { publicKey: ecdh.getPublicKey().toString("base64url"), privateKey: ecdh.getPrivateKey().toString("base64url") };
  await db.$executeRaw`
    INSERT INTO "PushKey" (id, "publicKey", "privateKeyEnc") VALUES (${KEY_ROW}, ${fresh.publicKey}, ${cipher.seal(fresh.privateKey, KEY_BINDING)})
    ON CONFLICT (id) DO NOTHING`;
  const row = await db.pushKey.findUniqueOrThrow({ where: { id: KEY_ROW } });
  const privateKey = cipher.open(row.privateKeyEnc, KEY_BINDING);
  return privateKey ? { publicKey: row.publicKey, privateKey } : { unreadable: true };
}

export class PrismaPushSubscriptionStore implements PushSubscriptionStore {
  constructor(private readonly db: Db) {}

  add(s: NewPushSubscription, limit: number): Promise<AddSubscriptionResult> {
    return this.db.$transaction(async (tx): Promise<AddSubscriptionResult> => {
      // The order's row lock orders concurrent subscribes of one order: the count below holds.
      const [order] = await tx.$queryRaw<{ status: string; cleared: boolean }[]>`
        SELECT status::text AS status, "clearedAt" IS NOT NULL AS cleared FROM "Order" WHERE id = ${s.orderId}::uuid AND "tenantId" = ${s.tenantId}::uuid FOR UPDATE`;
      if (!order) return { kind: "notFound" };
      if (order.cleared || (order.status !== "PLACED" && order.status !== "READY")) return { kind: "finished", status: order.status, cleared: order.cleared };
      const same = await tx.pushSubscription.findUnique({ where: { orderId_endpoint: { orderId: s.orderId, endpoint: s.endpoint } }, select: { id: true } });
      if (same) {
        await tx.pushSubscription.update({ where: { id: same.id }, data: { p256dh: s.p256dh, auth: s.auth, lang: s.lang } });
        return { kind: "stored", id: same.id, created: false };
      }
      const count = await tx.pushSubscription.count({ where: { orderId: s.orderId } });
      if (count >= limit) return { kind: "full", limit };
      const id = randomUUID();
      await tx.pushSubscription.create({ data: { id, ...s } });
      return { kind: "stored", id, created: true };
    });
  }
}

type DueRow = {
  id: string;
  tenantId: string;
  subscriptionId: string;
  kind: string;
  since: Date;
  attempts: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  lang: string;
  orderId: string;
  status: string;
  cleared: boolean;
  prefix: string;
  number: number;
  slug: string;
  name: string;
};

export class PrismaPushLedger implements PushLedger {
  constructor(
    private readonly db: Db,
    private readonly queue: PushQueue,
  ) {}

  async due(deliveryId: string, jobId: string): Promise<DuePush | null> {
    const [r] = await this.db.$queryRaw<DueRow[]>`
      SELECT d.id::text, d."tenantId"::text AS "tenantId", d."subscriptionId"::text AS "subscriptionId", d.kind, d.since, d.attempts,
        s.endpoint, s.p256dh, s.auth, s.lang, o.id::text AS "orderId", o.status::text AS status, o."clearedAt" IS NOT NULL AS cleared,
        o.prefix, o.number, t.slug, t.name
      FROM "PushDelivery" d JOIN "PushSubscription" s ON s.id = d."subscriptionId" JOIN "Order" o ON o.id = d."orderId" JOIN "Tenant" t ON t.id = o."tenantId"
      WHERE d.id = ${deliveryId}::uuid AND d."jobId" = ${jobId}::uuid AND d.outcome IS NULL`;
    if (!r) return null;
    return {
      id: r.id,
      tenantId: r.tenantId,
      subscriptionId: r.subscriptionId,
      kind: r.kind as PushKind,
      since: r.since,
      attempts: r.attempts,
      endpoint: r.endpoint,
      p256dh: r.p256dh,
      auth: r.auth,
      lang: r.lang,
      order: { id: r.orderId, status: r.status, cleared: r.cleared, prefix: r.prefix, number: r.number },
      tenant: { slug: r.slug, name: r.name },
    };
  }

  async finish(deliveryId: string, jobId: string, outcome: string, r: PushAttemptRecord): Promise<void> {
    await this.db.pushDelivery.updateMany({
      where: { id: deliveryId, jobId, outcome: null },
      data: { outcome, finishedAt: r.at, attempts: r.attempts, lastStatus: r.status, lastError: r.error },
    });
  }

  async retry(deliveryId: string, jobId: string, r: PushAttemptRecord & { nextAt: Date }): Promise<void> {
    await this.requeue(deliveryId, jobId, r.nextAt, { attempts: r.attempts, lastStatus: r.status, lastError: r.error });
  }

  async defer(deliveryId: string, jobId: string, until: Date): Promise<void> {
    await this.requeue(deliveryId, jobId, until, {});
  }

  /** The next job owns the row only if this one still did: a stale duplicate queues nothing. */
  private async requeue(deliveryId: string, jobId: string, at: Date, data: { attempts?: number; lastStatus?: number | null; lastError?: string | null }) {
    const next = randomUUID();
    await this.db.$transaction(async (tx) => {
      const { count } = await tx.pushDelivery.updateMany({ where: { id: deliveryId, jobId, outcome: null }, data: { ...data, jobId: next } });
      if (count === 1) await this.queue.enqueue(tx, [pushJob(next, deliveryId, at)]);
    });
  }

  async gone(deliveryId: string, jobId: string, subscriptionId: string): Promise<void> {
    // Deleting the subscription deletes its deliveries (cascade); only while this job still owns the delivery.
    await this.db.$executeRaw`
      DELETE FROM "PushSubscription" WHERE id = ${subscriptionId}::uuid
        AND EXISTS (SELECT 1 FROM "PushDelivery" WHERE id = ${deliveryId}::uuid AND "jobId" = ${jobId}::uuid AND outcome IS NULL)`;
  }
}

/** The console's glance: the last hour's pushes of a restaurant, and the last failure. */
export async function recentPushes(db: Db, tenantId: string): Promise<{ sent: number; failed: number; lastError: string | null; lastErrorAt: Date | null }> {
  const [r] = await db.$queryRaw<{ sent: bigint; failed: bigint }[]>`
    SELECT count(*) FILTER (WHERE outcome = 'delivered') AS sent, count(*) FILTER (WHERE outcome IN ('gave_up', 'expired')) AS failed
    FROM "PushDelivery" WHERE "tenantId" = ${tenantId}::uuid AND "finishedAt" > now() - interval '1 hour'`;
  const last = await db.pushDelivery.findFirst({
    where: { tenantId, lastError: { not: null }, OR: [{ outcome: { in: ["gave_up", "expired"] } }, { outcome: null }] },
    orderBy: { createdAt: "desc" },
    select: { lastError: true, finishedAt: true, createdAt: true },
  });
  return {
    sent: Number(r?.sent ?? 0),
    failed: Number(r?.failed ?? 0),
    lastError: last?.lastError ?? null,
    lastErrorAt: last ? (last.finishedAt ?? last.createdAt) : null,
  };
}
