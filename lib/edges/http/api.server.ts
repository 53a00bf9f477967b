/**
 * The REST edge: every route handler is wrapped by `api()`, which translates errors once
 * into `{"error":{"code","message"}}` with the right status, and offers the checks a
 * handler needs (API key, rate limit, JSON body with a size limit).
 */
import { AppError, toErrorBody } from "@/lib/core/errors";
import type { StaffRole } from "@/lib/core/tenants";
import { getApp } from "@/lib/server/app-context";
import type { App } from "@/lib/server/app.server";
import type { Caller } from "@/lib/server/access.server";
import { toAppError } from "@/lib/server/translate-error.server";
import { take } from "@/lib/server/throttles.server";
import { stampedClientAddress } from "@/lib/server/client-address.server";
import { MAX_BODY_BYTES, tooLarge } from "@/lib/server/request-body.server";

type Handler<P> = (req: Request, ctx: { params: P; app: App }) => Promise<Response>;

export function api<P>(handler: Handler<P>) {
  return async (req: Request, ctx: { params: Promise<P> }): Promise<Response> => {
    let app: App;
    try {
      app = getApp();
    } catch (e) {
      return json(toErrorBody(new AppError("UNAVAILABLE", { message: String(e), userMessage: "The server is starting. Please retry." })).body, 503);
    }
    try {
      return await handler(req, { params: await ctx.params, app });
    } catch (e) {
      const err = toAppError(e);
      if (err.code === "INTERNAL") app.log.error({ err: e, path: new URL(req.url).pathname }, "unhandled error in API");
      else if (err.code === "UNAVAILABLE") app.log.warn({ err: err.message, path: new URL(req.url).pathname }, "dependency unavailable");
      const { status, body } = toErrorBody(err);
      const headers: Record<string, string> =
        err.code === "RATE_LIMITED" ? { "Retry-After": String((err.details as { retryAfter?: number })?.retryAfter ?? 1) } : {};
      return json(body, status, headers);
    }
  };
}

/** A JSON response; its body is one string, which the API router writes without reading a stream. */
export function json(data: unknown, status = 200, headers?: Record<string, string>): Response {
  return new Response(JSON.stringify(data), { status, headers: { "content-type": "application/json", ...headers } });
}

/**
 * Authenticates the Bearer key for `slug` and `roles`, then applies the per-key rate limit.
 * An address with too many failed authentications is refused first, before the tenant or
 * the key is looked up; a wrong key counts against its address.
 */
export async function authorize(app: App, req: Request, slug: string, roles: readonly StaffRole[]): Promise<Caller> {
  const address = stampedClientAddress(req.headers);
  const authorization = req.headers.get("authorization");
  // No key at all costs nothing to check and is neither throttled nor counted (a 401, also
  // during a lock-out): only a key that was tried.
  if (authorization) await app.throttles.beforeAuthentication(address);
  const tenant = await app.tenants.get(slug);
  const check = () => app.access.apiKey(authorization, tenant, roles);
  const caller = authorization ? await app.throttles.countingFailures(address, check) : await check();
  await rateLimit(app, `${tenant.id}:${caller.actor}`);
  return caller;
}

export async function rateLimit(app: App, key: string, limiter = app.throttles.api): Promise<void> {
  await take(limiter, key, key);
}

/** Reads a JSON body of at most MAX_BODY_BYTES; an empty body is `{}`. */
export async function readJson(req: Request): Promise<unknown> {
  // The API router has read the body whole and refused one over the limit; this guards any other caller.
  const raw = await req.text();
  if (Buffer.byteLength(raw) > MAX_BODY_BYTES) throw tooLarge();
  const text = raw.trim();
  if (!text) return {};
  const type = req.headers.get("content-type") ?? "";
  if (type && !/^application\/(.+\+)?json\b/i.test(type)) {
    throw new AppError("BAD_INPUT", { message: `Unsupported content type ${type}`, userMessage: "Send the body as JSON with Content-Type: application/json." });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError("BAD_INPUT", { message: "Malformed JSON body", userMessage: "The request body is not valid JSON." });
  }
}

/** The public JSON form of an order (shared with webhook payloads). */
export { orderJson } from "@/lib/core/order-json";
