/**
 * What anyone may ask of a restaurant without signing in — the board (page, API and voice
 * clips) and a customer's order page with its live re-reads — is limited per client address
 * (PUBLIC_REQUESTS_PER_MINUTE), in server.ts before Next.js: a flood is answered 429
 * without looking anything up. So are the health probes (/api/health, /api/ready), per
 * address on each node (PROBE_REQUESTS_PER_SECOND; decision 0042).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { toErrorBody } from "@/lib/core/errors";
import { CLIENT_ADDRESS_HEADER, limitKey } from "./client-address.server";
import type { Logger } from "@/lib/server/ops/logger.server";
import { rateLimitFields, rateLimited, spend, type GuardedLimiter, type NodeLimiter, type Spent, type Throttles } from "./throttles.server";
import { isProbeRoute, isPublicRoute, type RouteMatch } from "./route-patterns.server";

/** The policy name of the public limit in RateLimit fields. */
export const PUBLIC_POLICY = "public";
/** The policy name of the probes' limit. */
export const PROBE_POLICY = "probe";

function limitOf(match: RouteMatch, throttles: Throttles): { policy: string; limiter: GuardedLimiter | NodeLimiter } | null {
  if (isPublicRoute(match)) return { policy: PUBLIC_POLICY, limiter: throttles.publicReads };
  if (isProbeRoute(match)) return { policy: PROBE_POLICY, limiter: throttles.probes };
  return null;
}

/**
 * True when the request was answered 429 (the caller must not hand it on). Public is the
 * route matched (`isPublicRoute`: `/api/v1/orgs/[slug]/board`, `/[tenant]/board`, …),
 * so `//api/…/board` or `…//board`, which the router serves, are counted too.
 */
export async function refusePublicFlood(req: IncomingMessage, res: ServerResponse, match: RouteMatch, throttles: Throttles, log: Logger): Promise<boolean> {
  const limit = limitOf(match, throttles);
  if (!limit) return false;
  const { policy, limiter } = limit;
  const address = String(req.headers[CLIENT_ADDRESS_HEADER] ?? "unknown");
  let spent: Spent;
  try {
    spent = await spend(limiter, limitKey(address));
  } catch (e) {
    // The limiter's store failed without its insurance: serve rather than refuse everyone.
    log.warn({ err: e instanceof Error ? e.message : String(e) }, "public request limit unavailable");
    return false;
  }
  // What is left goes with the answer, whoever writes it (the API router or Next.js).
  const fields = rateLimitFields(policy, limiter, spent);
  if (spent.allowed) {
    for (const [name, value] of Object.entries(fields)) res.setHeader(name, value);
    return false;
  }
  const err = rateLimited(`${policy} requests from ${address}`, spent.msBeforeNext);
  const { status, body } = toErrorBody(err);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "retry-after": String((err.details as { retryAfter: number }).retryAfter),
    "cache-control": "no-store",
    ...fields,
  });
  res.end(JSON.stringify(body));
  return true;
}
