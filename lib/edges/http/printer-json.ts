import type { PrinterView, PrintJobView } from "@/lib/core/ports";

/** The public JSON form of a printer: its settings, what it last said of itself, and its waiting jobs. */
export function printerJson(p: PrinterView) {
  return {
    id: p.id,
    name: p.name,
    host: p.host,
    port: p.port,
    paper: p.paper,
    charset: p.charset,
    channels: p.channels,
    series: p.series,
    status: p.status,
    checkedAt: p.checkedAt?.toISOString() ?? null,
    lastError: p.lastError,
    queued: p.queued,
  };
}

/** The public JSON form of a print job. */
export function printJobJson(j: PrintJobView) {
  return {
    id: j.id,
    printerId: j.printerId,
    printer: j.printerName,
    kind: j.kind,
    orderId: j.orderId,
    display: j.display,
    state: j.state,
    attempts: j.attempts,
    lastError: j.lastError,
    createdAt: j.createdAt.toISOString(),
    printedAt: j.printedAt?.toISOString() ?? null,
    gaveUpAt: j.gaveUpAt?.toISOString() ?? null,
  };
}
