"use server";

import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { STAFF_ROLES, slugSchema, type StaffRole } from "@/lib/core/tenants";
import { ROLE_HOME, roleAllows } from "@/lib/auth/roles";
import { SESSION_COOKIE, SESSION_TTL_SECONDS } from "@/lib/auth/session.server";
import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE, isDeviceId, newDeviceId } from "@/lib/auth/device.server";
import { z } from "zod";
import { publicAction, redirectAction, staffAction } from "@/lib/edges/next/validated-action.server";
import { clientIp, requestProto } from "@/app/_lib/tenant.server";
import { limitKey } from "@/lib/server/http/client-address.server";
import { getApp } from "@/lib/server/app-context";

/** The role each staff screen needs, to skip a `next` the chosen role could not open anyway. */
const SCREEN_ROLE: Record<string, StaffRole> = { kiosk: "CASHIER", kitchen: "KITCHEN", manager: "MANAGER" };

/** `next` only when it is a relative path inside this restaurant that `role` may open. */
function safeNext(next: string, slug: string, role: StaffRole): string | null {
  if (!next.startsWith(`/${slug}/`) || next.startsWith("//") || next.includes("\\")) return null;
  let url: URL;
  try {
    url = new URL(next, "http://nextup.invalid");
  } catch {
    return null;
  }
  if (url.origin !== "http://nextup.invalid" || !url.pathname.startsWith(`/${slug}/`)) return null;
  const screen = url.pathname.split("/")[2] ?? "";
  if (screen === "sign-in") return null;
  const needs = SCREEN_ROLE[screen];
  if (needs && !roleAllows(role, [needs])) return null;
  return url.pathname + url.search;
}

/**
 * Signs a member of staff in: refused before the code is checked while the address has used
 * its failed authentications or its attempts at this restaurant, or while this node already
 * checks as many codes of the role as it may at once — never because of other addresses'
 * wrong codes (lib/server/http/throttles.server.ts, decision 0025); then a session cookie,
 * the device's cookie (kept if it has one, lib/auth/device.server.ts) and the screen they
 * came for (or their role's).
 */
export const signIn = publicAction(
  (t) =>
    z.object({
      role: z.enum(STAFF_ROLES, { error: t("signIn.chooseRole") }),
      code: z
        .string({ error: t("signIn.typeCode") })
        .trim()
        .min(1, t("signIn.typeCode")),
      next: z.string().max(500).catch(""),
    }),
  async ({ role, code, next }, { app, tenant }): Promise<never> => {
    const h = await headers();
    const { token } = await app.throttles.signIn(tenant.id, role, clientIp(h), () => app.access.signIn(tenant, role, code));
    await startSession(token, requestProto(h) === "https");
    redirect(safeNext(next, tenant.slug, role) ?? `/${tenant.slug}/${ROLE_HOME[role]}`);
  },
);

/**
 * Signs a person in with their name (chosen: their id) and PIN (decision 0051): the same
 * address throttles as a code, then the person's and the address's wrong-PIN waits, counted
 * in PostgreSQL before the PIN is checked (lib/core/staff/staff-service.ts).
 */
export const signInWithPin = publicAction(
  (t) =>
    z.object({
      member: z
        .string({ error: t("signIn.chooseName") })
        .min(1, t("signIn.chooseName"))
        .max(100),
      pin: z
        .string({ error: t("signIn.typePin") })
        .trim()
        .min(1, t("signIn.typePin"))
        .max(100),
      next: z.string().max(500).catch(""),
    }),
  async ({ member, pin, next }, { app, tenant }): Promise<never> => {
    const h = await headers();
    const address = clientIp(h);
    const { token, session } = await app.throttles.signIn(tenant.id, "PIN", address, async () =>
      app.access.signInMember(tenant, await app.staff.signInWithPin(tenant, member, pin, limitKey(address))),
    );
    await startSession(token, requestProto(h) === "https");
    redirect(safeNext(next, tenant.slug, session.role) ?? `/${tenant.slug}/${ROLE_HOME[session.role]}`);
  },
);

/** The session cookie, and the device's (kept if it has one, renewed): a kiosk's retry after signing in again replays. */
async function startSession(token: string, secure: boolean): Promise<void> {
  const jar = await cookies();
  jar.set(SESSION_COOKIE, token, { httpOnly: true, sameSite: "lax", path: "/", maxAge: SESSION_TTL_SECONDS, secure });
  const device = jar.get(DEVICE_COOKIE)?.value;
  jar.set(DEVICE_COOKIE, isDeviceId(device) ? device : newDeviceId(), { httpOnly: true, sameSite: "lax", path: "/", maxAge: DEVICE_COOKIE_MAX_AGE, secure });
}

/**
 * Ends the staff session for good — revoked on every node, so a copy of the cookie stops
 * working too — then deletes the cookie and goes back to the sign-in page.
 */
export const signOut = redirectAction(z.object({ tenant: slugSchema }), async (input) => {
  const jar = await cookies();
  await getApp().access.signOut(jar.get(SESSION_COOKIE)?.value);
  jar.delete({ name: SESSION_COOKIE, path: "/" });
  redirect(input ? `/${input.tenant}/sign-in` : "/");
});

/** Whether this screen's session still holds (a staff screen asks every few seconds): ok, or UNAUTHENTICATED. */
export const checkSession = staffAction(
  STAFF_ROLES,
  () => z.object({ tenant: slugSchema }),
  async (_input, { caller }) => ({ role: caller.role }),
);
