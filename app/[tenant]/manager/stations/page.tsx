import type { Metadata } from "next";
import { headers } from "next/headers";
import { getTranslations } from "next-intl/server";
import { requireStaff } from "@/lib/edges/next/staff.server";
import { stationScreenPath } from "@/lib/edges/http/station-json";
import { getApp } from "@/lib/server/app-context";
import { publicOrigin } from "@/lib/server/http/public-origin.server";
import { requestOrigin, tenantOr404 } from "@/app/_lib/tenant.server";
import { ConsoleShell, PageHeading } from "../_components/console-shell";
import { StationsPanel } from "./stations-panel";
import type { PrinterChoice, StationRow } from "./rows";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("managerStations"))("title") };
}

export default async function StationsPage({ params }: { params: Promise<{ tenant: string }> }) {
  const { tenant: slug } = await params;
  await tenantOr404(slug);
  const caller = await requireStaff(slug, ["MANAGER"], `/${slug}/manager/stations`);
  const tenant = caller.tenant;
  const app = getApp();
  const [t, stations, printers, h] = await Promise.all([getTranslations("managerStations"), app.stations.list(tenant), app.printers.list(tenant), headers()]);
  // The address a tablet on the restaurant's network opens, as on the tickets' QR codes.
  const origin = publicOrigin({ env: app.env, requestOrigin: requestOrigin(h) });
  const rows: StationRow[] = stations.map((s) => ({
    id: s.id,
    name: s.name,
    isDefault: s.isDefault,
    printerId: s.printerId,
    open: s.open,
    screenUrl: `${origin}${stationScreenPath(tenant, s.id)}`,
  }));
  const choices: PrinterChoice[] = printers.map((p) => ({ id: p.id, name: p.name }));
  return (
    <ConsoleShell caller={caller} section="stations">
      <PageHeading title={t("title")} intro={t("intro")} />
      <StationsPanel slug={tenant.slug} stations={rows} printers={choices} />
    </ConsoleShell>
  );
}
