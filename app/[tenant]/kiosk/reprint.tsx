"use client";

import { useState } from "react";
import { useTranslations } from "next-intl";
import type { IssuedTicket } from "./actions";
import type { KioskPrintingState } from "./use-kiosk-printing";

/**
 * "Reprint last ticket" with the number and time it is for; nothing before this device
 * issued one. A ticket the server printed on a network printer is printed there again
 * (on this device's printer now, else the one it went to), and the screen says where;
 * any other goes through the browser's print dialog, as it always did.
 */
export function Reprint({ lastTicket, printing, printerId }: { lastTicket: IssuedTicket | null; printing: KioskPrintingState; printerId: string | null }) {
  const t = useTranslations("kiosk");
  const [sent, setSent] = useState<{ orderId: string; text: string; ok: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  if (!lastTicket) return null;
  // A retry of an order already taken comes back without its printer: its job says where it went.
  const sentTo = lastTicket.printerId ?? printing.jobOf(lastTicket.orderId)?.printerId ?? null;
  const server = sentTo ? (printerId ?? sentTo) : null;

  async function onReprint() {
    if (!lastTicket) return;
    if (!server) {
      window.print();
      return;
    }
    setBusy(true);
    const r = await printing.reprint(lastTicket.orderId, server);
    setBusy(false);
    const name = r.ok ? printing.printerName(r.printerId) : null;
    setSent({
      orderId: lastTicket.orderId,
      ok: r.ok,
      text: r.ok ? (name ? t("printing.sentTo", { printer: name }) : t("printing.sent")) : r.error,
    });
  }

  const shown = sent?.orderId === lastTicket.orderId ? sent : null;
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
      <button
        type="button"
        onClick={() => void onReprint()}
        disabled={busy}
        data-testid="reprint"
        className="rounded-xl border-2 border-slate-700 bg-white px-5 py-3 text-lg font-bold text-slate-900 hover:bg-slate-100 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-300 disabled:cursor-wait"
      >
        {t("reprint")}
      </button>
      <span className="text-base text-slate-700">{t("reprintHint", { number: lastTicket.display ?? lastTicket.number, time: lastTicket.time })}</span>
      <span role="status" data-testid="reprint-sent" className={`w-full text-base font-semibold ${shown?.ok === false ? "text-red-800" : "text-emerald-900"}`}>
        {shown ? (
          <>
            <span aria-hidden="true">{shown.ok ? "✓ " : "⚠ "}</span>
            {shown.text}
          </>
        ) : null}
      </span>
    </div>
  );
}
