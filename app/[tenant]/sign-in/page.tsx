import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { STAFF_ROLES, type StaffRole } from "@/lib/core/tenants";
import { LanguageSwitcher } from "@/app/_components/language-switcher";
import { tenantOr404 } from "@/app/_lib/tenant.server";
import { getApp } from "@/lib/server/app-context";
import { roleAllows } from "@/lib/auth/roles";
import { signedIn } from "@/app/_lib/signed-in.server";
import { SignInForm } from "./sign-in-form";
import { PinSignInForm, type SignInName } from "./pin-sign-in-form";

export const dynamic = "force-dynamic";
export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("signIn"))("title") };
}

const WHY = ["otherRestaurant", "roleNeeded", "signedOut"] as const;

const SCREEN_ROLE: Record<string, StaffRole> = { kiosk: "CASHIER", kitchen: "KITCHEN", manager: "MANAGER" };

function one(v: string | string[] | undefined): string {
  return (Array.isArray(v) ? v[0] : v) ?? "";
}

export default async function SignInPage({
  params,
  searchParams,
}: {
  params: Promise<{ tenant: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { tenant: slug } = await params;
  const tenant = await tenantOr404(slug);
  const query = await searchParams;
  const next = one(query.next).slice(0, 500);
  const why = WHY.find((w) => w === one(query.why));
  const needsRaw = one(query.needs);
  const needs = STAFF_ROLES.find((r) => r === needsRaw) ?? "other";
  const t = await getTranslations("signIn");
  // Pre-select the role of the screen we came from (e.g. /demo/kitchen → Kitchen).
  const defaultRole = SCREEN_ROLE[next.split("/")[2] ?? ""] ?? "CASHIER";
  // The active people: ids and names only (never a PIN's hash). With none, the page is the role-code form alone.
  const people: SignInName[] = (await getApp().staff.signInNames(tenant)).map((p) => ({ id: p.id, name: p.name, role: p.role }));
  const memberRaw = one(query.member);
  const defaultMember = people.find((p) => p.id === memberRaw.toLowerCase())?.id ?? "";
  const codes = people.length === 0 || tenant.sharedCodes !== false;
  // How this page signs in, for the reason's sentence: by PIN only, PIN or code, or code only (nobody has a PIN yet).
  const ways = people.length === 0 ? "code" : codes ? "both" : "pin";
  const reason = why ? t(`why.${why}`, { needs, ways }) : null;
  // "Switch person" on a shared tablet: while the one signed in still is, the way back to the screen they left.
  const who = why ? null : await signedIn(tenant);
  const screen = next.startsWith(`/${tenant.slug}/`) && !next.includes("\\") ? (next.split(/[/?#]/)[2] ?? "") : "";
  const back = who?.role && who.name && SCREEN_ROLE[screen] && roleAllows(who.role, [SCREEN_ROLE[screen]]) ? { href: next, screen, name: who.name } : null;

  return (
    <main className="mx-auto flex min-h-dvh max-w-2xl flex-col justify-center px-5 py-10">
      <div className="flex items-center justify-between gap-4">
        <p className="text-lg font-semibold text-blue-800">Nextup</p>
        <LanguageSwitcher />
      </div>
      <h1 className="mt-1 text-4xl font-extrabold tracking-tight">{tenant.name}</h1>
      <p className="mt-2 text-lg text-slate-700">{t("title")}</p>

      {reason ? (
        <p role="status" className="mt-6 rounded-lg border-2 border-amber-600 bg-amber-50 px-4 py-3 text-lg text-amber-900">
          {reason}
        </p>
      ) : null}

      {back ? (
        <p className="mt-6">
          <a
            href={back.href}
            data-testid="back-to-screen"
            className="inline-block rounded-xl border-2 border-slate-400 bg-white px-4 py-2 text-lg font-semibold text-slate-900 hover:bg-slate-100 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-400"
          >
            {t("backTo", { screen: back.screen, name: back.name })}
          </a>
        </p>
      ) : null}

      {people.length > 0 ? (
        <div className="mt-8 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
          <PinSignInForm slug={tenant.slug} next={next} people={people} defaultMember={defaultMember} />
        </div>
      ) : null}

      {codes ? (
        <div className="mt-8 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
          {people.length > 0 ? (
            <h2 id="by-code-heading" className="mb-5 text-2xl font-bold">
              {t("orCodeHeading")}
            </h2>
          ) : null}
          <SignInForm slug={tenant.slug} next={next} defaultRole={defaultRole} labelledBy={people.length > 0 ? "by-code-heading" : undefined} />
        </div>
      ) : null}

      <p className="mt-6 text-center text-slate-600">
        {t("customers")}{" "}
        <a href={`/${tenant.slug}/board`} className="font-semibold text-blue-800 underline">
          /{tenant.slug}/board
        </a>
      </p>
    </main>
  );
}
