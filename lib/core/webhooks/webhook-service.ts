/**
 * The console's webhooks: create (the secret shown once), list, change (URL, events),
 * a new secret (shown once), delete, send a test message, and each endpoint's recent deliveries. A destination is checked when created (SSRF) and again
 * by the sender at every attempt.
 */
import { z } from "zod";
import { AppError } from "../errors";
import { isUuid } from "../ids";
import { parseOrThrow } from "../orders";
import type { Tenant } from "../tenants";
import { pingEvent, WEBHOOK_EVENT_TYPES } from "./events";
import { addressCheck, ipLiteral, urlProblem, type DestinationPolicy, type RefusalKind } from "./destination";
import type { CacheInvalidator, HostResolver, WebhookDeliveryInfo, WebhookEndpoint, WebhookStore } from "../ports";

/** Endpoints per restaurant. */
export const MAX_WEBHOOKS = 20;

export const deliveriesLimitSchema = z.coerce
  .number({ error: "limit must be a whole number 1–200" })
  .int("limit must be a whole number 1–200")
  .min(1, "limit must be a whole number 1–200")
  .max(200, "limit must be a whole number 1–200")
  .default(50);

const eventsSchema = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { error: `Events must be among ${WEBHOOK_EVENT_TYPES.join(", ")}` }), { error: "events must be a list of event types" })
  .min(1, "Choose at least one event")
  .transform((events) => WEBHOOK_EVENT_TYPES.filter((t) => events.includes(t)));

/** The URL without its query: what the audit log and the logs show (a query may carry a token). */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}${u.search ? "?…" : ""}`;
  } catch {
    return "(invalid URL)";
  }
}

/**
 * Why an address is refused, worded for the manager: `problem` picks the screen's sentence
 * (private: on a private network, which only the operator can allow; metadata: never;
 * linkLocal: only an address the operator names; unresolvable; other). Never names a
 * setting: the manager cannot change the server's environment.
 */
const badUrl = (message: string, problem: RefusalKind | "unresolvable" = "other", host = "") =>
  new AppError("BAD_INPUT", {
    message: `Invalid webhook: url: ${message}`,
    userMessage: `url: ${message}`,
    details: { fields: [{ path: "url", message }], why: message, problem, host },
    reason: "webhookUrlRefused",
  });

const urlSchema = z.string({ error: "url must be text" }).trim();

/** A new endpoint `{ url, events }`. */
export const newWebhookSchema = z.strictObject({ url: urlSchema, events: eventsSchema });

/** `?limit=` of an endpoint's deliveries. */
export const deliveriesQuerySchema = z.strictObject({ limit: deliveriesLimitSchema });

export const webhookPatchSchema = z
  .strictObject({ url: urlSchema.optional(), events: eventsSchema.optional() })
  .refine((p) => p.url !== undefined || p.events !== undefined, { error: "Send url, events or both" });

/** What follows the address's kind in a refusal: what is true under this server's policy, and who can change it. */
const REFUSED: Record<RefusalKind, string> = {
  private:
    ": webhooks go only to public internet addresses here; use the receiver's public https address, or ask whoever runs Nextup to allow the restaurant's own network",
  metadata: ": it hands out the server's credentials, so webhooks never go there, whatever the server allows",
  linkLocal:
    ": refused even where the restaurant's own network is allowed; if a device of yours really has this address, whoever runs Nextup can allow it by name",
  other: ", refused",
};

export class WebhookService {
  constructor(
    private readonly deps: {
      store: WebhookStore;
      resolve: HostResolver;
      generateSecret: () => string;
      policy: DestinationPolicy;
      invalidate: Pick<CacheInvalidator, "webhooksChanged">;
      now?: () => Date;
    },
  ) {}

  list(tenant: Tenant): Promise<WebhookEndpoint[]> {
    return this.deps.store.list(tenant.id);
  }

  /** A new endpoint; `secret` (`whsec_…`) is the only time it is shown. */
  async create(tenant: Tenant, input: unknown, actor: string): Promise<WebhookEndpoint & { secret: string }> {
    const data = parseOrThrow(newWebhookSchema, input ?? {}, "webhook");
    await this.checkUrl(data.url);
    if ((await this.deps.store.count(tenant.id)) >= MAX_WEBHOOKS) {
      throw new AppError("CONFLICT", {
        message: `${tenant.slug} has ${MAX_WEBHOOKS} webhooks`,
        userMessage: `A restaurant may have at most ${MAX_WEBHOOKS} webhooks: delete one first.`,
        reason: "tooManyWebhooks",
        details: { max: MAX_WEBHOOKS },
      });
    }
    const secret = this.deps.generateSecret();
    const made = await this.deps.store.create(tenant.id, { url: data.url, events: data.events, secret, createdBy: actor }, (e) => ({
      actor,
      action: "webhook.create",
      details: { id: e.id, url: displayUrl(e.url), events: e.events },
    }));
    await this.deps.invalidate.webhooksChanged(tenant.id);
    return { ...made, secret };
  }

  /** Deletes an endpoint of this restaurant (its pending messages are dropped); another's or an unknown one is NOT_FOUND. */
  async delete(tenant: Tenant, id: string, actor: string): Promise<WebhookEndpoint> {
    const gone = isUuid(id)
      ? await this.deps.store.delete(tenant.id, id.toLowerCase(), (e) => ({
          actor,
          action: "webhook.delete",
          details: { id: e.id, url: displayUrl(e.url), events: e.events },
        }))
      : null;
    if (!gone) throw notFound(tenant, id);
    await this.deps.invalidate.webhooksChanged(tenant.id);
    return gone;
  }

  /** Changes an endpoint's URL and/or events (checked as when created); audited when something changed. */
  async update(tenant: Tenant, id: string, input: unknown, actor: string): Promise<WebhookEndpoint> {
    const patch = parseOrThrow(webhookPatchSchema, input ?? {}, "webhook");
    if (patch.url !== undefined) await this.checkUrl(patch.url);
    const after = isUuid(id)
      ? await this.deps.store.update(tenant.id, id.toLowerCase(), patch, (before, now) => {
          const changed = (["url", "events"] as const).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(now[k]));
          if (changed.length === 0) return null;
          const shown = (e: WebhookEndpoint, k: "url" | "events") => (k === "url" ? displayUrl(e.url) : e.events);
          return {
            actor,
            action: "webhook.update",
            details: {
              id: now.id,
              url: displayUrl(now.url),
              from: Object.fromEntries(changed.map((k) => [k, shown(before, k)])),
              to: Object.fromEntries(changed.map((k) => [k, shown(now, k)])),
            },
          };
        })
      : null;
    if (!after) throw notFound(tenant, id);
    await this.deps.invalidate.webhooksChanged(tenant.id);
    return after;
  }

  /**
   * A new signing secret for an endpoint (`whsec_…`, shown this once), as when it was created;
   * the old one stops at once: a message still queued is signed with the new one from its
   * next attempt. Audited; another restaurant's or an unknown endpoint is NOT_FOUND.
   */
  async rotateSecret(tenant: Tenant, id: string, actor: string): Promise<WebhookEndpoint & { secret: string }> {
    const secret = this.deps.generateSecret();
    const rotated = isUuid(id)
      ? await this.deps.store.rotateSecret(tenant.id, id.toLowerCase(), secret, (e) => ({
          actor,
          action: "webhook.rotateSecret",
          details: { id: e.id, url: displayUrl(e.url) },
        }))
      : null;
    if (!rotated) throw notFound(tenant, id);
    return { ...rotated, secret };
  }

  /** Queues a `ping` for this endpoint (its outcome shows in its deliveries like any message); audited. */
  async ping(tenant: Tenant, id: string, actor: string): Promise<{ deliveryId: string }> {
    const endpointId = isUuid(id) ? id.toLowerCase() : null;
    const deliveryId = endpointId
      ? await this.deps.store.ping(tenant.id, endpointId, pingEvent(endpointId, this.deps.now?.() ?? new Date()), (e) => ({
          actor,
          action: "webhook.ping",
          details: { id: e.id, url: displayUrl(e.url) },
        }))
      : null;
    if (!deliveryId) throw notFound(tenant, id);
    return { deliveryId };
  }

  async deliveries(tenant: Tenant, id: string, limit?: unknown): Promise<WebhookDeliveryInfo[]> {
    const n = parseOrThrow(deliveriesQuerySchema, { limit: limit ?? undefined }, "query");
    const found = isUuid(id) ? await this.deps.store.deliveries(tenant.id, id.toLowerCase(), n.limit) : null;
    if (!found) throw notFound(tenant, id);
    return found;
  }

  private async checkUrl(url: string): Promise<void> {
    const problem = urlProblem(url, this.deps.policy);
    if (problem) throw badUrl(problem);
    await this.checkDestination(url);
  }

  /** Refuses a destination whose address (or any address its name resolves to) the policy refuses. */
  private async checkDestination(raw: string): Promise<void> {
    const url = new URL(raw);
    const literal = ipLiteral(url);
    let addresses: string[];
    if (literal) addresses = [literal];
    else {
      try {
        addresses = await this.deps.resolve(url.hostname);
      } catch {
        throw badUrl(`the host ${url.hostname} does not resolve`, "unresolvable", url.hostname);
      }
    }
    for (const a of addresses) {
      const refusal = addressCheck(a, this.deps.policy);
      if (refusal) {
        const where = `${literal ? "" : `${url.hostname} resolves to ${a}: `}${refusal.reason}`;
        throw badUrl(`${where}${REFUSED[refusal.kind]}`, refusal.kind, url.hostname);
      }
    }
  }
}

function notFound(tenant: Tenant, id: string): AppError {
  return new AppError("NOT_FOUND", {
    message: `No webhook ${id} in ${tenant.slug}`,
    userMessage: "No such webhook in this restaurant.",
    reason: "webhookNotFound",
  });
}
