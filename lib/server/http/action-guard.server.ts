/**
 * Server-action requests checked before Next.js sees them (issue #26):
 *  - an action id the requested page does not serve is refused: Next.js would otherwise
 *    re-send the request to the page that has it, over loopback and with the client's own
 *    headers, so the node would read the client from a copy the client wrote (rate limits
 *    charged to whoever X-Forwarded-For names);
 *  - an Origin that does not parse or names another host, and a Host that does not parse,
 *    are refused here, as Next.js' own check throws on them (a 500 outside the JSON log);
 *  - a body Next.js cannot make an argument list of is a 400, not its 500 (see below).
 * The ids and their pages come from the production build's server-reference manifest.
 * An id of no page at all is a page of another build (an update: decision 0048), told apart.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { IncomingMessage, ServerResponse } from "node:http";
import { AppError, toErrorBody } from "@/lib/core/errors";
import { sendError } from "./api-edge-errors.server";
import { parsedUrl } from "./malformed-url.server";
import { isApiRoute, type RouteMatch } from "./route-patterns.server";

/** Action id → the route patterns of the pages whose bundle holds it (`/[tenant]/kiosk`). */
export type ActionPages = ReadonlyMap<string, ReadonlySet<string>>;

/** "app/[tenant]/kiosk/page" → "/[tenant]/kiosk"; "app/page" → "/". */
const workerRoute = (worker: string): string => worker.replace(/^app/, "").replace(/\/page$/, "") || "/";

/** The build a production node serves (`.next/BUILD_ID`, set by next.config.js). */
export const loadBuildId = (distDir: string): string => readFileSync(path.join(distDir, "BUILD_ID"), "utf8").trim();

/** The header naming the build that answered an action of another build. */
export const BUILD_HEADER = "x-nextup-build";

/** Reads the build's manifest (`.next/server/server-reference-manifest.json`). */
export function loadActionPages(distDir: string): ActionPages {
  const manifest = JSON.parse(readFileSync(path.join(distDir, "server", "server-reference-manifest.json"), "utf8")) as {
    node: Record<string, { workers: Record<string, unknown> }>;
  };
  return new Map(Object.entries(manifest.node).map(([id, { workers }]) => [id, new Set(Object.keys(workers).map(workerRoute))]));
}

const refused = (code: "NOT_FOUND" | "FORBIDDEN" | "BAD_INPUT", message: string, userMessage: string) => new AppError(code, { message, userMessage });

/** The Host header as an authority (`name[:port]`, `[v6]:port`), or null when it is none. */
function parsedHost(raw: string): string | null {
  if (!raw || /[\s/?#@\\]/.test(raw)) return null;
  return parsedUrl(`http://${raw}`)?.host ?? null;
}

/** A POST that Next.js may take for a server action: a `Next-Action` header or a form (no JavaScript). */
const possibleAction = (req: IncomingMessage, match: RouteMatch): boolean =>
  req.method === "POST" && !isApiRoute(match) && (req.headers["next-action"] !== undefined || /^multipart\/form-data/i.test(req.headers["content-type"] ?? ""));

/**
 * True when the request was answered (the caller must not hand it on). `actions` is null in
 * development, where the manifest changes as pages compile: only Origin and Host are checked.
 */
export function refuseForeignAction(
  req: IncomingMessage,
  res: ServerResponse,
  match: RouteMatch,
  actions: ActionPages | null,
  build: string | null = null,
): boolean {
  // Only Next.js itself marks a re-sent action; from a client the mark is a lie.
  delete req.headers["x-action-forwarded"];
  const host = req.headers.host;
  if (host !== undefined && parsedHost(host) === null) {
    sendError(res, refused("BAD_INPUT", `Malformed Host header ${JSON.stringify(host.slice(0, 100))}`, "The Host header is not valid."));
    return true;
  }
  const actionId = req.headers["next-action"];
  if (!possibleAction(req, match)) return false;

  const origin = req.headers.origin;
  if (origin !== undefined) {
    // Next.js compares the Origin's host with X-Forwarded-Host, else Host: the same rule, answered as a 403.
    const forwarded = req.headers["x-forwarded-host"];
    const expected = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(",")[0]?.trim() || host;
    const originUrl = parsedUrl(origin);
    const originHost = originUrl && /^https?:$/.test(originUrl.protocol) ? originUrl.host : null;
    if (originHost === null || expected === undefined || originHost !== parsedHost(expected)) {
      sendError(
        res,
        refused(
          "FORBIDDEN",
          `Server action from origin ${JSON.stringify(origin.slice(0, 100))} for host ${String(expected)}`,
          "This form was sent from another site.",
        ),
      );
      return true;
    }
  }

  if (actions && actionId !== undefined) {
    const id = Array.isArray(actionId) ? actionId[0] : actionId;
    const pages = id ? actions.get(id) : undefined;
    if (!pages?.has(match.route)) {
      // As Next.js marks an unknown action: the page's router throws its UnrecognizedActionError, which the screens act on.
      res.setHeader("x-nextjs-action-not-found", "1");
      if (pages === undefined && build !== null) {
        // In no page of this build: the page is from another one (an update). Typed for any client: reload, send again.
        res.setHeader(BUILD_HEADER, build);
        sendError(
          res,
          new AppError("NOT_FOUND", {
            message: `Action ${String(id).slice(0, 64)} is of another build than ${build}`,
            userMessage: "This page is from an older version of Nextup. Reload it and send again.",
            details: { reason: "newBuild", build },
          }),
        );
      } else
        sendError(
          res,
          refused("NOT_FOUND", `Action ${String(id).slice(0, 64)} is not served by ${match.route}`, "This page has no such action. Reload the page."),
        );
      return true;
    }
  }
  // After the id check: an action the page does not serve stays a 404 in any body.
  if (actionId !== undefined && /^application\/x-www-form-urlencoded$/i.test(req.headers["content-type"] ?? "")) {
    // Next.js takes no url-encoded action call and answers its HTML 404 page instead.
    sendError(res, refused("BAD_INPUT", "Server action called with a url-encoded body", "The form's data could not be read."));
    return true;
  }
  return false;
}

/**
 * Next.js answers a 500 when it cannot make an argument list of an action's body (`[`, `1`,
 * a form without its arguments: vercel/next.js#86945), and a text/plain 400 or 409 to a form
 * without JavaScript whose action references it cannot resolve, before any action runs.
 * Called just before Next.js gets the request, in its context: such an answer becomes a 400
 * (a 409: the 404 of an unknown action) in the error contract. Once an action ran
 * (`actionCalled`), Next's answer stands, a 500 included.
 */
export function refuseUnreadableArguments(req: IncomingMessage, res: ServerResponse, match: RouteMatch, actionCalled: () => boolean): void {
  if (!possibleAction(req, match)) return;
  // As they are before Next.js: its own headers give way to the error's.
  const headers = res.getHeaders();
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  let error: string | null = null;
  const refuse = (status: number) => {
    if (error !== null || !(status >= 500 || status === 400 || status === 409) || actionCalled()) return false;
    const id = String(req.headers["next-action"] ?? "(a form)").slice(0, 64);
    const answer = toErrorBody(
      status === 409
        ? refused("NOT_FOUND", `Next.js knows no action of the form sent to ${match.route}`, "This page has no such action. Reload the page.")
        : refused("BAD_INPUT", `Next.js could not read the arguments of action ${id}`, "The form's data could not be read."),
    );
    error = JSON.stringify(answer.body);
    for (const name of res.getHeaderNames()) res.removeHeader(name);
    for (const [name, value] of Object.entries(headers)) if (value !== undefined) res.setHeader(name, value);
    // A body Next.js stopped reading (over its size limit) is still arriving: the connection cannot carry another request.
    if (!req.complete) res.setHeader("connection", "close");
    writeHead(answer.status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(error) });
    // Next.js may set its status afterwards (rendering its error page): the log reads what was sent.
    Object.defineProperty(res, "statusCode", { get: () => answer.status, set: () => {} });
    return true;
  };
  // Next.js (and its compression, which wraps these) may start the answer with any of the three.
  res.writeHead = (status: number, ...rest: unknown[]) => (refuse(status) || error !== null ? res : writeHead(status, ...rest));
  res.write = ((...args: unknown[]) => {
    if (!res.headersSent) refuse(res.statusCode);
    if (error === null) return write(...args);
    // Next's body is dropped: the error goes out at the end.
    callbackIn(args)?.();
    return true;
  }) as ServerResponse["write"];
  res.end = ((...args: unknown[]) => {
    if (!res.headersSent) refuse(res.statusCode);
    return error === null ? end(...args) : end(error, callbackIn(args));
  }) as ServerResponse["end"];
}

const callbackIn = (args: unknown[]): (() => void) | undefined => args.find((a): a is () => void => typeof a === "function");
