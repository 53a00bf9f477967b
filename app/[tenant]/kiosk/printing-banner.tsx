"use client";

import { useState } from "react";
import { useTranslations } from "next-intl";
import { PrinterIcon } from "./printer-icon";
import type { KioskPrintingState, PrintTrouble } from "./use-kiosk-printing";

const troubleKey = (tr: PrintTrouble) => (tr.kind === "gaveUp" ? `job-${tr.job.id}` : `printer-${tr.printer.id}`);

/**
 * What goes wrong with this device's printing, where the cashier looks (above the form, in
 * the page's flow: it never covers a button): a printer off, out of paper or open, naming
 * the ticket that waits; a ticket given up, with Reprint and Dismiss. Words and a sign,
 * never a colour alone.
 */
export function PrintingBanner({ printing }: { printing: KioskPrintingState }) {
  const t = useTranslations("kiosk.printing");
  const [busy, setBusy] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { troubles } = printing;

  async function reprint(orderId: string, printerId: string) {
    setBusy(orderId);
    const r = await printing.reprint(orderId, printerId);
    setBusy(null);
    setErrors((e) => ({ ...e, [orderId]: r.ok ? "" : r.error }));
  }

  return (
    <div role="status" aria-live="polite" data-testid="printing-banner" className="print:hidden">
      {troubles.length > 0 ? (
        <ul className="mb-4 space-y-1.5">
          {troubles.map((tr) => (
            <li
              key={troubleKey(tr)}
              data-testid={`print-trouble-${tr.kind}`}
              className={`flex flex-wrap items-center gap-x-4 gap-y-2 rounded-xl border-2 px-4 py-2 text-lg ${
                tr.kind === "gaveUp" ? "border-red-700 bg-red-50 text-red-950" : "border-amber-600 bg-amber-50 text-amber-950"
              }`}
            >
              <PrinterIcon className="size-7 shrink-0" />
              {tr.kind === "gaveUp" ? (
                <>
                  <span className="font-bold">{t("gaveUp", { number: tr.job.display ?? "?" })}</span>
                  <span className="ml-auto flex flex-wrap gap-3">
                    <button
                      type="button"
                      disabled={busy === tr.job.orderId}
                      onClick={() => void reprint(tr.job.orderId!, tr.job.printerId)}
                      className="rounded-lg bg-red-800 px-4 py-1.5 font-bold text-white hover:bg-red-900 focus:outline-none focus-visible:ring-4 focus-visible:ring-red-300 disabled:cursor-wait disabled:opacity-70"
                    >
                      {t("reprint")}
                    </button>
                    <button
                      type="button"
                      onClick={() => printing.dismiss(tr.job.orderId!)}
                      aria-label={t("dismissLabel", { number: tr.job.display ?? "?" })}
                      className="rounded-lg border-2 border-red-800 bg-white px-4 py-1.5 font-bold text-red-900 hover:bg-red-100 focus:outline-none focus-visible:ring-4 focus-visible:ring-red-300"
                    >
                      {t("dismiss")}
                    </button>
                  </span>
                  {errors[tr.job.orderId!] ? <span className="w-full font-semibold">{errors[tr.job.orderId!]}</span> : null}
                </>
              ) : (
                <>
                  <span className="font-bold">{t(tr.kind, { printer: tr.printer.name, number: tr.number ?? "none" })}</span>
                  {tr.waiting > 1 ? <span className="font-medium">{t("waiting", { count: tr.waiting })}</span> : null}
                </>
              )}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
