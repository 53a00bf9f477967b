/** Where printers and their print jobs are kept, and how a printer is reached (decision 0029). */
import type { AuditEntry } from "../audit";
import type { OrderItem, Service } from "../orders";
import type { OrderPart } from "../stations";
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
/** "ticket": the customer's; "chit": a station's kitchen chit of its lines; "test": a test page. */
export const PRINT_JOB_KINDS = ["ticket", "chit", "test"] as const;
export type PrintJobKind = (typeof PRINT_JOB_KINDS)[number];

export interface PrintJobView {
  id: string;
  printerId: string;
  printerName: string;
  orderId: string | null;
  /** The number as the ticket shows it ("K12"); null for a test page. */
  display: string | null;
  kind: PrintJobKind;
  /** The station whose chit this is; null for a ticket or a test page. */
  stationId: string | null;
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
  /** The customer's page (the ticket's QR code); null for a test page and a chit. */
  url: string | null;
  /** The station whose chit this is (kind "chit"). */
  stationId?: string | null;
}

/** An order's print jobs: decided before the order is stored, written with it. */
export interface PrintRequest {
  /** The customer's ticket; null: none (the order said `"print": false`, or no printer takes it). */
  ticket: {
    printerId: string;
    /** The customer's page of the stored order (its id is known only then): the ticket's QR code. */
    urlOf(orderId: string): string;
  } | null;
  /** A kitchen chit for each of the order's parts whose station has a printer. */
  chits: readonly { printerId: string; stationId: string }[];
}

type AuditDraft = Omit<AuditEntry, "at">;

/** The address a printer claims (null: none, addresses are shared), and the error a claim held by another printer is refused with. */
export interface AddressClaim {
  addressKey: string | null;
  addressTaken: () => Error;
}

export interface PrinterStore {
  list(tenantId: string): Promise<PrinterView[]>;
  get(tenantId: string, id: string): Promise<PrinterView | null>;
  /**
   * Throws AppError CONFLICT when the name is taken, and `addressTaken()` when another printer
   * holds `addressKey` (a unique index: null claims nothing).
   */
  create(tenantId: string, fields: PrinterFields, audit: AuditDraft, address: AddressClaim): Promise<PrinterView>;
  /** Null when there is no such printer. */
  update(
    tenantId: string,
    id: string,
    plan: (before: Printer) => { fields: PrinterFields; audit: AuditDraft; address: AddressClaim },
  ): Promise<PrinterView | null>;
  remove(tenantId: string, id: string, audit: (before: Printer) => AuditDraft): Promise<PrinterView | null>;
  /** Writes a job (a reprint, a test page) and wakes the printer's queue. */
  enqueue(tenantId: string, job: NewPrintJob, audit: AuditDraft | null): Promise<PrintJobView>;
  /** The latest jobs, newest first. */
  jobs(tenantId: string, filter: { printerId?: string; orderIds?: readonly string[]; kind?: PrintJobKind; limit: number }): Promise<PrintJobView[]>;
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

/** The oldest job waiting for a printer, claimed by a drain, with what its ticket says. */
export interface WaitingJob {
  id: string;
  kind: PrintJobKind;
  /** The station whose chit this is; null for a ticket or a test page. */
  stationId: string | null;
  /**
   * `claimed`: nothing of it was sent yet. `sending`: a drain that lost it had begun sending
   * its bytes (they may have printed), so it must not be sent again (decision 0033).
   */
  state: "claimed" | "sending";
  attempts: number;
  createdAt: Date;
  url: string | null;
  order: {
    number: number;
    prefix: string;
    items: OrderItem[];
    note: string | null;
    createdAt: Date;
    channel: string;
    /** Eat in or take away; null: not stated. */
    service: Service | null;
    /** The order's parts (a chit names its station as the part does). */
    stations: OrderPart[];
  } | null;
}

/**
 * The drainer's view of the jobs (PostgreSQL). Every change of a job is one conditional
 * write on its holder (a token per drain) and its expected state: false means another drain
 * took it over, and the caller stops (decision 0033).
 */
export interface PrintLedger {
  target(printerId: string): Promise<PrintTarget | null>;
  /** Holds the printer for `holder` (one drainer at a time), or renews its hold; false when another holds it. */
  hold(printerId: string, holder: string): Promise<boolean>;
  release(printerId: string, holder: string): Promise<void>;
  /**
   * Claims the oldest waiting job for `holder`, which must hold the printer: a queued one, or
   * one a drain that lost the printer left claimed. Null when none waits (or the hold is gone).
   */
  claim(printerId: string, holder: string): Promise<WaitingJob | null>;
  /** The job's bytes are about to go out (a crash now leaves it for a person); false: not ours any more, send nothing. */
  sending(jobId: string, holder: string): Promise<boolean>;
  printed(jobId: string, holder: string, at: Date): Promise<boolean>;
  /** Not sent: back to waiting, with why. */
  notPrinted(jobId: string, holder: string, error: string): Promise<boolean>;
  gaveUp(jobId: string, holder: string, at: Date, error: string): Promise<boolean>;
  /**
   * Records what the printer said; true when it differs from what was stored. `ok`, `paperOut`
   * or `coverOpen` means it answered: its backoff (`unanswered`) starts again from the first
   * step (so does a printed ticket); `offline` and `unknown` keep it (decision 0039).
   */
  setStatus(printerId: string, status: PrinterStatus, error: string | null, at: Date): Promise<boolean>;
  /** The printer did not answer: its next drain waits longer (3 s, doubling, at most 60 s; decision 0039), never past its oldest ticket's give-up time. */
  unanswered(printerId: string): Promise<void>;
}

/** A printer whose address was resolved and checked once, for one step: a status query and a job. */
export interface ReachedPrinter {
  status(): Promise<{ status: PrinterStatus; error: string | null }>;
  print(job: WaitingJob): Promise<{ ok: true } | { ok: false; error: string }>;
}

/** A printer on the network: its address resolved and checked (bounded in time), or why not. */
export interface PrinterLink {
  reach(target: PrintTarget): Promise<{ ok: true; printer: ReachedPrinter } | { ok: false; error: string }>;
}

export type PrintOutcome = "printed" | "retried" | "gave_up";

export interface PrintMetrics {
  job(outcome: PrintOutcome): void;
}
