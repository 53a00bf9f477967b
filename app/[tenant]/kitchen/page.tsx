import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { requireStaff } from "@/lib/edges/next/staff.server";
import { getApp } from "@/lib/server/app-context";
import { StaffHeader } from "@/app/_components/staff-header";
import { tenantOr404 } from "@/app/_lib/tenant.server";
import { kitchenData } from "./kitchen-data.server";
import { KitchenScreen } from "./kitchen-screen";
import { StationScreen } from "./station-screen";

export const dynamic = "force-dynamic";

export async function generateMetadata({
  params,
  searchParams,
}: {
  params: Promise<{ tenant: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}): Promise<Metadata> {
  const t = await getTranslations("kitchen");
  const station = stationParam((await searchParams).station);
  // Two station screens side by side in tabs: each tab names its station.
  const named = station
    ? (
        await getApp()
          .tenants.get((await params).tenant)
          .catch(() => null)
      )?.stations?.find((s) => s.id === station)
    : undefined;
  return { title: named ? t("station.metaTitle", { station: named.name }) : t("metaTitle") };
}

/** `?station=…` as the page reads it: the first one given, trimmed; null for none. */
const stationParam = (asked: string | string[] | undefined): string | null => (Array.isArray(asked) ? asked[0] : asked)?.trim() || null;

/**
 * The kitchen: every open order of the day (all shifts) and the last collected ones, as plain
 * data for the screen; with `?station=…`, that station's own screen (its lines only).
 */
export default async function KitchenPage({
  params,
  searchParams,
}: {
  params: Promise<{ tenant: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { tenant: slug } = await params;
  const station = stationParam((await searchParams).station);
  await tenantOr404(slug);
  const caller = await requireStaff(slug, ["KITCHEN"], station ? `/${slug}/kitchen?station=${encodeURIComponent(station)}` : `/${slug}/kitchen`);
  const tenant = caller.tenant;
  const initial = await kitchenData(getApp(), tenant, station);
  const serverNow = Date.now();

  return (
    // One screen high: the piles scroll inside themselves, the page never does (a rush must not hide the pickup column).
    <div className="flex h-dvh flex-col overflow-hidden">
      <StaffHeader tenant={tenant} role={caller.role} current="kitchen" />
      <main className="min-h-0 flex-1">
        {station ? (
          <StationScreen slug={tenant.slug} stationId={station} initial={initial} serverNow={serverNow} />
        ) : (
          <KitchenScreen slug={tenant.slug} initial={initial} serverNow={serverNow} />
        )}
      </main>
    </div>
  );
}
