/** What the webhooks need from the outside world: storage, DNS, HTTP, metrics. */
import type { AuditEntry } from "../audit";
import type { AttemptResult } from "../webhooks/retry";
import type { OutboxEvent, WebhookEventType } from "../webhooks/events";

/** An endpoint as listed: never its secret. */
export interface WebhookEndpoint {
  id: string;
  url: string;
  events: WebhookEventType[];
  createdAt: Date;
  createdBy: string | null;
}

/** One message to one endpoint and how its attempts went. */
export interface WebhookDeliveryInfo {
  /** Also the `webhook-id` header of every attempt. */
  id: string;
  type: string;
  createdAt: Date;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  gaveUpAt: Date | null;
}

type AuditRecord = Omit<AuditEntry, "at">;

export interface WebhookStore {
  list(tenantId: string): Promise<WebhookEndpoint[]>;
  count(tenantId: string): Promise<number>;
  /** Stores an endpoint with its signing secret (kept so it can sign) and its audit entry, in one transaction. */
  create(
    tenantId: string,
    e: { url: string; events: WebhookEventType[]; secret: string; createdBy: string },
    audit: (e: WebhookEndpoint) => AuditRecord,
  ): Promise<WebhookEndpoint>;
  /** Deletes an endpoint of this tenant and its deliveries, with its audit entry; null when the tenant has none of that id. */
  delete(tenantId: string, id: string, audit: (e: WebhookEndpoint) => AuditRecord): Promise<WebhookEndpoint | null>;
  /**
   * Changes an endpoint's URL and/or events, with its audit entry (`audit` sees it before and
   * after; null: nothing changed, nothing written); null when the tenant has no such endpoint.
   */
  update(
    tenantId: string,
    id: string,
    patch: { url?: string; events?: WebhookEventType[] },
    audit: (before: WebhookEndpoint, after: WebhookEndpoint) => AuditRecord | null,
  ): Promise<WebhookEndpoint | null>;
  /**
   * Replaces an endpoint's signing secret (sealed as when created), with its audit entry, in
   * one transaction; null when the tenant has no such endpoint.
   */
  rotateSecret(tenantId: string, id: string, secret: string, audit: (e: WebhookEndpoint) => AuditRecord): Promise<WebhookEndpoint | null>;
  /**
   * Queues `event` for this one endpoint (whatever it subscribed to), like any message, with
   * its audit entry; the delivery's id, or null when the tenant has no such endpoint.
   */
  ping(tenantId: string, id: string, event: OutboxEvent, audit: (e: WebhookEndpoint) => AuditRecord): Promise<string | null>;
  /** The latest `limit` deliveries of an endpoint of this tenant, newest first; null when the tenant has no such endpoint. */
  deliveries(tenantId: string, endpointId: string, limit: number): Promise<WebhookDeliveryInfo[] | null>;
}

/** A host name's addresses (DNS); rejects when it has none. */
export type HostResolver = (host: string) => Promise<string[]>;

/** A message due for an attempt, with what signing and sending it needs. */
export interface DueDelivery {
  id: string;
  tenantId: string;
  type: string;
  body: string;
  /** Attempts made before this one. */
  attempts: number;
  url: string;
  /** `whsec_…`; null when the stored secret cannot be read (SESSION_SECRET changed). */
  secret: string | null;
}

export interface DeliveryLedger {
  /** The delivery `jobId` is to attempt; null when that job is stale (the message is done, deleted, or owned by a newer job). */
  due(deliveryId: string, jobId: string): Promise<DueDelivery | null>;
  /**
   * Records an attempt made by `jobId`. With `nextAttemptAt`, the next attempt's job is
   * queued in the same transaction. Nothing is written when `jobId` no longer owns the row.
   */
  record(
    deliveryId: string,
    jobId: string,
    r: { attempts: number; at: Date; result: AttemptResult; delivered: boolean; nextAttemptAt: Date | null },
  ): Promise<void>;
  /**
   * Hands the attempt `jobId` owns to a new job starting at `until`, with nothing attempted
   * (its restaurant already has its share of this node's workers, decision 0044). Nothing is
   * written when `jobId` no longer owns the row.
   */
  defer(deliveryId: string, jobId: string, until: Date): Promise<void>;
}

/** Signs and POSTs one attempt; resolves with what the endpoint answered, never rejects for network reasons. */
export type WebhookSender = (m: { url: string; id: string; body: string; secret: string }) => Promise<AttemptResult>;

/**
 * delivered, retrying, gave_up: what an attempt ended in; failed: it could not be made (an error
 * in Nextup; the queue retries it); deferred: not made yet, its restaurant had its share of the workers.
 */
export type DeliveryOutcome = "delivered" | "retrying" | "gave_up" | "failed" | "deferred";

export interface WebhookMetrics {
  delivery(outcome: DeliveryOutcome): void;
}
