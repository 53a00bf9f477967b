/**
 * Serves /api in server.ts, before Next.js sees the request: the same route files
 * (app/api/**\/route.ts) called directly with a Web Request, through @hono/node-server's
 * Node ↔ Fetch bridge. Next's request handling cost more than most handlers (decision 0018).
 */
import { readdirSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { getRequestListener, RequestError } from "@hono/node-server";
import { AppError, toErrorBody } from "@/lib/core/errors";
import { sendError, SERVED_METHODS } from "./api-edge-errors.server";
import { readBody } from "./request-body.server";
import type { Logger } from "@/lib/server/ops/logger.server";
import type { RouteMatch } from "./route-patterns.server";

type RouteMethod = (typeof SERVED_METHODS)[number];

type Params = Record<string, string | string[] | undefined>;
export type RouteHandler = (req: Request, ctx: { params: Promise<Params> }) => Promise<Response>;
export type RouteModule = Partial<Record<RouteMethod, RouteHandler>>;

/** Every route file under `appDir`/api, imported, by its Next.js pattern (`/api/v1/orgs/[slug]/orders`). */
export async function loadApiRoutes(appDir: string): Promise<Map<string, RouteModule>> {
  const routes = new Map<string, RouteModule>();
  const walk = async (dir: string, pattern: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full, `${pattern}/${entry.name}`);
      else if (/^route\.(ts|js)$/.test(entry.name)) routes.set(pattern, (await import(pathToFileURL(path.resolve(full)).href)) as RouteModule);
    }
  };
  await walk(path.join(appDir, "api"), "/api");
  return routes;
}

/** Next's params: decoded, a catch-all as its segments. */
function paramsOf(pattern: string, raw: Record<string, string>): Params {
  const params: Params = {};
  for (const [name, value] of Object.entries(raw)) {
    const catchAll = pattern.includes(`[...${name}]`);
    params[name] = catchAll ? (value ? value.split("/").map(decodeURIComponent) : undefined) : decodeURIComponent(value);
  }
  return params;
}

function errorResponse(err: AppError, headers: Record<string, string> = {}): Response {
  const { status, body } = toErrorBody(err);
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

/** The methods a route answers, as Next.js derives them (HEAD from GET, OPTIONS always). */
function allowed(mod: RouteModule): string {
  const methods = new Set(SERVED_METHODS.filter((m) => mod[m]));
  if (mod.GET) methods.add("HEAD");
  methods.add("OPTIONS");
  return SERVED_METHODS.filter((m) => methods.has(m)).join(", ");
}

export interface ApiRouter {
  /** Whether `match` (from the route matcher) is an API route this router serves. */
  serves(match: RouteMatch): boolean;
  /** The methods `match`'s route takes, as Allow lists them; undefined for a route this router does not serve. */
  allowed(match: RouteMatch): string | undefined;
  serve(req: IncomingMessage, res: ServerResponse, match: RouteMatch): void;
}

export function apiRouter(routes: Map<string, RouteModule>, log: Logger): ApiRouter {
  const matches = new WeakMap<IncomingMessage, RouteMatch>();
  const dispatch = (request: Request, incoming: IncomingMessage): Promise<Response> => {
    const match = matches.get(incoming)!;
    const mod = routes.get(match.route)!;
    const method = request.method as RouteMethod;
    const handler = mod[method] ?? (method === "HEAD" ? mod.GET : undefined);
    if (handler) return handler(request, { params: Promise.resolve(paramsOf(match.route, match.params)) });
    if (method === "OPTIONS") return Promise.resolve(new Response(null, { status: 204, headers: { Allow: allowed(mod) } }));
    return Promise.resolve(
      errorResponse(
        new AppError("METHOD_NOT_ALLOWED", {
          message: `Method ${method} on ${match.route}`,
          userMessage: `This endpoint does not accept ${method.slice(0, 20)} requests.`,
        }),
        { Allow: allowed(mod) },
      ),
    );
  };
  const listener = getRequestListener((request, env) => dispatch(request, env.incoming as IncomingMessage), {
    // Its lightweight Request and Response (subclasses of the global ones) become the globals:
    // a handler's `new Response(string)` is then written as it is, without a stream.
    overrideGlobalObjects: true,
    errorHandler: (e) => {
      // Node parsed it, but no URL can be made of it: its Host header is malformed.
      if (e instanceof RequestError)
        return errorResponse(new AppError("BAD_INPUT", { message: e.message, userMessage: "The request could not be read: check its Host header." }));
      log.error({ err: e }, "unhandled error in API routing");
      return errorResponse(new AppError("INTERNAL", { message: String(e), userMessage: "Something went wrong on the server." }));
    },
  });
  return {
    serves: (match) => routes.has(match.route),
    allowed: (match) => {
      const mod = routes.get(match.route);
      return mod ? allowed(mod) : undefined;
    },
    serve(req, res, match) {
      matches.set(req, match);
      if (req.method === "GET" || req.method === "HEAD") return void listener(req, res);
      void readBody(req).then((body) => {
        if (body === undefined) return;
        if (body instanceof AppError) {
          // Whatever of the body is still coming is not read.
          if (!req.complete) res.setHeader("connection", "close");
          return sendError(res, body);
        }
        // @hono/node-server takes a request's `rawBody` as its body as it is.
        (req as IncomingMessage & { rawBody?: Buffer }).rawBody = body;
        void listener(req, res);
      });
    },
  };
}
