/**
 * The Next.js edge for staff screens: page guards and the one wrapper every server
 * action goes through. Expected failures come back as `{ ok: false, error }` for
 * `useActionState`; they are never thrown at the UI.
 */
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { isAppError } from "@/lib/core/errors";
import type { StaffRole } from "@/lib/core/tenants";
import { SESSION_COOKIE } from "@/lib/auth/session.server";
import { getApp } from "@/lib/server/app-context";
import type { App } from "@/lib/server/app.server";
import type { Caller } from "@/lib/server/access.server";
import { toAppError } from "@/lib/server/translate-error.server";

export type ActionState<T> = { ok: true; data: T } | { ok: false; error: string; code: string } | null;

/** For pages: the signed-in caller, or a redirect to the tenant's sign-in page. */
export async function requireStaff(slug: string, roles: readonly StaffRole[], here: string): Promise<Caller> {
  const app = getApp();
  const tenant = await app.tenants.get(slug);
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  try {
    return await app.access.session(token, tenant, roles);
  } catch (e) {
    if (isAppError(e) && (e.code === "UNAUTHENTICATED" || e.code === "FORBIDDEN")) {
      const reason = e.code === "FORBIDDEN" ? `&reason=${encodeURIComponent(e.userMessage)}` : "";
      redirect(`/${tenant.slug}/sign-in?next=${encodeURIComponent(here)}${reason}`);
    }
    throw e;
  }
}

/**
 * Wraps a server action: resolves the tenant from the form's `tenant` field, checks the
 * session's role, runs `fn`, and turns every failure into a readable `{ ok: false }`.
 */
export function staffAction<T>(roles: readonly StaffRole[], fn: (caller: Caller, form: FormData, app: App) => Promise<T>) {
  return async (_prev: ActionState<T>, form: FormData): Promise<ActionState<T>> => {
    let app: App | undefined;
    try {
      app = getApp();
      const tenant = await app.tenants.get(String(form.get("tenant") ?? ""));
      const caller = await app.access.session((await cookies()).get(SESSION_COOKIE)?.value, tenant, roles);
      return { ok: true, data: await fn(caller, form, app) };
    } catch (e) {
      const err = toAppError(e);
      if (err.code === "INTERNAL") app?.log.error({ err: e }, "unhandled error in server action");
      return { ok: false, error: err.userMessage, code: err.code };
    }
  };
}
