/** What the printers page hands its client components: a printer, a print job, a series to choose. */
import type { PrintJobKind, PrintJobState } from "@/lib/core/ports";
import type { PrinterFields, PrinterStatus } from "@/lib/core/printing/printers";

export interface PrinterRow extends PrinterFields {
  id: string;
  status: PrinterStatus;
  /** When the printer last answered or failed to, in the restaurant's time; null: not yet. */
  checked: string | null;
  lastError: string | null;
  queued: number;
}

export interface JobRow {
  id: string;
  printerId: string;
  printer: string;
  orderId: string | null;
  display: string | null;
  kind: PrintJobKind;
  /** A chit's station by its name now; null: not a chit, or its station was removed since. */
  station: string | null;
  state: PrintJobState;
  attempts: number;
  /** When it was printed or given up, else when it was queued. */
  at: string;
  lastError: string | null;
}

/** A series a printer may print for, by the name the screen shows. */
export interface SeriesChoice {
  id: string;
  name: string;
}
