/**
 * The REST edge: every route handler is wrapped by `api()`, which translates errors once
 * into `{"error":{"code","message"}}` with the right status, refuses what the route did not
 * declare (query parameters, a body), and offers the checks a handler needs (API key, rate
 * limit, JSON body with a size limit).
 */
import { AppError, toErrorBody } from "@/lib/core/errors";
import type { StaffRole } from "@/lib/core/tenants";
import { getApp } from "@/lib/server/app-context";
import type { App } from "@/lib/server/app.server";
import type { Caller } from "@/lib/auth/access.server";
import { toAppError } from "@/lib/server/ops/translate-error.server";
import { rateLimitFields, spend, rateLimited, take } from "@/lib/server/http/throttles.server";
import { stampedClientAddress } from "@/lib/server/http/client-address.server";
import { MAX_BODY_BYTES, tooLarge } from "@/lib/server/http/request-body.server";

type Handler<P> = (req: Request, ctx: { params: P; app: App }) => Promise<Response>;

/**
 * What a route takes besides its path, declared once with the route: anything else is
 * refused (400) before the handler runs, as unknown body fields are.
 */
export interface Accepts {
  /**
   * The query parameters the route reads ("one": at most once, "many": may repeat); by
   * default none. `"any"`: not checked — operators' endpoints, which monitors call as they like.
   */
  query?: Readonly<Record<string, "one" | "many">> | "any";
  /** `"json"`: the route reads a JSON body (readJson). By default it takes none: a body is refused. */
  body?: "json" | "any";
}

/** Wraps a route handler: checks the request against `accepts`, then translates any error once. */
export function api<P>(accepts: Accepts, handler: Handler<P>) {
  return async (req: Request, ctx: { params: Promise<P> }): Promise<Response> => {
    let app: App;
    try {
      app = getApp();
    } catch (e) {
      return json(toErrorBody(new AppError("UNAVAILABLE", { message: String(e), userMessage: "The server is starting. Please retry." })).body, 503, {
        "Retry-After": "1",
      });
    }
    try {
      checkQuery(req, accepts.query ?? {});
      if (!accepts.body) await refuseBody(req);
      const res = await handler(req, { params: await ctx.params, app });
      const limit = reportedLimits.get(req);
      return limit ? withHeaders(res, limit) : res;
    } catch (e) {
      const err = toAppError(e);
      if (err.code === "INTERNAL") app.log.error({ err: e, path: new URL(req.url).pathname }, "unhandled error in API");
      else if (err.code === "UNAVAILABLE") app.log.warn({ err: err.message, path: new URL(req.url).pathname }, "dependency unavailable");
      const { status, body } = toErrorBody(err);
      const headers: Record<string, string> = {
        ...(err.code === "RATE_LIMITED" ? { "Retry-After": String((err.details as { retryAfter?: number })?.retryAfter ?? 1) } : {}),
        // An outage: the next attempt reads (or reaches) the dependency again.
        ...(err.code === "UNAVAILABLE" ? { "Retry-After": "1" } : {}),
        // A refusal after the limit was taken reports it too (the 429 of that limit above all).
        ...reportedLimits.get(req),
      };
      return json(body, status, headers);
    }
  };
}

/** BAD_INPUT naming `path` (a query parameter, or "(body)"), in the shape of a bad body field. */
const refuse = (path: string, message: string, details: Record<string, unknown> = {}): AppError =>
  new AppError("BAD_INPUT", {
    message: `${path}: ${message}`,
    userMessage: path === "(body)" ? `This endpoint takes no body (send none, or {}).` : `${path}: ${message}`,
    details: { fields: [{ path, message }], ...details },
  });

/** Unknown query parameters, and a repeated one-value parameter, are refused: never silently ignored. */
function checkQuery(req: Request, accepted: NonNullable<Accepts["query"]>): void {
  if (accepted === "any") return;
  const names = Object.keys(accepted);
  const seen = new Set<string>();
  for (const name of new URL(req.url).searchParams.keys()) {
    const takes = Object.hasOwn(accepted, name) ? accepted[name] : undefined;
    if (!takes) {
      const list = names.length ? `this endpoint takes ${names.join(", ")}` : "this endpoint takes no query parameters";
      throw refuse(name.slice(0, 100), `unknown query parameter; ${list}`, { accepted: names });
    }
    if (takes === "one" && seen.has(name)) throw refuse(name, "may be given once", { accepted: names });
    seen.add(name);
  }
}

/**
 * A route that takes no body refuses one (400), as a body's unknown fields are refused:
 * empty, blank or `{}` (what some clients send by default) is no body. A GET's body is not
 * read; one announced by its headers is refused.
 */
async function refuseBody(req: Request): Promise<void> {
  const noBody = refuse("(body)", "this endpoint takes no body");
  if (req.method === "GET" || req.method === "HEAD") {
    if (Number(req.headers.get("content-length") ?? 0) > 0 || req.headers.has("transfer-encoding")) throw noBody;
    return;
  }
  const text = (await req.text()).trim();
  if (!text || text === "{}") return;
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) && Object.keys(parsed).length === 0) return;
  } catch {
    // Not JSON: still a body.
  }
  throw noBody;
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
  await rateLimit(app, `${tenant.id}:${caller.actor}`, app.throttles.api, req);
  return caller;
}

/** RateLimit and RateLimit-Policy of the limit a request was counted against, for its answer (any status). */
const reportedLimits = new WeakMap<Request, Record<string, string>>();

/** `res` with `fields` added; a response whose headers are immutable is copied. */
function withHeaders(res: Response, fields: Record<string, string>): Response {
  try {
    for (const [name, value] of Object.entries(fields)) res.headers.set(name, value);
    return res;
  } catch {
    const headers = new Headers(res.headers);
    for (const [name, value] of Object.entries(fields)) headers.set(name, value);
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  }
}

/**
 * Spends a point of `key` on `limiter` (429 when none is left). With `req` (the per-key API
 * limit), its answer carries what is left as RateLimit fields, from the same store call.
 */
export async function rateLimit(app: App, key: string, limiter = app.throttles.api, req?: Request): Promise<void> {
  if (!req) {
    await take(limiter, key, key);
    return;
  }
  const spent = await spend(limiter, key);
  reportedLimits.set(req, rateLimitFields(API_POLICY, limiter, spent));
  if (!spent.allowed) throw rateLimited(key, spent.msBeforeNext);
}

/** The policy name of the per-key API limit in RateLimit fields. */
export const API_POLICY = "api";

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
