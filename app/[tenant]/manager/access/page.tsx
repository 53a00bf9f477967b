import type { Metadata } from "next";
import { getLocale, getTranslations } from "next-intl/server";
import { STAFF_ROLES } from "@/lib/core/tenants";
import { requireStaff } from "@/lib/edges/next/staff.server";
import { getApp } from "@/lib/server/app-context";
import { tenantOr404 } from "@/app/_lib/tenant.server";
import { formatDateTime } from "@/app/_lib/format";
import { auditActor } from "@/lib/core/audit-sentences";
import { sentenceText } from "../audit/sentence-text";
import { ConsoleShell, PageHeading } from "../_components/console-shell";
import { RotateCode } from "./rotate-code";
import { ApiKeys, type KeyRow } from "./api-keys";
import { Staff, type PersonRow } from "./staff";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("managerAccess"))("title") };
}

export default async function AccessPage({ params }: { params: Promise<{ tenant: string }> }) {
  const { tenant: slug } = await params;
  await tenantOr404(slug);
  const caller = await requireStaff(slug, ["MANAGER"], `/${slug}/manager/access`);
  const tenant = caller.tenant;
  const [t, ta, locale, keys] = await Promise.all([getTranslations("managerAccess"), getTranslations("managerAudit"), getLocale(), getApp().keys.list(tenant)]);
  const staff = await getApp().staff.list(tenant);
  // Never a PIN's hash: the list has only what StaffMemberInfo holds. Active people first.
  const people: PersonRow[] = staff
    .map((m) => ({ id: m.id, name: m.name, role: m.role, active: m.active }))
    .sort((a, b) => Number(b.active) - Number(a.active) || a.name.localeCompare(b.name, locale));
  const say = sentenceText(ta);
  // Never a secret: the list has only what ApiKeyInfo holds.
  const rows: KeyRow[] = keys.map((k) => ({
    id: k.id,
    role: k.role,
    name: k.name,
    prefix: k.prefix,
    created: formatDateTime(k.createdAt, tenant.timeZone, {}, locale),
    createdBy: k.createdBy ? say(auditActor(k.createdBy)) : null,
    revoked: k.revokedAt ? formatDateTime(k.revokedAt, tenant.timeZone, {}, locale) : null,
  }));
  return (
    <ConsoleShell caller={caller} section="access">
      <PageHeading title={t("title")} />
      <section aria-labelledby="people" className="pb-8">
        <h2 id="people" className="text-2xl font-bold">
          {t("people.heading")}
        </h2>
        <p className="mb-4 mt-1 text-lg text-slate-700">{t("people.intro")}</p>
        <Staff slug={tenant.slug} people={people} sharedCodes={tenant.sharedCodes !== false} />
      </section>
      <section aria-labelledby="codes">
        <h2 id="codes" className="text-2xl font-bold">
          {t("codesHeading")}
        </h2>
        <p className="mb-4 mt-1 text-lg text-slate-700">{t("codesIntro")}</p>
        <ul className="grid items-start gap-4 md:grid-cols-3">
          {STAFF_ROLES.map((role) => (
            <RotateCode key={role} slug={tenant.slug} role={role} />
          ))}
        </ul>
      </section>
      <section aria-labelledby="keys" className="pt-8">
        <h2 id="keys" className="text-2xl font-bold">
          {t("keysHeading")}
        </h2>
        <p className="mb-4 mt-1 text-lg text-slate-700">{t("keysIntro")}</p>
        <ApiKeys slug={tenant.slug} keys={rows} />
      </section>
    </ConsoleShell>
  );
}
