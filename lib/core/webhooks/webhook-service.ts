/**
 * The console's webhooks: create (the secret shown once), list, delete, and each
 * endpoint's recent deliveries. A destination is checked when created (SSRF) and again
 * by the sender at every attempt.
 */
import type { CacheInvalidator } from "../cache-invalidator";
import { z } from "zod";
import { AppError } from "../errors";
import { isUuid } from "../ids";
import { parseOrThrow } from "../orders";
import type { Tenant } from "../tenants";
import { WEBHOOK_EVENT_TYPES } from "./events";
import { addressRefusal, ipLiteral, urlProblem, type DestinationPolicy } from "./destination";
import type { HostResolver, WebhookDeliveryInfo, WebhookEndpoint, WebhookStore } from "./ports";

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

const badUrl = (message: string) =>
  new AppError("BAD_INPUT", {
    message: `Invalid webhook: url: ${message}`,
    userMessage: `url: ${message}`,
    details: { fields: [{ path: "url", message }], why: message },
    reason: "webhookUrlRefused",
  });

export class WebhookService {
  constructor(
    private readonly deps: {
      store: WebhookStore;
      resolve: HostResolver;
      generateSecret: () => string;
      policy: DestinationPolicy;
      invalidate: Pick<CacheInvalidator, "webhooksChanged">;
    },
  ) {}

  list(tenant: Tenant): Promise<WebhookEndpoint[]> {
    return this.deps.store.list(tenant.id);
  }

  /** A new endpoint; `secret` (`whsec_…`) is the only time it is shown. */
  async create(tenant: Tenant, input: unknown, actor: string): Promise<WebhookEndpoint & { secret: string }> {
    const data = parseOrThrow(z.strictObject({ url: z.string({ error: "url must be text" }).trim(), events: eventsSchema }), input ?? {}, "webhook");
    const problem = urlProblem(data.url, this.deps.policy);
    if (problem) throw badUrl(problem);
    await this.checkDestination(data.url);
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

  async deliveries(tenant: Tenant, id: string, limit?: unknown): Promise<WebhookDeliveryInfo[]> {
    const n = parseOrThrow(z.strictObject({ limit: deliveriesLimitSchema }), { limit: limit ?? undefined }, "query");
    const found = isUuid(id) ? await this.deps.store.deliveries(tenant.id, id.toLowerCase(), n.limit) : null;
    if (!found) throw notFound(tenant, id);
    return found;
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
        throw badUrl(`the host ${url.hostname} does not resolve`);
      }
    }
    for (const a of addresses) {
      const refusal = addressRefusal(a, this.deps.policy);
      if (refusal)
        throw badUrl(
          `${literal ? "" : `${url.hostname} resolves to ${a}: `}${refusal}, refused (allowed for a restaurant's own network only with WEBHOOKS_ALLOW_PRIVATE=true)`,
        );
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
