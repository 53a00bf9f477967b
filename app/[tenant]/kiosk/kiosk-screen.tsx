"use client";

import { useTranslations } from "next-intl";
import { seriesFor } from "@/lib/core/series";
import { OfflineBanner } from "@/app/_components/offline-banner";
import { KioskForm } from "./kiosk-form";
import type { KioskView } from "./kiosk-view.server";
import { PaperPicker } from "./paper-picker";
import { PrintTicket } from "./print-ticket";
import { SeriesPicker, seriesName, useDeviceSeries } from "./series-picker";
import { useKioskDevice } from "./use-kiosk-device";
import { useKioskView } from "./use-kiosk-view";

/** The cashier's screen: the order form (menu and settings kept live), this device's printer paper and last ticket, the connection. */
export function KioskScreen({ slug, initial }: { slug: string; initial: KioskView }) {
  const t = useTranslations("kiosk");
  const ts = useTranslations("kiosk.series");
  const { paper, setPaper, lastTicket, rememberTicket, series: remembered, setSeries } = useKioskDevice(slug);
  const { view, connection, lastUpdated, setLastUpdated, reread } = useKioskView(slug, initial);
  // The series this device chose, if the restaurant still has it; else (null) its channel's.
  const { chosen, gone, choose } = useDeviceSeries(view.series, remembered, setSeries);
  const auto = seriesFor(view.series, { channel: "kiosk" });

  return (
    <>
      <div className="print:hidden">
        <OfflineBanner state={connection} lastUpdated={lastUpdated} />
      </div>
      <main className="mx-auto max-w-5xl px-4 py-4" data-connection={connection} data-number-only={view.numberOnly}>
        <div className="mb-4 flex flex-wrap items-center justify-between gap-4">
          <h1 className="text-3xl font-extrabold tracking-tight">{t("heading")}</h1>
          <div className="flex flex-wrap items-center gap-x-6 gap-y-2">
            <SeriesPicker series={view.series} auto={auto} chosen={chosen?.name ?? null} onChange={choose} />
            <PaperPicker paper={paper} onChange={setPaper} />
          </div>
        </div>
        {/* Quiet: the kiosk goes on with its channel's numbers. */}
        <div role="status" className="print:hidden">
          {gone !== null ? (
            <p data-testid="series-gone" className="-mt-2 mb-3 text-base text-slate-700">
              {ts("gone", { name: gone, series: seriesName(ts, auto) })}
            </p>
          ) : null}
        </div>
        <KioskForm
          slug={slug}
          view={view}
          paper={paper}
          series={chosen?.name ?? null}
          lastTicket={lastTicket}
          onIssued={(ticket) => {
            rememberTicket(ticket);
            setLastUpdated(Date.now());
          }}
          onStaleMenu={() => void reread()}
        />
      </main>
      <PrintTicket ticket={lastTicket} paper={paper} />
    </>
  );
}
