import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { DEFAULT_SERIES_ID } from "@/lib/core/series";
import { requireStaff } from "@/lib/edges/next/staff.server";
import { getApp } from "@/lib/server/app-context";
import { tenantOr404 } from "@/app/_lib/tenant.server";
import { ConsoleShell, PageHeading } from "../_components/console-shell";
import { SeriesPanel, type SeriesRow } from "./series-panel";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("managerSeries"))("title") };
}

export default async function SeriesPage({ params }: { params: Promise<{ tenant: string }> }) {
  const { tenant: slug } = await params;
  await tenantOr404(slug);
  const caller = await requireStaff(slug, ["MANAGER"], `/${slug}/manager/series`);
  const app = getApp();
  const [t, series, shift] = await Promise.all([
    getTranslations("managerSeries"),
    app.series.listWithOpen(caller.tenant),
    app.orders.currentShift(caller.tenant),
  ]);
  // This shift's orders per series (the overview's own count, split): a day's figures per series would belong in the reports.
  const counts = new Map<string, number>();
  for (const o of shift.orders) counts.set(o.seriesId ?? DEFAULT_SERIES_ID, (counts.get(o.seriesId ?? DEFAULT_SERIES_ID) ?? 0) + 1);
  const rows: SeriesRow[] = series.map((s) => ({ ...s, orders: counts.get(s.id) ?? 0 }));
  return (
    <ConsoleShell caller={caller} section="series">
      <PageHeading title={t("title")} intro={t("intro")} />
      <SeriesPanel slug={caller.tenant.slug} series={rows} />
    </ConsoleShell>
  );
}
