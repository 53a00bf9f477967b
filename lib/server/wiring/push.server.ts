/**
 * Web Push's wiring (decision 0053): PUSH_CONTACT decides whether it is on, the VAPID key is
 * read (or made) at warm-up, the deliveries' relay and workers start with the other workers.
 */
import type { EventPublisher, Logger, Clock } from "@/lib/core/ports";
import { tenantShare } from "@/lib/core/fair-share";
import { PushDispatcher } from "@/lib/core/push/push-dispatcher";
import { contactProblem } from "@/lib/core/push/push-services";
import { PushSubscriptions } from "@/lib/core/push/push-subscriptions";
import type { Locale } from "@/lib/core/locales";
import type { Tenant } from "@/lib/core/tenants";
import type { Db } from "@/lib/adapters/postgres/prisma.server";
import { PushQueue, PUSH_QUEUE_SPEC } from "@/lib/adapters/postgres/push-queue.server";
import { loadVapidKeys, PrismaPushLedger, PrismaPushSubscriptionStore, recentPushes, type VapidKeys } from "@/lib/adapters/postgres/push-store.server";
import { createPushSender } from "@/lib/adapters/push/web-push-sender.server";
import type { SecretCipher } from "@/lib/auth/webhook-secrets.server";
import type { WebhookQueue } from "@/lib/adapters/postgres/webhook-queue.server";
import type { Env } from "../env.server";
import { registerPushMetrics, type AppMetrics } from "../ops/metrics.server";

/** Pushes one node sends at once; one restaurant holds at most half (as webhooks, decision 0044). */
const PUSH_WORKERS = 4;
/** One send's timeout, connection to answer. */
const PUSH_TIMEOUT_MS = 10_000;

export interface PushStatus {
  enabled: boolean;
  /** PUSH_CONTACT when valid. */
  contact: string | null;
  /** Why it is off: "PUSH_CONTACT is not set", what is wrong with it, or the key cannot be read. */
  reason?: string;
}

export interface PushRecent {
  /** Pushes delivered in the last hour. */
  sent: number;
  /** Pushes given up or expired in the last hour. */
  failed: number;
  lastError: string | null;
  lastErrorAt: Date | null;
}

/** `app.push`. */
export interface PushFeature {
  /** base64url of the VAPID public key (65-byte point); null when push is off. */
  publicKey(): Promise<string | null>;
  status(): PushStatus;
  /** A restaurant's pushes of the last hour (the console: "on, but the last pushes failed"). */
  recent(tenantId: string): Promise<PushRecent>;
  /** Stores a browser's subscription to an order (the public REST route). */
  subscribe(tenant: Pick<Tenant, "id" | "slug">, orderId: string, input: unknown, lang: Locale): Promise<{ id: string; created: boolean }>;
}

export function wirePush(deps: { env: Env; db: Db; queue: WebhookQueue; cipher: SecretCipher; metrics: AppMetrics; log: Logger; clock: Clock }): {
  feature: PushFeature;
  warmUp(): Promise<void>;
  start(): Promise<void>;
  stop(): void;
  withPushKick(events: EventPublisher): EventPublisher;
} {
  const { env, db, log, clock } = deps;
  deps.queue.alsoCreate(PUSH_QUEUE_SPEC);
  const queue = new PushQueue(deps.queue.boss, db, log);
  const contact = env.PUSH_CONTACT ?? null;
  const problem = contact === null ? "PUSH_CONTACT is not set" : contactProblem(contact);
  let keys: VapidKeys | null = null;
  let reason: string | undefined = problem ? problem : "starting";
  const enabled = () => keys !== null;
  const metrics = registerPushMetrics(deps.metrics.registry, enabled);
  let dispatcher: PushDispatcher | null = null;

  const subscriptions = new PushSubscriptions({ store: new PrismaPushSubscriptionStore(db), enabled, services: env.PUSH_SERVICES });

  return {
    feature: {
      publicKey: () => Promise.resolve(keys?.publicKey ?? null),
      status: () => (keys ? { enabled: true, contact } : { enabled: false, contact: problem ? null : contact, reason: reason ?? "off" }),
      recent: (tenantId) => recentPushes(db, tenantId),
      subscribe: (tenant, orderId, input, lang) => subscriptions.subscribe(tenant, orderId, input, lang),
    },
    async warmUp() {
      if (problem) {
        if (contact !== null) log.warn({ PUSH_CONTACT: contact, problem }, "PUSH_CONTACT is invalid: customer push notifications are off");
        else log.info({}, "customer push notifications are off (set PUSH_CONTACT to turn them on)");
        return;
      }
      const loaded = await loadVapidKeys(db, deps.cipher);
      if ("unreadable" in loaded) {
        reason = "the stored push key cannot be read (SESSION_SECRET changed?)";
        log.error(
          { table: "PushKey" },
          "the VAPID private key in PushKey cannot be opened with this SESSION_SECRET: push notifications are off. Restore the old SESSION_SECRET, or delete the PushKey row and its subscriptions to make a new key (docs/decisions/0053)",
        );
        return;
      }
      keys = loaded;
      reason = undefined;
      dispatcher = new PushDispatcher({
        ledger: new PrismaPushLedger(db, queue),
        send: createPushSender({ keys, contact: contact!, timeoutMs: PUSH_TIMEOUT_MS, now: () => clock.now() }),
        metrics,
        log,
        clock,
        services: env.PUSH_SERVICES,
        perTenant: tenantShare(PUSH_WORKERS),
      });
    },
    async start() {
      const d = dispatcher;
      if (!d) return;
      await queue.work(PUSH_WORKERS, (deliveryId, jobId) => d.attempt(deliveryId, jobId));
    },
    stop: () => queue.stop(),
    /** After an order is made ready or called again (its deliveries committed with it): queue them now. */
    withPushKick(events) {
      const kick = () => {
        if (keys) queue.kick();
      };
      return {
        ...bind(events),
        orderUpdated(tenant, order) {
          events.orderUpdated(tenant, order);
          if (order.status === "READY") kick();
        },
        orderCalled(tenant, order) {
          events.orderCalled(tenant, order);
          kick();
        },
      };
    },
  };
}

/** The publisher's methods bound to it (a spread of a class instance copies none). */
function bind(events: EventPublisher): EventPublisher {
  return {
    orderCreated: (t, o) => events.orderCreated(t, o),
    orderUpdated: (t, o) => events.orderUpdated(t, o),
    orderCalled: (t, o) => events.orderCalled(t, o),
    shiftStarted: (t, s) => events.shiftStarted(t, s),
    settingsChanged: (t) => events.settingsChanged(t),
    menuChanged: (t) => events.menuChanged(t),
    printersChanged: (t) => events.printersChanged(t),
  };
}
