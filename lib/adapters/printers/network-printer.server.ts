/**
 * The core's PrinterLink over the network (decisions 0029, 0033): each step resolves the
 * printer's host once, within a time limit, and checks each address against PRINTER_NETWORKS
 * and PRINTER_PORTS, then talks to the checked address only — for a status query (DLE EOT)
 * and for a job.
 */
import type { PrinterLink, PrintTarget, ReachedPrinter } from "@/lib/core/ports";
import type { PrinterNetworkPolicy } from "@/lib/core/printing/printer-network";
import { statusFromReplies } from "@/lib/core/printing/printer-status";
import { testPageContent, ticketContent } from "@/lib/core/printing/print-content";
import { testPageBytes, ticketBytes } from "./escpos.server";
import { PrinterError, queryStatus, resolvePrinter, sendToPrinter } from "./tcp-printer.server";

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export function createPrinterLink(opts: {
  policy: PrinterNetworkPolicy;
  resolve?: (host: string) => Promise<string[]>;
  lookupTimeoutMs?: number;
}): PrinterLink {
  return {
    async reach(target) {
      let address: string;
      try {
        address = await resolvePrinter(target, opts.policy, opts.resolve, opts.lookupTimeoutMs);
      } catch (e) {
        if (e instanceof PrinterError) return { ok: false, error: e.message };
        throw e;
      }
      return { ok: true, printer: reached(target, address) };
    },
  };
}

/** `target` at its checked `address`: a step's status query and job use it, with no second lookup. */
function reached(target: PrintTarget, address: string): ReachedPrinter {
  return {
    async status() {
      try {
        return { status: statusFromReplies(await queryStatus(address, target.port)), error: null };
      } catch (e) {
        if (e instanceof PrinterError) return { status: "offline", error: e.message };
        throw e;
      }
    },
    async print(job) {
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
        await sendToPrinter(address, target.port, bytes);
        return { ok: true };
      } catch (e) {
        if (e instanceof PrinterError) return { ok: false, error: e.message };
        return { ok: false, error: message(e) };
      }
    },
  };
}
