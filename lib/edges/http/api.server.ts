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

export const MAX_BODY_BYTES = 16 * 1024;

type Handler<P> = (req: Request, ctx: { params: P; app: App }) => Promise<Response>;

export function api<P>(handler: Handler<P>) {
  return async (req: Request, ctx: { params: Promise<P> }): Promise<Response> => {
    let app: App;
    try {
      app = getApp();
    } catch (e) {
      return Response.json(toErrorBody(new AppError("UNAVAILABLE", { message: String(e), userMessage: "The server is starting. Please retry." })).body, { status: 503 });
    }
    try {
      return await handler(req, { params: await ctx.params, app });
    } catch (e) {
      const err = toAppError(e);
      if (err.code === "INTERNAL") app.log.error({ err: e, path: new URL(req.url).pathname }, "unhandled error in API");
      else if (err.code === "UNAVAILABLE") app.log.warn({ err: err.message, path: new URL(req.url).pathname }, "dependency unavailable");
      const { status, body } = toErrorBody(err);
      const headers: HeadersInit = err.code === "RATE_LIMITED" ? { "Retry-After": String((err.details as { retryAfter?: number })?.retryAfter ?? 1) } : {};
      return Response.json(body, { status, headers });
    }
  };
}

export function json(data: unknown, status = 200, headers?: HeadersInit): Response {
  return Response.json(data, { status, headers });
}

/** Authenticates the Bearer key for `slug` and `roles`, then applies the per-key rate limit. */
export async function authorize(app: App, req: Request, slug: string, roles: readonly StaffRole[]): Promise<Caller> {
  const tenant = await app.tenants.get(slug);
  const caller = await app.access.apiKey(req.headers.get("authorization"), tenant, roles);
  await rateLimit(app, `${tenant.id}:${caller.actor}`);
  return caller;
}

export async function rateLimit(app: App, key: string, limiter = app.apiLimiter): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (e) {
    if (e instanceof Error) throw e;
    const retryAfter = Math.max(1, Math.ceil(((e as { msBeforeNext?: number }).msBeforeNext ?? 1000) / 1000));
    throw new AppError("RATE_LIMITED", { message: `Rate limit for ${key}`, userMessage: `Too many requests: retry in ${retryAfter} s.`, details: { retryAfter } });
  }
}

/** Reads a JSON body of at most MAX_BODY_BYTES; an empty body is `{}`. */
export async function readJson(req: Request): Promise<unknown> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const reader = req.body?.getReader();
  if (!reader) return {};
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const text = Buffer.concat(chunks).toString("utf8").trim();
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

function tooLarge(): AppError {
  return new AppError("PAYLOAD_TOO_LARGE", { message: "Body too large", userMessage: `The request body exceeds ${MAX_BODY_BYTES / 1024} KiB.` });
}

/** The public JSON form of an order (shared with webhook payloads). */
export { orderJson } from "@/lib/core/order-json";
