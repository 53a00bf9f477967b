/**
 * The core's PrinterLink over the network (decision 0029): every connection resolves the
 * printer's host once and checks each address against PRINTER_NETWORKS and PRINTER_PORTS,
 * then talks to the checked address only — for a status query (DLE EOT) and for a job.
 */
import type { PrinterLink } from "@/lib/core/ports";
import type { PrinterNetworkPolicy } from "@/lib/core/printing/printer-network";
import { statusFromReplies } from "@/lib/core/printing/printer-status";
import { testPageContent, ticketContent } from "@/lib/core/printing/print-content";
import { testPageBytes, ticketBytes } from "./escpos.server";
import { PrinterError, queryStatus, resolvePrinter, sendToPrinter } from "./tcp-printer.server";

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export function createPrinterLink(opts: { policy: PrinterNetworkPolicy; resolve?: (host: string) => Promise<string[]> }): PrinterLink {
  return {
    async status(target) {
      try {
        const address = await resolvePrinter(target, opts.policy, opts.resolve);
        return { status: statusFromReplies(await queryStatus(address, target.port)), error: null };
      } catch (e) {
        if (e instanceof PrinterError) return { status: "offline", error: e.message };
        throw e;
      }
    },
    async print(target, job) {
      const bytes =
        job.kind === "test"
          ? testPageBytes(testPageContent(target, new Date()), target)
          : (() => {
              const ticket = ticketContent(target, job);
              return ticket && ticketBytes(ticket, target);
            })();
      // An order that is gone (its restaurant deleted it) has nothing to print: done.
      if (!bytes) return { ok: true };
      try {
        await sendToPrinter(await resolvePrinter(target, opts.policy, opts.resolve), target.port, bytes);
        return { ok: true };
      } catch (e) {
        if (e instanceof PrinterError) return { ok: false, error: e.message };
        return { ok: false, error: message(e) };
      }
    },
  };
}
