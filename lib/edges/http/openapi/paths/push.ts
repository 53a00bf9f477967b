/** Web Push for customers' phones (decision 0053): the VAPID key, and subscribing to an order's "ready". */
import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { subscriptionSchema } from "@/lib/core/push/push-subscriptions";
import { noStore } from "../headers";
import { jsonResponse, operation } from "../operation";
import { slug } from "./params";

const subscribed = z.object({ id: z.uuid().meta({ description: "The subscription's id (the same for the same endpoint on the same order)." }) });

export const pushPaths: ZodOpenApiPathsObject = {
  "/api/v1/push/key": {
    get: operation("get", {
      operationId: "getPushKey",
      tag: "Board",
      summary: "The Web Push (VAPID) public key",
      description:
        "The deployment's VAPID public key, for `PushManager.subscribe({ applicationServerKey })`: base64url of the uncompressed P-256 point (65 bytes). 404 while push is off (`PUSH_CONTACT` unset or invalid, or the stored key unreadable): the customer's page then offers no notification. Limited like the board (`PUBLIC_REQUESTS_PER_MINUTE` per address).",
      access: "public",
      ok: {
        200: jsonResponse(
          "The key (cacheable for 5 minutes).",
          z.object({
            publicKey: z
              .string()
              .regex(/^[A-Za-z0-9_-]{87}$/)
              .meta({ example: "BOr3...Q" }),
          }),
          z.object({ "Cache-Control": z.string().optional() }),
        ),
      },
    }),
  },
  "/api/v1/orgs/{slug}/orders/{id}/subscriptions": {
    post: operation("post", {
      operationId: "subscribeToOrder",
      tag: "Board",
      summary: "Tell this browser when the order is ready (Web Push)",
      description:
        "The body is the browser's `PushSubscription.toJSON()`. The endpoint must be https on a browser's push service (Google FCM, Mozilla, Apple, Microsoft) or an origin in `PUSH_SERVICES`, else 400. The order's id is the capability. When the order is made ready, and each time it is called again, every subscription gets one push (encrypted `aes128gcm`, VAPID-signed, `TTL` at most 1800 s, `Urgency: high`, a `Topic` per order) whose JSON payload is `{ title, body, url, tag, number }` in the page's language: `?lang=`, else the `nextup-lang` cookie, the restaurant's default, `Accept-Language`. A subscription made while the order is already ready gets the ready push at once. Posting the same endpoint again updates its keys (200, same id). 404: unknown order, or push is off. 409: the order is collected, cancelled or cleared, or has 5 subscriptions already. Limited like the board (`PUBLIC_REQUESTS_PER_MINUTE` per address).",
      access: "public",
      path: z.object({ slug, id: z.string().meta({ description: "The order's id." }) }),
      query: z.object({ lang: z.enum(["en", "zh-CN"]).optional().meta({ description: "The language of the pushes." }) }),
      body: subscriptionSchema,
      errors: [409],
      ok: {
        201: jsonResponse("Subscribed.", subscribed, noStore),
        200: jsonResponse("Already subscribed: the keys and language are updated.", subscribed, noStore),
      },
    }),
  },
};
