/**
 * What every log line written while handling one request (or one socket handshake) says
 * about it: its id and the restaurant it addresses. server.ts starts the context
 * (AsyncLocalStorage) around Next's handler; the logger's mixin reads it, so handlers and
 * the core log as usual and never pass it along.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import { slugSchema } from "@/lib/core/tenants";

export interface RequestContext {
  reqId: string;
  /** The restaurant's slug as the URL names it, when it is a well-formed slug. */
  tenant?: string;
  /** Set once a server action runs in this request (not logged). */
  actionCalled?: true;
}

/**
 * One store for server.ts and Next's bundle (which holds its own copy of this module): a
 * server action marks the request it runs in (noteActionCalled), server.ts reads the mark.
 */
const shared = globalThis as unknown as { [key: symbol]: AsyncLocalStorage<RequestContext> | undefined };
const STORE = Symbol.for("nextup.requestContext");
const storage = (shared[STORE] ??= new AsyncLocalStorage());

export function runWithRequest<T>(ctx: RequestContext, fn: () => T): T {
  return storage.run(ctx, fn);
}

/** The fields the logger adds to each line: `{ reqId, tenant }` inside a request, `{}` outside. */
export function requestLogFields(): Partial<RequestContext> {
  const ctx = storage.getStore();
  if (!ctx) return {};
  return ctx.tenant ? { reqId: ctx.reqId, tenant: ctx.tenant } : { reqId: ctx.reqId };
}

/** Called by every server action as it starts: Next.js made an argument list of the request's body. */
export function noteActionCalled(): void {
  const ctx = storage.getStore();
  if (ctx) ctx.actionCalled = true;
}

/** Taken in a request's context: whether a server action has run in that request so far. */
export function actionCallProbe(): () => boolean {
  const ctx = storage.getStore();
  return () => ctx?.actionCalled === true;
}

/** A caller's (or proxy's) id kept if it is short and plain, so it can be followed across systems. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request's id: the incoming `x-request-id` when sane, else a new UUID. */
export function requestIdFrom(header: string | string[] | undefined): string {
  const given = Array.isArray(header) ? header[0] : header;
  return given && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

/** `slug` when it is a well-formed slug; else undefined (never logs 12 KB of junk). */
export function wellFormedSlug(slug: string | undefined): string | undefined {
  return slug !== undefined && slugSchema.safeParse(slug).success ? slug : undefined;
}

/** A slug from a URL segment (still percent-encoded), when it is one. */
export function tenantFromParam(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  try {
    return wellFormedSlug(decodeURIComponent(raw));
  } catch {
    return undefined;
  }
}
