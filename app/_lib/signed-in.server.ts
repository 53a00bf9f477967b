/**
 * Who the staff header names: the person signed in ("Li Wei"), or the role of a shared
 * code's session. Read from the session the page already checked (same cookie, same
 * verification), once per request.
 */
import { cache } from "react";
import { cookies } from "next/headers";
import { STAFF_ROLES, type StaffRole, type Tenant } from "@/lib/core/tenants";
import { SESSION_COOKIE } from "@/lib/auth/session.server";
import { getApp } from "@/lib/server/app-context";
import { isAppError } from "@/lib/core/errors";

export interface SignedIn {
  /** The person's name; null for a shared role code's session, or none. */
  person: string | null;
  /** Who, as screens say it: the person's name or the shared code's role label; null: no session that holds. */
  name: string | null;
  role: StaffRole | null;
}

/** The signed-in caller of `tenant`'s screen as the header shows it; a session that does not hold shows as no person. */
export const signedIn = cache(async (tenant: Tenant): Promise<SignedIn> => {
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  try {
    const caller = await getApp().access.session(token, tenant, STAFF_ROLES);
    return { person: caller.staffId ? caller.by : null, name: caller.by, role: caller.role };
  } catch (e) {
    // No session, or one that ended meanwhile (the header's own check says so within seconds).
    if (isAppError(e)) return { person: null, name: null, role: null };
    throw e;
  }
});
