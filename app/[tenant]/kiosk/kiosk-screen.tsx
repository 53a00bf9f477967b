"use client";

import { useState } from "react";
import { useTranslations } from "next-intl";
import type { MenuSection } from "@/lib/core/menu";
import { useBoardSocket } from "@/app/_components/use-board-socket";
import { OfflineBanner } from "@/app/_components/offline-banner";
import { KioskForm } from "./kiosk-form";
import { PaperPicker } from "./paper-picker";
import { PrintTicket } from "./print-ticket";
import { useKioskDevice } from "./use-kiosk-device";

/** The cashier's screen: the order form, this device's printer paper and last ticket, the connection. */
export function KioskScreen({ slug, menu }: { slug: string; menu: MenuSection[] }) {
  const t = useTranslations("kiosk");
  const { paper, setPaper, lastTicket, rememberTicket } = useKioskDevice(slug);
  // The kiosk shows no live data; the socket only tells whether the server is reachable.
  const [lastUpdated, setLastUpdated] = useState<number | null>(null);
  const connection = useBoardSocket(slug, { onConnect: () => setLastUpdated(Date.now()) });

  return (
    <>
      <div className="print:hidden">
        <OfflineBanner state={connection} lastUpdated={lastUpdated} />
      </div>
      <main className="mx-auto max-w-5xl px-4 py-6" data-connection={connection}>
        <div className="mb-6 flex flex-wrap items-center justify-between gap-4">
          <h1 className="text-3xl font-extrabold tracking-tight">{t("heading")}</h1>
          <PaperPicker paper={paper} onChange={setPaper} />
        </div>
        <KioskForm
          slug={slug}
          menu={menu}
          paper={paper}
          lastTicket={lastTicket}
          onIssued={(ticket) => {
            rememberTicket(ticket);
            setLastUpdated(Date.now());
          }}
        />
      </main>
      <PrintTicket ticket={lastTicket} paper={paper} />
    </>
  );
}
