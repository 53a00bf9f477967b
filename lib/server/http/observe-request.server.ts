/**
 * Wraps each HTTP request server.ts hands to Next.js: gives it an id (echoed in
 * `x-request-id`), runs it inside its log context (reqId, tenant), and times it into the
 * request-duration histogram under its route pattern once the response is sent.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "@/lib/server/ops/logger.server";
import type { AppMetrics } from "@/lib/server/ops/metrics.server";
import { routeOf, type RouteMatch } from "./route-patterns.server";
import { requestIdFrom, runWithRequest, tenantFromParam } from "@/lib/server/ops/request-context.server";

export interface RequestObserverDeps {
  match: (path: string) => RouteMatch;
  log: Logger;
  /** The app's metrics; undefined before the app is built (nothing is recorded then). */
  metrics(): AppMetrics | undefined;
}

/** Observes `req` and calls `handle` with its route inside its log context. */
export function observeRequest(deps: RequestObserverDeps, req: IncomingMessage, res: ServerResponse, handle: (match: RouteMatch) => void): void {
  const started = performance.now();
  const match = routeOf(req, deps.match);
  const { route, params } = match;
  const reqId = requestIdFrom(req.headers["x-request-id"]);
  const tenant = tenantFromParam(params.tenant ?? params.slug);
  const method = req.method ?? "GET";
  req.headers["x-request-id"] = reqId;
  res.setHeader("x-request-id", reqId);

  let finished = false;
  const record = (status: string) => {
    const seconds = (performance.now() - started) / 1000;
    deps.metrics()?.httpRequest({ method, route, status }, seconds);
    const line = { reqId, ...(tenant ? { tenant } : {}), method, route, status: Number(status), ms: Math.round(seconds * 1000) };
    if (status.startsWith("5")) deps.log.warn(line, "request failed");
    else deps.log.debug(line, "request");
  };
  res.once("finish", () => {
    finished = true;
    record(String(res.statusCode));
  });
  // The client went away before the answer was sent (nginx's 499).
  res.once("close", () => {
    if (!finished) record("499");
  });
  runWithRequest(tenant ? { reqId, tenant } : { reqId }, () => handle(match));
}
