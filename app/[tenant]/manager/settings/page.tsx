import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { requireStaff } from "@/lib/edges/next/staff.server";
import { getApp } from "@/lib/server/app-context";
import { tenantOr404 } from "@/app/_lib/tenant.server";
import { ConsoleShell, PageHeading } from "../_components/console-shell";
import { SettingsForm } from "./settings-form";
import { zoneChoicesNow } from "./zone-choices";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("managerSettings"))("title") };
}

export default async function SettingsPage({ params }: { params: Promise<{ tenant: string }> }) {
  const { tenant: slug } = await params;
  await tenantOr404(slug);
  const caller = await requireStaff(slug, ["MANAGER"], `/${slug}/manager/settings`);
  const t = await getTranslations("managerSettings");
  const settings = getApp().settings.get(caller.tenant);
  const zones = zoneChoicesNow(Intl.supportedValuesOf("timeZone"), settings.timezone);
  return (
    <ConsoleShell caller={caller} section="settings">
      <PageHeading title={t("title")} intro={t("intro")} />
      <SettingsForm
        slug={caller.tenant.slug}
        initial={settings}
        timeZones={zones.choices}
        openOrders={await getApp().shifts.openCount(caller.tenant)}
        serverNow={zones.now}
      />
    </ConsoleShell>
  );
}
