import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { requireStaff } from "@/lib/edges/next/staff.server";
import { getApp } from "@/lib/server/app-context";
import { StaffHeader } from "@/app/_components/staff-header";
import { tenantOr404 } from "@/app/_lib/tenant.server";
import { kitchenData } from "./kitchen-data.server";
import { KitchenScreen } from "./kitchen-screen";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("kitchen"))("metaTitle") };
}

/** The kitchen: every open order of the day (all shifts) and the last collected ones, as plain data for the screen. */
export default async function KitchenPage({ params }: { params: Promise<{ tenant: string }> }) {
  const { tenant: slug } = await params;
  await tenantOr404(slug);
  const caller = await requireStaff(slug, ["KITCHEN"], `/${slug}/kitchen`);
  const tenant = caller.tenant;
  const initial = await kitchenData(getApp(), tenant);

  return (
    // One screen high: the piles scroll inside themselves, the page never does (a rush must not hide the pickup column).
    <div className="flex h-dvh flex-col overflow-hidden">
      <StaffHeader tenant={tenant} role={caller.role} current="kitchen" />
      <main className="min-h-0 flex-1">
        <KitchenScreen slug={tenant.slug} initial={initial} serverNow={Date.now()} />
      </main>
    </div>
  );
}
