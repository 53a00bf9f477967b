/**
 * A customer's browser subscribing to its order's "ready" (decision 0053): public, the
 * order's id is the capability. The body is checked here; the order's state and the count
 * per order are decided by the store under the order's row lock.
 */
import { z } from "zod";
import { AppError } from "../errors";
import { isUuid } from "../ids";
import type { Locale } from "../locales";
import { parseOrThrow } from "../orders";
import type { PushSubscriptionStore } from "../ports";
import type { Tenant } from "../tenants";
import { endpointProblem, MAX_ENDPOINT_LENGTH } from "./push-services";

/** Browsers of one order (a couple's two phones, a phone and a watch…); more is someone's script. */
export const SUBSCRIPTIONS_PER_ORDER = 5;

export const PUSH_OFF_MESSAGE = "Push notifications are off on this server (PUSH_CONTACT is not set).";

export const pushOff = (): AppError => new AppError("NOT_FOUND", { message: PUSH_OFF_MESSAGE, userMessage: PUSH_OFF_MESSAGE, reason: "pushOff" });

/** base64url (no padding) of exactly `bytes` bytes. */
const base64url = (bytes: number, what: string) =>
  z
    .string()
    .max(200)
    .refine((v) => /^[A-Za-z0-9_-]+=*$/.test(v) && Buffer.from(v.replace(/=+$/, ""), "base64url").length === bytes, {
      message: `must be the base64url of ${what} (${bytes} bytes)`,
    });

export const subscriptionSchema = z.strictObject({
  endpoint: z.string().min(1).max(MAX_ENDPOINT_LENGTH),
  keys: z.strictObject({
    p256dh: base64url(65, "an uncompressed P-256 public key").refine((v) => Buffer.from(v.replace(/=+$/, ""), "base64url")[0] === 4, {
      message: "must be an uncompressed P-256 point (starting with 0x04)",
    }),
    auth: base64url(16, "the auth secret"),
  }),
  // What PushSubscription.toJSON() also carries; ignored.
  expirationTime: z.number().nullable().optional(),
});

export class PushSubscriptions {
  constructor(
    private readonly deps: {
      store: PushSubscriptionStore;
      /** Whether push is on (PUSH_CONTACT set and the key readable). */
      enabled: () => boolean;
      /** PUSH_SERVICES origins. */
      services: readonly string[];
    },
  ) {}

  async subscribe(tenant: Pick<Tenant, "id" | "slug">, orderId: string, input: unknown, lang: Locale): Promise<{ id: string; created: boolean }> {
    if (!this.deps.enabled()) throw pushOff();
    const body = parseOrThrow(subscriptionSchema, input, "push subscription");
    const problem = endpointProblem(body.endpoint, this.deps.services);
    if (problem)
      throw new AppError("BAD_INPUT", {
        message: `Invalid push subscription: ${problem}`,
        userMessage: problem,
        details: { fields: [{ path: "endpoint", message: problem }] },
      });
    const notFound = new AppError("NOT_FOUND", { message: `No order ${orderId} for ${tenant.slug}`, userMessage: "Order not found.", reason: "orderNotFound" });
    if (!isUuid(orderId)) throw notFound;
    const r = await this.deps.store.add(
      { tenantId: tenant.id, orderId, endpoint: body.endpoint, p256dh: body.keys.p256dh, auth: body.keys.auth, lang },
      SUBSCRIPTIONS_PER_ORDER,
    );
    if (r.kind === "notFound") throw notFound;
    if (r.kind === "finished")
      throw new AppError("CONFLICT", {
        message: `Order ${orderId} is ${r.cleared ? "cleared" : r.status}: no new push subscriptions`,
        userMessage: "This order is finished; there is nothing left to notify you about.",
        reason: "orderFinished",
      });
    if (r.kind === "full")
      throw new AppError("CONFLICT", {
        message: `Order ${orderId} already has ${r.limit} push subscriptions`,
        userMessage: `This order already notifies ${r.limit} devices; no more can be added.`,
        reason: "tooManySubscriptions",
      });
    return { id: r.id, created: r.created };
  }
}
