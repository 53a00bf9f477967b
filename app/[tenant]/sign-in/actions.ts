"use server";

import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { STAFF_ROLES, slugSchema, type StaffRole } from "@/lib/core/tenants";
import { ROLE_HOME, roleAllows } from "@/lib/auth/roles";
import { SESSION_COOKIE, SESSION_TTL_SECONDS } from "@/lib/auth/session.server";
import { getApp } from "@/lib/server/app-context";
import { toAppError } from "@/lib/server/translate-error.server";
import { clientIp, requestProto } from "@/app/_lib/tenant.server";

export type SignInState = { error: string; role: StaffRole | null; attempt: number } | null;

/** The role each staff screen needs, to skip a `next` the chosen role could not open anyway. */
const SCREEN_ROLE: Record<string, StaffRole> = { kiosk: "CASHIER", kitchen: "KITCHEN", manager: "MANAGER" };

function isRole(v: unknown): v is StaffRole {
  return typeof v === "string" && (STAFF_ROLES as readonly string[]).includes(v);
}

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

export async function signIn(prev: SignInState, form: FormData): Promise<SignInState> {
  const attempt = (prev?.attempt ?? 0) + 1;
  const slug = String(form.get("tenant") ?? "");
  const roleField = form.get("role");
  const role = isRole(roleField) ? roleField : null;
  const secret = String(form.get("code") ?? "").trim();
  const next = String(form.get("next") ?? "");

  if (!role) return { error: "Choose your role: Cashier, Kitchen or Manager.", role, attempt };
  if (!secret) return { error: "Type your sign-in code.", role, attempt };

  let destination: string;
  const app = (() => {
    try {
      return getApp();
    } catch {
      return null;
    }
  })();
  if (!app) return { error: "The server is starting. Please try again in a moment.", role, attempt };
  try {
    const tenant = await app.tenants.get(slug);
    const h = await headers();
    try {
      await app.signInLimiter.consume(`${tenant.id}:${clientIp(h)}`);
    } catch (e) {
      if (e instanceof Error) throw e;
      return { error: "Too many attempts, wait a minute and try again.", role, attempt };
    }
    const { token } = await app.access.signIn(tenant, role, secret);
    (await cookies()).set(SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      maxAge: SESSION_TTL_SECONDS,
      secure: requestProto(h) === "https",
    });
    destination = safeNext(next, tenant.slug, role) ?? `/${tenant.slug}/${ROLE_HOME[role]}`;
  } catch (e) {
    const err = toAppError(e);
    if (err.code === "INTERNAL") app.log.error({ err: e }, "unhandled error in sign-in");
    return { error: err.userMessage, role, attempt };
  }
  redirect(destination);
}

/** Ends the staff session on this device and goes back to the sign-in page. */
export async function signOut(form: FormData): Promise<void> {
  (await cookies()).delete({ name: SESSION_COOKIE, path: "/" });
  const slug = slugSchema.safeParse(String(form.get("tenant") ?? ""));
  redirect(slug.success ? `/${slug.data}/sign-in` : "/");
}
