import { z } from "zod";
import { CHARSETS, PAPERS, PRINTER_STATUSES } from "@/lib/core/printing/printers";
import { PRINT_JOB_KINDS, PRINT_JOB_STATES, type PrinterView, type PrintJobView } from "@/lib/core/ports";

const timestamp = z.iso.datetime();

/** A printer on the wire (the OpenAPI contract's `Printer`); printerJson returns its type. */
export const printerJsonSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    host: z.string().optional().meta({ description: "A manager's key only: cashier and kitchen keys see no address (decision 0040)." }),
    port: z.int().optional().meta({ description: "A manager's key only." }),
    paper: z.enum(PAPERS),
    charset: z.enum(CHARSETS),
    channels: z.array(z.string()),
    series: z.array(z.string()).meta({ description: "Series ids (`default` for the default series)." }),
    status: z.enum(PRINTER_STATUSES).meta({ description: "What the printer last said of itself." }),
    checkedAt: timestamp.nullable(),
    lastError: z.string().nullable().optional().meta({
      description:
        'A manager\'s key only: why the printer last failed ("the printer did not answer", whatever happened, unless the operator set PRINTER_ERRORS=detailed).',
    }),
    queued: z.int().min(0).meta({ description: "Jobs waiting to print." }),
  })
  .meta({ id: "Printer" });

/** A print job on the wire (the contract's `PrintJob`). */
export const printJobJsonSchema = z
  .object({
    id: z.string(),
    printerId: z.string(),
    printer: z.string().meta({ description: "The printer's name." }),
    kind: z.enum(PRINT_JOB_KINDS).meta({ description: "`ticket`: the customer's; `chit`: a kitchen station's chit of its lines; `test`: a test page." }),
    stationId: z.string().nullable().meta({ description: "The station whose chit this is; null for a ticket or a test page." }),
    orderId: z.string().nullable(),
    display: z.string().nullable().meta({ description: 'The number as the ticket shows it ("K12"); null for a test page.' }),
    state: z.enum(PRINT_JOB_STATES),
    attempts: z.int().min(0),
    lastError: z.string().nullable().optional().meta({ description: "A manager's key only." }),
    createdAt: timestamp,
    printedAt: timestamp.nullable(),
    gaveUpAt: timestamp.nullable(),
  })
  .meta({ id: "PrintJob" });

/**
 * The public JSON form of a printer: its settings, what it last said of itself, and its
 * waiting jobs. Only a manager sees its address and last error (`full`): they map the network.
 */
export function printerJson(p: PrinterView, full = true): z.output<typeof printerJsonSchema> {
  return {
    id: p.id,
    name: p.name,
    ...(full ? { host: p.host, port: p.port } : {}),
    paper: p.paper,
    charset: p.charset,
    channels: p.channels,
    series: p.series,
    status: p.status,
    checkedAt: p.checkedAt?.toISOString() ?? null,
    ...(full ? { lastError: p.lastError } : {}),
    queued: p.queued,
  };
}

/** The public JSON form of a print job; its last error a manager's only (`full`). */
export function printJobJson(j: PrintJobView, full = true): z.output<typeof printJobJsonSchema> {
  return {
    id: j.id,
    printerId: j.printerId,
    printer: j.printerName,
    kind: j.kind,
    stationId: j.stationId,
    orderId: j.orderId,
    display: j.display,
    state: j.state,
    attempts: j.attempts,
    ...(full ? { lastError: j.lastError } : {}),
    createdAt: j.createdAt.toISOString(),
    printedAt: j.printedAt?.toISOString() ?? null,
    gaveUpAt: j.gaveUpAt?.toISOString() ?? null,
  };
}
