"use client";

import { useEffect, useRef } from "react";
import { useTranslations } from "next-intl";
import type { IssuedTicket } from "./actions";
import { Ticket } from "./ticket";
import type { Paper } from "./use-kiosk-device";
import type { KioskPrintingState } from "./use-kiosk-printing";
import { PrinterIcon } from "./printer-icon";
import { printerState } from "./printer-picker";
import { numberWidth } from "@/app/_lib/number-width";

/** As large as before (7–16rem by the screen's width), never wider than its box: "K123" has four characters. */
const issuedSize = (display: string) => `min(clamp(7rem, 22vw, 16rem), ${(100 / numberWidth(display)).toFixed(2)}cqw)`;

/** Where a ticket the server prints is: "Printing on Counter…", "Printed on Counter", waiting for a printer that cannot print, not printed. */
function ServerPrint({ ticket, printing }: { ticket: IssuedTicket; printing: KioskPrintingState }) {
  const t = useTranslations("kiosk.printing");
  const job = printing.jobOf(ticket.orderId);
  const printerId = job?.printerId ?? ticket.printerId ?? null;
  const printer = printing.printers?.find((p) => p.id === printerId) ?? null;
  const name = printer?.name ?? null;
  let text: string;
  let tone = "text-slate-800";
  if (job?.state === "printed") {
    text = name ? t("printedOn", { printer: name }) : t("printed");
    tone = "text-emerald-900";
  } else if (job?.state === "gaveUp") {
    text = t("notPrinted");
    tone = "text-red-800";
  } else if (printer && (printer.status === "offline" || printer.status === "paperOut" || printer.status === "coverOpen")) {
    text = t("waitingFor", { printer: printer.name, state: printerState(t, printer.status) });
    tone = "text-amber-900";
  } else text = name ? t("printingOn", { printer: name }) : t("printingOnUnknown");
  // Words with a sign, not a button: nothing to press here (the printer does it).
  return (
    <p
      role="status"
      data-testid="issued-printing"
      data-state={job?.state ?? "queued"}
      className={`flex w-full items-center justify-center gap-3 py-2 text-2xl font-bold ${tone}`}
    >
      <PrinterIcon className="size-8 shrink-0" />
      {job?.state === "printed" ? <span aria-hidden="true">✓</span> : null}
      <span>{text}</span>
    </p>
  );
}

/**
 * The number just issued, big, with Next order (focused: Enter starts the next order) and
 * Print (the browser's dialog) — or, when the server prints it on a network printer, where
 * that ticket is instead of the dialog.
 */
export function IssuedView({ ticket, paper, printing, onNext }: { ticket: IssuedTicket; paper: Paper; printing: KioskPrintingState; onNext: () => void }) {
  const t = useTranslations("kiosk");
  const nextOrderRef = useRef<HTMLButtonElement>(null);
  useEffect(() => nextOrderRef.current?.focus(), [ticket.orderId]);
  return (
    <section aria-labelledby="issued-heading" className="grid items-start gap-8 lg:grid-cols-[1fr_auto]">
      <div className="@container rounded-2xl border-4 border-emerald-600 bg-emerald-50 p-8 text-center">
        <h2 id="issued-heading" className="text-2xl font-bold text-emerald-900">
          {t("issuedHeading")}
        </h2>
        <p role="status" aria-live="polite" className="sr-only">
          {t("issuedStatus", { number: ticket.display ?? ticket.number })}
        </p>
        <p
          data-testid="issued-number"
          className="my-4 leading-none font-black tabular-nums text-emerald-950"
          style={{ fontSize: issuedSize(ticket.display ?? String(ticket.number)) }}
        >
          {ticket.display ?? ticket.number}
        </p>
        {!ticket.created ? <p className="text-lg font-medium text-emerald-900">{t("sameOrder")}</p> : null}
        <div className="mt-8 flex flex-wrap justify-center gap-4 print:hidden">
          {ticket.printerId || printing.jobOf(ticket.orderId) ? (
            <ServerPrint ticket={ticket} printing={printing} />
          ) : (
            <button
              type="button"
              onClick={() => window.print()}
              className="rounded-xl border-2 border-slate-800 bg-white px-8 py-4 text-2xl font-bold text-slate-900 hover:bg-slate-100 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-300"
            >
              {t("print")}
            </button>
          )}
          <button
            ref={nextOrderRef}
            type="button"
            onClick={onNext}
            className="rounded-xl bg-blue-700 px-8 py-4 text-2xl font-bold text-white hover:bg-blue-800 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-300"
          >
            {t("nextOrder")}
          </button>
        </div>
      </div>
      <div className="mx-auto rounded-md shadow-lg ring-1 ring-slate-300 print:hidden">
        <Ticket ticket={ticket} paper={paper} />
      </div>
    </section>
  );
}
