/** Where printers and their print jobs are kept, and how a printer is reached (decision 0029). */
import type { AuditEntry } from "../audit";
import type { OrderItem } from "../orders";
import type { PrinterFields, PrinterStatus } from "../printing/printers";

export interface Printer extends PrinterFields {
  id: string;
  createdAt: Date;
}

/** A printer as the console and the API show it: what it last said of itself, and its waiting tickets. */
export interface PrinterView extends Printer {
  status: PrinterStatus;
  checkedAt: Date | null;
  lastError: string | null;
  /** Jobs waiting to print (queued or being sent). */
  queued: number;
}

export const PRINT_JOB_STATES = ["queued", "printing", "printed", "gaveUp"] as const;
export type PrintJobState = (typeof PRINT_JOB_STATES)[number];
export type PrintJobKind = "ticket" | "test";

export interface PrintJobView {
  id: string;
  printerId: string;
  printerName: string;
  orderId: string | null;
  /** The number as the ticket shows it ("K12"); null for a test page. */
  display: string | null;
  kind: PrintJobKind;
  state: PrintJobState;
  attempts: number;
  lastError: string | null;
  createdAt: Date;
  printedAt: Date | null;
  gaveUpAt: Date | null;
}

/** A job to write: with an order, in the order's own transaction (the outbox); else alone. */
export interface NewPrintJob {
  printerId: string;
  orderId: string | null;
  kind: PrintJobKind;
  /** The customer's page (the ticket's QR code); null for a test page. */
  url: string | null;
}

/** An order's ticket goes to this printer: decided before the order is stored, written with it. */
export interface PrintRequest {
  printerId: string;
  /** The customer's page of the stored order (its id is known only then): the ticket's QR code. */
  urlOf(orderId: string): string;
}

type AuditDraft = Omit<AuditEntry, "at">;

export interface PrinterStore {
  list(tenantId: string): Promise<PrinterView[]>;
  get(tenantId: string, id: string): Promise<PrinterView | null>;
  /** Throws AppError CONFLICT when the name is taken. */
  create(tenantId: string, fields: PrinterFields, audit: AuditDraft): Promise<PrinterView>;
  /** Null when there is no such printer. */
  update(tenantId: string, id: string, plan: (before: Printer) => { fields: PrinterFields; audit: AuditDraft }): Promise<PrinterView | null>;
  remove(tenantId: string, id: string, audit: (before: Printer) => AuditDraft): Promise<PrinterView | null>;
  /** Writes a job (a reprint, a test page) and wakes the printer's queue. */
  enqueue(tenantId: string, job: NewPrintJob, audit: AuditDraft | null): Promise<PrintJobView>;
  /** The latest jobs, newest first. */
  jobs(tenantId: string, filter: { printerId?: string; orderIds?: readonly string[]; limit: number }): Promise<PrintJobView[]>;
}

/** Which printers an order may go to: cached per node, forgotten when printers change. */
export interface PrinterRoutes {
  routes(tenantId: string): Promise<readonly { id: string; name: string; channels: readonly string[]; series: readonly string[] }[]>;
}

/** What printing a job needs to know of its printer and restaurant. */
export interface PrintTarget extends Printer {
  tenantId: string;
  restaurant: string;
  timeZone: string;
  currency: string | null;
  language: string | null;
  giveUpMinutes: number;
}

/** The oldest job waiting for a printer, with what its ticket says. */
export interface WaitingJob {
  id: string;
  kind: PrintJobKind;
  state: "queued" | "printing";
  attempts: number;
  createdAt: Date;
  url: string | null;
  order: { number: number; prefix: string; items: OrderItem[]; note: string | null; createdAt: Date } | null;
}

/** The drainer's view of the jobs (PostgreSQL). */
export interface PrintLedger {
  target(printerId: string): Promise<PrintTarget | null>;
  /** Holds the printer for `owner` (one drainer at a time), or renews its hold; false when another holds it. */
  hold(printerId: string, owner: string): Promise<boolean>;
  release(printerId: string, owner: string): Promise<void>;
  next(printerId: string): Promise<WaitingJob | null>;
  /** The job is being sent (a crash now prints it again: at least once). */
  sending(jobId: string): Promise<void>;
  printed(jobId: string, at: Date): Promise<void>;
  /** Not sent: back to waiting, with why. */
  notPrinted(jobId: string, error: string): Promise<void>;
  gaveUp(jobId: string, at: Date, error: string): Promise<void>;
  /** Records what the printer said; true when it differs from what was stored. */
  setStatus(printerId: string, status: PrinterStatus, error: string | null, at: Date): Promise<boolean>;
}

/** A printer on the network: its real-time status, and printing one job. */
export interface PrinterLink {
  status(target: PrintTarget): Promise<{ status: PrinterStatus; error: string | null }>;
  print(target: PrintTarget, job: WaitingJob): Promise<{ ok: true } | { ok: false; error: string }>;
}

export type PrintOutcome = "printed" | "retried" | "gave_up";

export interface PrintMetrics {
  job(outcome: PrintOutcome): void;
}
