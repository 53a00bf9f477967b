/**
 * The core's PrinterLink over the network (decisions 0029, 0033, 0040): each step resolves the
 * printer's host once, within a time limit, and checks each address against PRINTER_NETWORKS
 * and PRINTER_PORTS, then talks to the checked address only — for a status query (DLE EOT)
 * and for a job. Every way a printer fails to answer reads the same to the restaurant; the
 * detail goes to the operator's log (or to the restaurant too with PRINTER_ERRORS=detailed).
 */
import type { Logger, PrinterLink, PrintTarget, ReachedPrinter, WaitingJob } from "@/lib/core/ports";
import { PRINTER_REFUSALS, type PrinterNetworkPolicy } from "@/lib/core/printing/printer-network";
import { PRINTER_DID_NOT_ANSWER, statusFromReplies } from "@/lib/core/printing/printer-status";
import { testPageContent, ticketContent } from "@/lib/core/printing/print-content";
import { chitContent } from "@/lib/core/printing/chit";
import { chitBytes, testPageBytes, ticketBytes } from "./escpos.server";
import { PrinterError, queryStatus, resolvePrinter, sendToPrinter } from "./tcp-printer.server";

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** plain: one sentence per kind of failure for the restaurant; detailed: what happened (one restaurant per server). */
export type PrinterErrors = "plain" | "detailed";

export function createPrinterLink(opts: {
  policy: PrinterNetworkPolicy;
  errors?: PrinterErrors;
  log?: Pick<Logger, "info">;
  resolve?: (host: string) => Promise<string[]>;
  lookupTimeoutMs?: number;
}): PrinterLink {
  const detailed = opts.errors === "detailed";
  /** What the restaurant reads of `e` (`plain` when errors are plain), after the detail went to the log. */
  const said = (target: PrintTarget, step: string, e: unknown, plain: string): string => {
    opts.log?.info({ tenantId: target.tenantId, printerId: target.id, step, detail: message(e) }, "printer did not answer");
    return detailed ? message(e) : plain;
  };
  return {
    async reach(target) {
      let address: string;
      try {
        address = await resolvePrinter(target, opts.policy, opts.resolve, opts.lookupTimeoutMs);
      } catch (e) {
        if (e instanceof PrinterError) return { ok: false, error: said(target, "address", e, PRINTER_REFUSALS[e.refusal ?? "notAllowed"]) };
        throw e;
      }
      return { ok: true, printer: reached(target, address, said) };
    },
  };
}

type Say = (target: PrintTarget, step: string, e: unknown, plain: string) => string;

/**
 * `target` at its checked `address`: a step's status query and job use it, with no second
 * lookup. A printer that cannot be reached — refused, dropped, reset — is "offline", so the
 * cashier is told its ticket waits; one connected but silent is "unknown" (many adapters
 * never answer DLE EOT) and printing is still tried. Either way the restaurant reads one
 * sentence, never what the port did (decision 0040).
 */
function reached(target: PrintTarget, address: string, say: Say): ReachedPrinter {
  return {
    async status() {
      try {
        const status = statusFromReplies(await queryStatus(address, target.port));
        if (status !== "unknown") return { status, error: null };
        return { status, error: say(target, "status", new Error("no status reply (DLE EOT)"), PRINTER_DID_NOT_ANSWER) };
      } catch (e) {
        if (e instanceof PrinterError) return { status: "offline", error: say(target, "status", e, PRINTER_DID_NOT_ANSWER) };
        throw e;
      }
    },
    async print(job) {
      const bytes = jobBytes(target, job);
      // An order that is gone (its restaurant deleted it), or a kind this release does not know, has nothing to print: done.
      if (!bytes) return { ok: true };
      try {
        await sendToPrinter(address, target.port, bytes);
        return { ok: true };
      } catch (e) {
        return { ok: false, error: say(target, "print", e, PRINTER_DID_NOT_ANSWER) };
      }
    },
  };
}

/** A job's bytes by its kind; null: nothing to print. */
function jobBytes(target: PrintTarget, job: WaitingJob): Buffer | null {
  switch (job.kind) {
    case "test":
      return testPageBytes(testPageContent(target, new Date()), target);
    case "chit": {
      const chit = chitContent(target, job);
      return chit && chitBytes(chit, target);
    }
    case "ticket": {
      const ticket = ticketContent(target, job);
      return ticket && ticketBytes(ticket, target);
    }
    default:
      return null;
  }
}
