/**
 * Security headers on every response this process writes: pages, the API, static files,
 * Socket.IO's polling, the 400 for a malformed URL. server.ts sets them first, before Next
 * or Socket.IO sees the request. Pages get a fresh script nonce each: Next.js reads it from
 * the request's Content-Security-Policy header and puts it on its own scripts. Decision 0012.
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { TrustProxy } from "./client-address.server";
import { isApiRoute, routeOf, type RouteMatch } from "./route-patterns.server";
import { clientProto } from "./client-address.server";

/**
 * The policy. Styles allow 'unsafe-inline' because React writes `style` attributes (the
 * board's grid, progress bars), which a nonce cannot cover; scripts need the nonce.
 * Media and images allow data: and blob: (QR codes on tickets, the board's sounds);
 * connect-src 'self' covers the same-origin WebSocket. worker-src names the service worker's
 * origin: under 'strict-dynamic' the fallback to script-src would not allow /sw.js.
 */
export function contentSecurityPolicy(nonce: string, dev = false): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** JSON answers load nothing and are framed by no one: no nonce to make per request. */
export const API_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** One year; no includeSubDomains, which would bind the operator's other hosts too. */
export const HSTS = "max-age=31536000";

export interface SecurityHeaderOptions {
  /** PUBLIC_URL is https: browsers reach this server over TLS (a proxy terminates it). */
  httpsPublicUrl: boolean;
  /** Proxies whose X-Forwarded-Proto is believed (TRUST_PROXY). */
  trustProxy: TrustProxy;
  dev: boolean;
  /** The app's route matcher: API or page is decided by the route, not by how the path is spelled. */
  match: (path: string) => RouteMatch;
}

/** Served over HTTPS: PUBLIC_URL says so, or a trusted proxy forwarded `X-Forwarded-Proto: https`. */
export function servedOverHttps(req: IncomingMessage, opts: Pick<SecurityHeaderOptions, "httpsPublicUrl" | "trustProxy">): boolean {
  return clientProto(req, opts.trustProxy, opts.httpsPublicUrl) === "https";
}

export function applySecurityHeaders(req: IncomingMessage, res: ServerResponse, opts: SecurityHeaderOptions): void {
  if (isApiRoute(routeOf(req, opts.match))) {
    res.setHeader("Content-Security-Policy", API_POLICY);
  } else {
    const csp = contentSecurityPolicy(randomBytes(16).toString("base64"), opts.dev);
    // Next.js takes the nonce from the request's policy; never from one the client sent.
    req.headers["content-security-policy"] = csp;
    delete req.headers["content-security-policy-report-only"];
    res.setHeader("Content-Security-Policy", csp);
  }
  res.setHeader("X-Content-Type-Options", "nosniff");
  // same-origin: no Referer to other sites (a customer's page URL holds the order id), while
  // same-origin POSTs keep their Origin header, which Next's server actions check.
  res.setHeader("Referrer-Policy", "same-origin");
  // For browsers older than frame-ancestors (some TVs).
  res.setHeader("X-Frame-Options", "DENY");
  if (servedOverHttps(req, opts)) res.setHeader("Strict-Transport-Security", HSTS);
}
