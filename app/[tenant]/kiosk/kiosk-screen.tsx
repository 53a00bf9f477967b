"use client";

import { useTranslations } from "next-intl";
import { OfflineBanner } from "@/app/_components/offline-banner";
import { KioskForm } from "./kiosk-form";
import type { KioskView } from "./kiosk-view.server";
import { PaperPicker } from "./paper-picker";
import { PrintTicket } from "./print-ticket";
import { useKioskDevice } from "./use-kiosk-device";
import { useKioskView } from "./use-kiosk-view";

/** The cashier's screen: the order form (menu and settings kept live), this device's printer paper and last ticket, the connection. */
export function KioskScreen({ slug, initial }: { slug: string; initial: KioskView }) {
  const t = useTranslations("kiosk");
  const { paper, setPaper, lastTicket, rememberTicket } = useKioskDevice(slug);
  const { view, connection, lastUpdated, setLastUpdated, reread } = useKioskView(slug, initial);

  return (
    <>
      <div className="print:hidden">
        <OfflineBanner state={connection} lastUpdated={lastUpdated} />
      </div>
      <main className="mx-auto max-w-5xl px-4 py-4" data-connection={connection} data-number-only={view.numberOnly}>
        <div className="mb-4 flex flex-wrap items-center justify-between gap-4">
          <h1 className="text-3xl font-extrabold tracking-tight">{t("heading")}</h1>
          <PaperPicker paper={paper} onChange={setPaper} />
        </div>
        <KioskForm
          slug={slug}
          view={view}
          paper={paper}
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
