/**
 * What the report endpoints share: the query as a plain object, and the CSV endpoint's
 * check that takes a manager API key or, for the console's download link, the manager's
 * session cookie. The reports' JSON forms are in report-json.ts.
 */
import type { App } from "@/lib/server/app.server";
import type { Caller } from "@/lib/auth/access.server";
import { authorizeKeyOrSession } from "./key-or-session.server";

/** The named parameters of the request's query (the first value of each). */
export function queryOf(req: Request, names: readonly string[]): Record<string, string | undefined> {
  const params = new URL(req.url).searchParams;
  return Object.fromEntries(names.flatMap((n) => (params.has(n) ? [[n, params.get(n) ?? ""]] : [])));
}

/** A manager, by `Authorization: Bearer` key when one is sent, else by the session cookie. */
export function authorizeManager(app: App, req: Request, slug: string): Promise<Caller> {
  return authorizeKeyOrSession(app, req, slug, ["MANAGER"]);
}
