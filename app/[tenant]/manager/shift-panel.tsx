"use client";

import type { ReactNode } from "react";
import { useLocale, useTranslations } from "next-intl";
import Link from "next/link";
import { ORDER_STATUSES, type OrderStatus } from "@/lib/core/orders";
import { displayNumber, seriesSize } from "@/lib/core/series";
import { OfflineBanner } from "@/app/_components/offline-banner";
import { StatusIcon } from "@/app/_components/icon";
import { tenantForm, useLiveData } from "@/app/_components/use-live-data";
import { formatBusinessDay } from "@/app/_lib/format";
import { readManager } from "./actions";
import type { ManagerData } from "./manager-data.server";
import { StartShiftForm } from "./start-shift-form";
import { ScheduleToday } from "./schedule-today";

/** Colours per status; an icon and the word say it too. */
const STATUS_STYLE: Record<OrderStatus, string> = {
  PLACED: "border-amber-500 bg-amber-50 text-amber-950",
  READY: "border-emerald-600 bg-emerald-50 text-emerald-950",
  COLLECTED: "border-blue-600 bg-blue-50 text-blue-950",
  CANCELLED: "border-slate-400 bg-slate-50 text-slate-900",
};

/** The manager's live part: the day and shift, the counts, the counter's health and the new-shift form. */
export function ShiftPanel({ slug, initial }: { slug: string; initial: ManagerData }) {
  const t = useTranslations("manager");
  const locale = useLocale();
  const { data, state, lastUpdated } = useLiveData(slug, initial, async () => {
    const r = await readManager(null, tenantForm(slug));
    return r?.ok ? r.data : null;
  });
  const { businessDay, shift, summary, openCount, counter, failoverBlind, schedule, seriesNearFull = [], openBySeries = [] } = data;
  const strong = (chunks: ReactNode) => <strong>{chunks}</strong>;

  return (
    <>
      <OfflineBanner state={state} lastUpdated={lastUpdated} />
      <div className="space-y-8">
        <div>
          <h1 className="text-3xl font-extrabold tracking-tight">{t("title")}</h1>
          <p className="mt-1 text-lg text-slate-700">
            {t.rich("dayAndShift", {
              day: formatBusinessDay(businessDay, locale),
              shift,
              strong,
              current: (chunks) => <strong data-testid="current-shift">{chunks}</strong>,
            })}
          </p>
          <ScheduleToday slug={slug} schedule={schedule} />
        </div>

        {counter === "database" ? (
          <p role="status" data-testid="counter-status" className="rounded-xl border-2 border-amber-600 bg-amber-50 px-4 py-3 text-lg text-amber-950">
            {t.rich("counterFromDatabase", { strong })}
          </p>
        ) : null}
        {failoverBlind ? (
          <p role="status" data-testid="failover-blind" className="rounded-xl border-2 border-amber-600 bg-amber-50 px-4 py-3 text-lg text-amber-950">
            {t.rich("failoverBlind", { strong })}
          </p>
        ) : null}
        {seriesNearFull.length ? (
          <p role="status" data-testid="series-near-full-notice" className="rounded-xl border-2 border-amber-600 bg-amber-50 px-4 py-3 text-lg text-amber-950">
            {t.rich("seriesNearFull", {
              strong,
              list: seriesNearFull
                .map((s) =>
                  t("seriesNearFullLine", {
                    name: s.name,
                    range: `${displayNumber(s.prefix, s.first)}–${displayNumber(s.prefix, s.last ?? s.first)}`,
                    open: s.open,
                    size: seriesSize(s),
                  }),
                )
                .join(" · "),
              link: (chunks) => (
                <Link href={`/${slug}/manager/series`} className="font-semibold text-blue-800 underline">
                  {chunks}
                </Link>
              ),
            })}
          </p>
        ) : null}

        <section aria-labelledby="shift-orders" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
          <h2 id="shift-orders" className="text-2xl font-bold">
            {t("ordersInShift", { shift })}
          </h2>
          <p className="mt-1 text-slate-600">
            {/* One last number per series, as shown: "57 · K40". A page of an older release has none. */}
            {summary.total === 0 ? t("noOrders") : t("ordersSoFar", { count: summary.total, last: (summary.last ?? []).join(" · ") })}
          </p>
          <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-4">
            {ORDER_STATUSES.map((s) => (
              <div key={s} className={`rounded-xl border-2 p-4 ${STATUS_STYLE[s]}`}>
                <dt className="flex items-center gap-2 text-lg font-semibold">
                  <StatusIcon status={s} />
                  {t(`status.${s}`)}
                </dt>
                <dd className="text-5xl font-black tabular-nums">{summary.byStatus[s]}</dd>
              </div>
            ))}
          </dl>
        </section>

        <section aria-labelledby="new-shift" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
          <h2 id="new-shift" className="text-2xl font-bold">
            {t("newShift.heading")}
          </h2>
          <p className="mt-1 mb-4 text-slate-700">{t("newShift.intro")}</p>
          <StartShiftForm slug={slug} currentShift={shift} openCount={openCount} openBySeries={openBySeries} />
        </section>
      </div>
    </>
  );
}
