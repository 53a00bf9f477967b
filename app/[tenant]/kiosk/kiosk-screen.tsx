"use client";

import { useTranslations } from "next-intl";
import { seriesFor, servesChannel } from "@/lib/core/series";
import { OfflineBanner } from "@/app/_components/offline-banner";
import { KioskForm } from "./kiosk-form";
import type { KioskView } from "./kiosk-view.server";
import { PaperPicker } from "./paper-picker";
import { PrintTicket } from "./print-ticket";
import { PrinterPicker, useDevicePrinter } from "./printer-picker";
import { PrintingBanner } from "./printing-banner";
import { SeriesPicker, seriesName, useDeviceSeries } from "./series-picker";
import { useKioskDevice } from "./use-kiosk-device";
import { useKioskPrinting } from "./use-kiosk-printing";
import { useKioskView } from "./use-kiosk-view";

/**
 * The cashier's screen: the order form (menu and settings kept live), this device's series,
 * printer and paper, its last ticket, the trouble its network printer has, the connection.
 */
export function KioskScreen({ slug, draftScope, initial }: { slug: string; draftScope: string; initial: KioskView }) {
  const t = useTranslations("kiosk");
  const ts = useTranslations("kiosk.series");
  const tp = useTranslations("kiosk.printing");
  const device = useKioskDevice(slug);
  const { paper, setPaper, lastTicket, rememberTicket, series: remembered, setSeries, trackPrinted } = device;
  const printing = useKioskPrinting(slug, {
    chosenId: device.printer?.id ?? null,
    lastPrinterId: lastTicket?.printerId ?? null,
    tracked: device.printed,
    track: trackPrinted,
  });
  const { view, connection, lastUpdated, setLastUpdated, reread } = useKioskView(slug, initial, {
    onPrinterChanged: () => void printing.refresh(),
    onConnect: () => void printing.refresh(),
  });
  // The printer this device chose, if the restaurant still has it; else (null) the print dialog.
  const printer = useDevicePrinter(printing.printers, device.printer, device.setPrinter);
  // The series this device chose, if the restaurant still has it; else (null) its channel's.
  // Only the series a kiosk order may name (decision 0041): one serving another channel is forgotten like a deleted one.
  const choosable = view.series.filter((s) => servesChannel(s, "kiosk"));
  const { chosen, gone, choose } = useDeviceSeries(choosable, remembered, setSeries);
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
            <SeriesPicker series={choosable} auto={auto} chosen={chosen?.name ?? null} onChange={choose} />
            <PrinterPicker printers={printing.printers} chosen={printer.chosen} seriesId={(chosen ?? auto).id} onChange={printer.choose} />
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
          {printer.gone !== null ? (
            <p data-testid="printer-gone" className="-mt-2 mb-3 text-base text-slate-700">
              {tp("gone", { name: printer.gone })}
            </p>
          ) : null}
        </div>
        <PrintingBanner printing={printing} />
        <KioskForm
          slug={slug}
          draftScope={draftScope}
          view={view}
          paper={paper}
          series={chosen?.name ?? null}
          printer={printer.chosen?.id ?? null}
          printing={printing}
          lastTicket={lastTicket}
          onIssued={(ticket) => {
            rememberTicket(ticket);
            // The server prints it: follow its job (read at once, then on events and every 15 s while it waits). A retry
            // of an order already taken comes back without its printer: followed too, its job (if any) tells.
            if (ticket.printerId || !ticket.created) trackPrinted(ticket.orderId);
            setLastUpdated(Date.now());
          }}
          onStaleMenu={() => void reread()}
        />
      </main>
      <PrintTicket ticket={lastTicket} paper={paper} />
    </>
  );
}
