/**
 * What the report endpoints share: the query as a plain object, and the CSV endpoint's
 * check that takes a manager API key or, for the console's download link, the manager's
 * session cookie. The reports' JSON forms are in report-json.ts.
 */
import { parse as parseCookies } from "cookie";
import { SESSION_COOKIE } from "@/lib/auth/session.server";
import type { App } from "@/lib/server/app.server";
import type { Caller } from "@/lib/auth/access.server";
import { authorize, rateLimit } from "./api.server";

/** The named parameters of the request's query (the first value of each). */
export function queryOf(req: Request, names: readonly string[]): Record<string, string | undefined> {
  const params = new URL(req.url).searchParams;
  return Object.fromEntries(names.flatMap((n) => (params.has(n) ? [[n, params.get(n) ?? ""]] : [])));
}

/** A manager, by `Authorization: Bearer` key when one is sent, else by the session cookie. */
export async function authorizeManager(app: App, req: Request, slug: string): Promise<Caller> {
  if (req.headers.get("authorization") !== null) return authorize(app, req, slug, ["MANAGER"]);
  const tenant = await app.tenants.get(slug);
  const caller = await app.access.session(parseCookies(req.headers.get("cookie") ?? "")[SESSION_COOKIE], tenant, ["MANAGER"]);
  await rateLimit(app, `${tenant.id}:${caller.actor}`, app.throttles.api, req);
  return caller;
}
