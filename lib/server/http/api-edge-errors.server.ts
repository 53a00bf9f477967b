/**
 * Errors on /api paths answered before any route runs, in the error contract like the rest
 * of the API: a method no route can serve (TRACE made Next.js throw: a 500) is refused here.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { AppError, toErrorBody } from "@/lib/core/errors";
import { isApiRoute, type RouteMatch } from "./route-patterns.server";

/** The methods a Next.js route handler can serve. */
export const SERVED_METHODS = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"] as const;

export function sendError(res: ServerResponse, err: AppError, headers: Record<string, string> = {}): void {
  const { status, body } = toErrorBody(err);
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

/**
 * True when the request was answered (the caller must not hand it on). `allow`: the methods
 * the matched route takes, for the 405's Allow (RFC 9110 requires it).
 */
export function refuseUnservedMethod(req: IncomingMessage, res: ServerResponse, match: RouteMatch, allow?: string): boolean {
  const method = req.method ?? "";
  if (!isApiRoute(match) || (SERVED_METHODS as readonly string[]).includes(method)) return false;
  sendError(
    res,
    new AppError("METHOD_NOT_ALLOWED", { message: `Method ${method} on ${req.url}`, userMessage: `The API does not serve ${method.slice(0, 20)} requests.` }),
    allow ? { Allow: allow } : {},
  );
  return true;
}
