/**
 * Which app route a request path belongs to, as Next.js names it (`/[tenant]/kiosk`,
 * `/api/v1/orgs/[slug]/orders/[id]`): the metrics' `route` label and where the logs find
 * the tenant. The routes are read once from the `app/` folder, so the label set is bounded
 * by the code, never by what clients send.
 */
import { readdirSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import path from "node:path";

/** Labels for what no app route matches. */
export const NEXT_ASSETS_ROUTE = "/_next/[...path]";
export const PUBLIC_FILE_ROUTE = "[public file]";
export const UNKNOWN_ROUTE = "[unknown]";

type Segment = { kind: "static"; text: string } | { kind: "dynamic"; name: string } | { kind: "catchAll"; name: string; optional: boolean };

interface Route {
  pattern: string;
  segments: Segment[];
}

export interface RouteMatch {
  route: string;
  /** Values of the dynamic segments, still percent-encoded as the client sent them. */
  params: Record<string, string>;
}

const ENTRY_FILE = /^(page|route)\.(tsx|ts|jsx|js)$/;
/** Static metadata files Next serves from app/ under their own name (app/icon.svg → /icon.svg). */
const METADATA_FILE =
  /^(icon|apple-icon|favicon|opengraph-image|twitter-image)\d*\.(ico|svg|png|jpe?g|gif)$|^(robots\.txt|sitemap\.xml|manifest\.(json|webmanifest))$/;

/**
 * The URL patterns of an app/ folder: every folder with a page or route file, plus static
 * metadata files. Route groups `(x)` and parallel slots `@x` add no segment; `_private`
 * folders are not routes.
 */
export function scanAppRoutes(appDir: string): string[] {
  const patterns = new Set<string>();
  const walk = (dir: string, segments: string[]) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        const name = entry.name;
        if (name.startsWith("_")) continue;
        const adds = (name.startsWith("(") && name.endsWith(")")) || name.startsWith("@") ? [] : [name];
        walk(path.join(dir, name), [...segments, ...adds]);
      } else if (ENTRY_FILE.test(entry.name)) {
        patterns.add(`/${segments.join("/")}`);
      } else if (METADATA_FILE.test(entry.name)) {
        patterns.add(`/${[...segments, entry.name].join("/")}`);
      }
    }
  };
  walk(appDir, []);
  return [...patterns].sort();
}

/** Every file under public/ as the URL path Next serves it at. */
export function scanPublicFiles(publicDir: string): string[] {
  const files: string[] = [];
  const walk = (dir: string, prefix: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // no public/ folder
    }
    for (const entry of entries) {
      if (entry.isDirectory()) walk(path.join(dir, entry.name), `${prefix}/${entry.name}`);
      else files.push(`${prefix}/${entry.name}`);
    }
  };
  walk(publicDir, "");
  return files;
}

function parseSegment(text: string): Segment {
  const optional = /^\[\[\.\.\.(.+)\]\]$/.exec(text);
  if (optional) return { kind: "catchAll", name: optional[1]!, optional: true };
  const catchAll = /^\[\.\.\.(.+)\]$/.exec(text);
  if (catchAll) return { kind: "catchAll", name: catchAll[1]!, optional: false };
  const dynamic = /^\[(.+)\]$/.exec(text);
  if (dynamic) return { kind: "dynamic", name: dynamic[1]! };
  return { kind: "static", text };
}

/** Next's precedence: a static segment beats a dynamic one, which beats a catch-all. */
const RANK = { static: 0, dynamic: 1, catchAll: 2 } as const;

function matchRoute(route: Route, parts: string[]): Record<string, string> | null {
  const params: Record<string, string> = {};
  for (let i = 0; i < route.segments.length; i++) {
    const seg = route.segments[i]!;
    if (seg.kind === "catchAll") {
      const rest = parts.slice(i);
      if (rest.length === 0 && !seg.optional) return null;
      params[seg.name] = rest.join("/");
      return params;
    }
    const part = parts[i];
    if (part === undefined) return null;
    if (seg.kind === "static") {
      if (part !== seg.text) return null;
    } else {
      params[seg.name] = part;
    }
  }
  return parts.length === route.segments.length ? params : null;
}

function moreSpecific(a: Route, b: Route): boolean {
  for (let i = 0; i < Math.min(a.segments.length, b.segments.length); i++) {
    const d = RANK[a.segments[i]!.kind] - RANK[b.segments[i]!.kind];
    if (d !== 0) return d < 0;
  }
  return a.segments.length > b.segments.length;
}

const SINGLE_DOT = /^(\.|%2e)$/i;
const DOUBLE_DOT = /^(\.|%2e){2}$/i;

/**
 * A path's segments as the router serves them: dot segments resolved as a URL parser does
 * (`%2e` too), then empty ones dropped (`//api/x` and `/./api/x` are `/api/x`).
 */
export function pathSegments(rawPath: string): string[] {
  const out: string[] = [];
  for (const part of rawPath.split("/").slice(1)) {
    if (DOUBLE_DOT.test(part)) out.pop();
    else if (!SINGLE_DOT.test(part)) out.push(part);
  }
  return out.filter(Boolean);
}

/**
 * A matcher for `patterns` (as scanAppRoutes returns them) and the files of public/: a
 * path (without its query) → its pattern and parameters. Next's own assets are one label,
 * public files another, anything else UNKNOWN_ROUTE.
 */
export function routeMatcher(patterns: readonly string[], publicFiles: readonly string[] = []): (path: string) => RouteMatch {
  const routes: Route[] = patterns.map((pattern) => ({ pattern, segments: pattern.split("/").filter(Boolean).map(parseSegment) }));
  // A path is only tried against the routes of its own length and those with a catch-all.
  const catchAlls = routes.filter((r) => r.segments.some((s) => s.kind === "catchAll"));
  const candidatesByLength = new Map<number, Route[]>();
  for (const r of routes) {
    if (!catchAlls.includes(r)) candidatesByLength.set(r.segments.length, (candidatesByLength.get(r.segments.length) ?? catchAlls).concat(r));
  }
  const publicSet = new Set(publicFiles);
  return (rawPath) => {
    const parts = pathSegments(rawPath);
    if (parts[0] === "_next") return { route: NEXT_ASSETS_ROUTE, params: {} };
    let best: { route: Route; params: Record<string, string> } | null = null;
    for (const route of candidatesByLength.get(parts.length) ?? catchAlls) {
      const params = matchRoute(route, parts);
      if (params && (!best || moreSpecific(route, best.route))) best = { route, params };
    }
    if (best && best.route.segments.every((s) => s.kind === "static")) return { route: best.route.pattern, params: best.params };
    // Next serves a public file before a dynamic route of the same path.
    if (publicSet.has(`/${parts.join("/")}`)) return { route: PUBLIC_FILE_ROUTE, params: {} };
    return best ? { route: best.route.pattern, params: best.params } : { route: UNKNOWN_ROUTE, params: {} };
  };
}

/** A request's route, matched once and kept for every step that asks (headers, limits, the API). */
const matched = new WeakMap<IncomingMessage, RouteMatch>();

export function routeOf(req: IncomingMessage, match: (path: string) => RouteMatch): RouteMatch {
  let m = matched.get(req);
  if (!m) {
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    m = match(q === -1 ? url : url.slice(0, q));
    matched.set(req, m);
  }
  return m;
}

/** Served by the API (JSON, its error contract and policy): decided by the route matched, however the path was spelled. */
export const isApiRoute = (m: RouteMatch): boolean => m.route === "/api" || m.route.startsWith("/api/");

/** What anyone may ask without signing in: the board (page, API and voice clips), a customer's order page and its push subscription. */
const PUBLIC_ROUTES: ReadonlySet<string> = new Set([
  "/api/v1/orgs/[slug]/board",
  "/api/v1/orgs/[slug]/voice/[locale]/[clip]",
  "/api/v1/voice/[locale]/[clip]",
  "/api/v1/push/key",
  "/api/v1/orgs/[slug]/orders/[id]/subscriptions",
  "/[tenant]/board",
  "/[tenant]/o/[orderId]",
]);
export const isPublicRoute = (m: RouteMatch): boolean => PUBLIC_ROUTES.has(m.route);

/** What a load balancer asks a node (liveness and readiness), limited per address on the node itself. */
const PROBE_ROUTES: ReadonlySet<string> = new Set(["/api/health", "/api/ready"]);
export const isProbeRoute = (m: RouteMatch): boolean => PROBE_ROUTES.has(m.route);
