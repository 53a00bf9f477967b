import { createHash } from "node:crypto";
import type { Metadata } from "next";
import { cookies } from "next/headers";
import { getTranslations } from "next-intl/server";
import { requireStaff } from "@/lib/edges/next/staff.server";
import { getApp } from "@/lib/server/app-context";
import { StaffHeader } from "@/app/_components/staff-header";
import { tenantOr404 } from "@/app/_lib/tenant.server";
import { KioskScreen } from "./kiosk-screen";
import { kioskView } from "./kiosk-view.server";
import { DEVICE_COOKIE, screenScope } from "@/lib/auth/device.server";

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
  // The draft's name on the device: its orders' idempotency scope, hashed (the device id is an HttpOnly cookie's secret).
  const scope = screenScope(caller, (await cookies()).get(DEVICE_COOKIE)?.value);
  const draftScope = createHash("sha256").update(scope).digest("base64url").slice(0, 16);
  return (
    <>
      <StaffHeader tenant={caller.tenant} role={caller.role} current="kiosk" />
      <KioskScreen slug={caller.tenant.slug} draftScope={draftScope} initial={await kioskView(getApp(), caller.tenant)} />
    </>
  );
}
