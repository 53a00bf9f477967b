/**
 * Routes a signed-in screen also calls (the console's CSV link, the kitchen's sold-out
 * toggle): an API key when one is sent, else the staff session cookie, for the same roles
 * and under the same per-caller limit. Another site cannot use a browser's cookie here: it is
 * SameSite=Lax, and a cross-site PUT needs a CORS preflight that nothing here grants.
 */
import { parse as parseCookies } from "cookie";
import type { StaffRole } from "@/lib/core/tenants";
import { SESSION_COOKIE } from "@/lib/auth/session.server";
import type { App } from "@/lib/server/app.server";
import type { Caller } from "@/lib/auth/access.server";
import { authorize, rateLimit } from "./api.server";

export async function authorizeKeyOrSession(app: App, req: Request, slug: string, roles: readonly StaffRole[]): Promise<Caller> {
  if (req.headers.get("authorization") !== null) return authorize(app, req, slug, roles);
  const tenant = await app.tenants.get(slug);
  const caller = await app.access.session(parseCookies(req.headers.get("cookie") ?? "")[SESSION_COOKIE], tenant, roles);
  await rateLimit(app, `${tenant.id}:${caller.actor}`, app.throttles.api, req);
  return caller;
}
