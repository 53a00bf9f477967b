import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { requireStaff } from "@/lib/edges/next/staff.server";
import { getApp } from "@/lib/server/app-context";
import { StaffHeader } from "@/app/_components/staff-header";
import { tenantOr404 } from "@/app/_lib/tenant.server";
import { KioskScreen } from "./kiosk-screen";
import { kioskView } from "./kiosk-view.server";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ tenant: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { tenant } = await params;
  const t = await getTranslations("kiosk");
  // Installs full-screen on the cashier's tablet, opening this restaurant's kiosk.
  return { title: t("pageTitle"), manifest: `/${encodeURIComponent(tenant)}/manifest/kiosk`, appleWebApp: { capable: true } };
}

export default async function KioskPage({ params }: Props) {
  const { tenant: slug } = await params;
  await tenantOr404(slug);
  const caller = await requireStaff(slug, ["CASHIER"], `/${slug}/kiosk`);
  return (
    <>
      <StaffHeader tenant={caller.tenant} role={caller.role} current="kiosk" />
      <KioskScreen slug={caller.tenant.slug} initial={await kioskView(getApp(), caller.tenant)} />
    </>
  );
}
