/**
 * The Next.js edge for staff pages: the guard that sends a visitor without the right
 * session to the sign-in page. (Server actions go through validated-action.server.ts.)
 */
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { isAppError } from "@/lib/core/errors";
import type { StaffRole } from "@/lib/core/tenants";
import { SESSION_COOKIE } from "@/lib/auth/session.server";
import { getApp } from "@/lib/server/app-context";
import type { Caller } from "@/lib/auth/access.server";

/** For pages: the signed-in caller, or a redirect to the tenant's sign-in page. */
export async function requireStaff(slug: string, roles: readonly StaffRole[], here: string): Promise<Caller> {
  const app = getApp();
  const tenant = await app.tenants.get(slug);
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  try {
    return await app.access.session(token, tenant, roles);
  } catch (e) {
    if (isAppError(e) && (e.code === "UNAUTHENTICATED" || e.code === "FORBIDDEN")) {
      // The sign-in page says why in its own language; the URL carries only the reason's name.
      const needs = (e.details as { needs?: string } | undefined)?.needs;
      // A session this browser had, ended (signed out elsewhere, the person let go or given a new PIN, shared codes
      // turned off): the page is reloaded straight here by a refresh, so it says why rather than nothing.
      const ended = e.code === "UNAUTHENTICATED" && token ? "&why=signedOut" : "";
      const reason = e.code === "FORBIDDEN" && e.reason ? `&why=${e.reason}${needs ? `&needs=${needs}` : ""}` : ended;
      redirect(`/${tenant.slug}/sign-in?next=${encodeURIComponent(here)}${reason}`);
    }
    throw e;
  }
}
