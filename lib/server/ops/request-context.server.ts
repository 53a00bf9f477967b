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
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runWithRequest<T>(ctx: RequestContext, fn: () => T): T {
  return storage.run(ctx, fn);
}

/** The fields the logger adds to each line: `{ reqId, tenant }` inside a request, `{}` outside. */
export function requestLogFields(): Partial<RequestContext> {
  const ctx = storage.getStore();
  if (!ctx) return {};
  return ctx.tenant ? { reqId: ctx.reqId, tenant: ctx.tenant } : { reqId: ctx.reqId };
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
