import type { Metadata } from "next";
import { getLocale, getTranslations } from "next-intl/server";
import type { Spread } from "@/lib/core/reports/percentile";
import { requireStaff } from "@/lib/edges/next/staff.server";
import { getApp } from "@/lib/server/app-context";
import { tenantOr404 } from "@/app/_lib/tenant.server";
import { formatBusinessDay } from "@/app/_lib/format";
import { FormError } from "@/app/_components/form-error";
import { ConsoleShell, PageHeading } from "../_components/console-shell";
import { ColumnHeads } from "../_components/column-heads";
import { DayPicker, requestedDay } from "../_components/day-picker";
import { HourChart } from "./hour-chart";
import { formatDuration } from "./duration";
import { EstimateFigures } from "./estimate-figures";
import { StationFigures } from "./station-figures";
import { TakingsFigures } from "./takings-figures";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("managerFigures"))("title") };
}

export default async function FiguresPage({
  params,
  searchParams,
}: {
  params: Promise<{ tenant: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { tenant: slug } = await params;
  await tenantOr404(slug);
  const caller = await requireStaff(slug, ["MANAGER"], `/${slug}/manager/figures`);
  const tenant = caller.tenant;
  const app = getApp();
  const [t, locale] = await Promise.all([getTranslations("managerFigures"), getLocale()]);
  const asked = requestedDay((await searchParams).day);
  const today = app.reports.today(tenant);
  const f = await app.reports.figures(tenant, asked.day ? { day: asked.day } : {});
  const dayText = formatBusinessDay(f.businessDay, locale);

  return (
    <ConsoleShell caller={caller} section="figures">
      <div className="space-y-8">
        <PageHeading title={t("title")} intro={t("intro")} />
        {asked.bad ? <FormError message={t("badDay")} /> : null}
        <DayPicker
          path={`/${tenant.slug}/manager/figures`}
          day={f.businessDay}
          today={today}
          labels={{ label: t("day.label"), show: t("day.show"), previous: t("day.previous"), next: t("day.next"), today: t("day.today") }}
        />

        <TakingsFigures takings={f.takings} dayText={dayText} />

        <section aria-labelledby="per-hour" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
          <h2 id="per-hour" className="text-2xl font-bold">
            {t("perHourHeading", { day: dayText })}
          </h2>
          <p className="mt-1 text-lg" data-testid="total-orders">
            {t("total", { count: f.totalOrders })}
          </p>
          <p className="mb-4 text-slate-600">{t("hoursNote", { zone: f.timeZone })}</p>
          <HourChart
            hours={f.hours.map((h) => ({ hour: h.hour, start: h.start.toISOString(), orders: h.orders }))}
            caption={t("tableCaption")}
            hourLabel={t("hour")}
            ordersLabel={t("orders")}
          />
        </section>

        <section aria-labelledby="times" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
          <h2 id="times" className="text-2xl font-bold">
            {t("timesHeading")}
          </h2>
          <p className="mt-1 text-slate-600">{t("timesIntro")}</p>
          {f.shifts.length === 0 ? (
            <p className="mt-3 text-lg">{t("noShifts")}</p>
          ) : (
            <div className="mt-4 overflow-x-auto">
              <TimesTable
                testId="shift-times"
                firstColumn={t("col.shift")}
                rows={f.shifts.map((s) => ({ key: String(s.shift), head: t("shiftN", { shift: s.shift }), ...s }))}
              />
            </div>
          )}
        </section>

        {/* Only where the restaurant numbers in more than one series (decision 0027). */}
        {f.series.some((s) => !s.default) ? (
          <section aria-labelledby="per-series" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
            <h2 id="per-series" className="text-2xl font-bold">
              {t("seriesHeading")}
            </h2>
            <p className="mt-1 text-slate-600">{t("seriesIntro")}</p>
            <div className="mt-4 overflow-x-auto">
              <TimesTable
                testId="series-times"
                firstColumn={t("seriesCol")}
                rows={f.series.map((s) => ({
                  key: `${s.default}-${s.prefix}-${s.series}`,
                  head: s.default ? t("defaultSeries") : s.prefix ? t("seriesName", { name: s.series, prefix: s.prefix }) : s.series,
                  ...s,
                }))}
              />
            </div>
          </section>
        ) : null}

        {/* Only where the kitchen works in stations (issue #40). */}
        {f.stations.length > 0 ? <StationFigures stations={f.stations} /> : null}

        <EstimateFigures a={f.estimates} />
      </div>
    </ConsoleShell>
  );
}

/** Orders and the median and 90th percentile of both times, one row per shift or series. */
async function TimesTable({
  testId,
  firstColumn,
  rows,
}: {
  testId: string;
  firstColumn: string;
  rows: { key: string; head: string; orders: number; timeToReady: Spread; timeToCollected: Spread }[];
}) {
  const t = await getTranslations("managerFigures");
  return (
    <table className="w-full text-left text-lg" data-testid={testId}>
      <ColumnHeads labels={[firstColumn, ...(["orders", "readyP50", "readyP90", "collectedP50", "collectedP90"] as const).map((c) => t(`col.${c}`))]} />
      <tbody>
        {rows.map((r) => (
          <tr key={r.key} className="border-b border-slate-200">
            <th scope="row" className="whitespace-nowrap px-2 py-2 font-bold">
              {r.head}
            </th>
            <td className="px-2 py-2 tabular-nums">{r.orders}</td>
            {[r.timeToReady.p50, r.timeToReady.p90, r.timeToCollected.p50, r.timeToCollected.p90].map((v, i) => (
              <td key={i} className="px-2 py-2 tabular-nums">
                {v === null ? (
                  <>
                    <span aria-hidden="true">{t("noData")}</span>
                    <span className="sr-only">{t("noDataLabel")}</span>
                  </>
                ) : (
                  formatDuration(v)
                )}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
