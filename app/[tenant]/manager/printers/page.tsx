import type { Metadata } from "next";
import { getLocale, getTranslations } from "next-intl/server";
import { defaultCharset } from "@/lib/core/printing/print-content";
import { requireStaff } from "@/lib/edges/next/staff.server";
import { getApp } from "@/lib/server/app-context";
import { tenantOr404 } from "@/app/_lib/tenant.server";
import { formatDateTime } from "@/app/_lib/format";
import { ConsoleShell, PageHeading } from "../_components/console-shell";
import { PrintersPanel } from "./printers-panel";
import type { JobRow, PrinterRow, SeriesChoice } from "./rows";
import { PrintersLive } from "./printers-live";

export const dynamic = "force-dynamic";

/** Jobs shown under the printers (the REST API reads up to 200). */
const RECENT_JOBS = 30;

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("managerPrinters"))("title") };
}

export default async function PrintersPage({ params }: { params: Promise<{ tenant: string }> }) {
  const { tenant: slug } = await params;
  await tenantOr404(slug);
  const caller = await requireStaff(slug, ["MANAGER"], `/${slug}/manager/printers`);
  const tenant = caller.tenant;
  const app = getApp();
  const [t, locale, printers, jobs, series] = await Promise.all([
    getTranslations("managerPrinters"),
    getLocale(),
    app.printers.list(tenant),
    app.printers.jobs(tenant, { limit: RECENT_JOBS }),
    app.series.list(tenant),
  ]);
  const when = (at: Date) => formatDateTime(at, tenant.timeZone, { date: "day", seconds: true }, locale);
  // The view as it is, but for the dates the screen shows in the restaurant's time.
  const rows: PrinterRow[] = printers.map(({ checkedAt, ...p }) => ({ ...p, checked: checkedAt ? when(checkedAt) : null }));
  const jobRows: JobRow[] = jobs.map((j) => ({
    id: j.id,
    printerId: j.printerId,
    printer: j.printerName,
    orderId: j.orderId,
    display: j.display,
    kind: j.kind,
    station: (j.stationId && tenant.stations?.find((s) => s.id === j.stationId)?.name) || null,
    state: j.state,
    attempts: j.attempts,
    at: when(j.printedAt ?? j.gaveUpAt ?? j.createdAt),
    lastError: j.lastError,
  }));
  const choices: SeriesChoice[] = series.map((s) => ({ id: s.id, name: s.isDefault ? t("defaultSeries") : s.name }));
  return (
    <ConsoleShell caller={caller} section="printers">
      <PageHeading title={t("title")} intro={t("intro")} />
      <PrintersLive slug={tenant.slug} />
      <PrintersPanel slug={tenant.slug} printers={rows} jobs={jobRows} series={choices} defaultCharset={defaultCharset(tenant.floor.language)} />
    </ConsoleShell>
  );
}
