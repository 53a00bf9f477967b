/** Web Push (decision 0053): the subscriptions, the deliveries' outbox, and the send. */
import type { PushKind, PushPayload } from "../push/push-payload";
import type { PushOutcome } from "../push/push-retry";

export interface NewPushSubscription {
  tenantId: string;
  orderId: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  lang: string;
}

export type AddSubscriptionResult =
  | { kind: "stored"; id: string; created: boolean }
  | { kind: "notFound" }
  | { kind: "finished"; status: string; cleared: boolean }
  | { kind: "full"; limit: number };

export interface PushSubscriptionStore {
  /** Stores it (or updates the keys of the same endpoint on the same order) unless the order is finished or already has `limit` others: decided under the order's row lock. */
  add(s: NewPushSubscription, limit: number): Promise<AddSubscriptionResult>;
}

/** One push due, with what the send needs and what decides whether it is still worth sending. */
export interface DuePush {
  id: string;
  tenantId: string;
  subscriptionId: string;
  kind: PushKind;
  /** When the order was made ready or called again: the window starts there. */
  since: Date;
  attempts: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  lang: string;
  order: { id: string; status: string; cleared: boolean; prefix: string; number: number };
  tenant: { slug: string; name: string };
}

export interface PushAttemptRecord {
  at: Date;
  attempts: number;
  status: number | null;
  error: string | null;
}

/** Every write is conditional on `jobId` still owning the delivery: a stale job changes nothing. */
export interface PushLedger {
  due(deliveryId: string, jobId: string): Promise<DuePush | null>;
  finish(deliveryId: string, jobId: string, outcome: "delivered" | "gave_up" | "expired" | "skipped", r: PushAttemptRecord): Promise<void>;
  retry(deliveryId: string, jobId: string, r: PushAttemptRecord & { nextAt: Date }): Promise<void>;
  /** The push service said the subscription is gone (404/410): it and its deliveries are deleted. */
  gone(deliveryId: string, jobId: string, subscriptionId: string): Promise<void>;
  defer(deliveryId: string, jobId: string, until: Date): Promise<void>;
}

export interface PushRequest {
  endpoint: string;
  p256dh: string;
  auth: string;
  payload: PushPayload;
  ttl: number;
  topic: string;
}

export interface PushAnswerRecord {
  status: number | null;
  retryAfterSeconds?: number | null;
  error?: string;
}

export type PushSender = (r: PushRequest) => Promise<PushAnswerRecord>;

export interface PushMetrics {
  send(outcome: PushOutcome): void;
}
