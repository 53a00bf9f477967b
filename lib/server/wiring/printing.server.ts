/**
 * Network printing as a node runs it (decisions 0029, 0033): the printer service the
 * console and the orders use, and the drains of this node's print workers.
 */
import type { Db } from "@/lib/adapters/postgres/prisma.server";
import type { Clock, EventPublisher } from "@/lib/core/ports";
import { PrinterService } from "@/lib/core/printing/printer-service";
import { tenantShare } from "@/lib/core/fair-share";
import { PrintDrainer } from "@/lib/core/printing/print-drainer";
import type { PrismaPrinterStore } from "@/lib/adapters/postgres/printer-store.server";
import { PrismaPrintLedger } from "@/lib/adapters/postgres/print-ledger.server";
import { PRINT_SWEEP_MS, type PrintQueue } from "@/lib/adapters/postgres/print-queue.server";
import { createPrinterLink } from "@/lib/adapters/printers/network-printer.server";
import { resolveHost } from "@/lib/adapters/webhooks/http-sender.server";
import type { Invalidator } from "../caches/invalidation.server";
import type { Env } from "../env.server";
import type { Throttles } from "../http/throttles.server";
import type { Logger } from "../ops/logger.server";
import { registerPrintMetrics, type AppMetrics } from "../ops/metrics.server";

/** Printers one node drains at once (each holds one printer, in order). */
const PRINT_WORKERS = 4;

/** Idle printers one node asks for their status per sweep, and at once. */
const IDLE_CHECKS_PER_SWEEP = 20;
const IDLE_CHECKS_AT_ONCE = 5;

export interface Printing {
  service: PrinterService;
  /** Starts this node's print workers. */
  start(): Promise<void>;
  /** Stops taking drains (those in flight finish with the queue's stop). */
  stop(): void;
}

export function wirePrinting(deps: {
  env: Pick<Env, "PRINTER_NETWORKS" | "PRINTER_PORTS" | "PRINTER_ERRORS" | "PRINTER_SHARED_ADDRESSES">;
  db: Db;
  store: PrismaPrinterStore;
  queue: PrintQueue;
  invalidate: Invalidator;
  events: EventPublisher;
  metrics: AppMetrics;
  log: Logger;
  clock: Clock;
  throttles: Pick<Throttles, "reprint">;
}): Printing {
  const { env, db, store, queue, invalidate, events, metrics, log, clock, throttles } = deps;
  // One policy for both checks: at creation (the service) and at every connection (the link).
  const policy = { networks: env.PRINTER_NETWORKS, ports: env.PRINTER_PORTS };
  const sharedAddresses = env.PRINTER_SHARED_ADDRESSES === "allow";
  const reprints = { allow: (tenantId: string, orderId: string, printerId: string) => throttles.reprint(tenantId, orderId, printerId) };
  const service = new PrinterService({ store, routes: store, resolve: resolveHost, policy, sharedAddresses, invalidate, events, log, reprints });
  const ledger = new PrismaPrintLedger(db);
  const drainer = new PrintDrainer({
    ledger,
    link: createPrinterLink({ policy, errors: env.PRINTER_ERRORS, log }),
    events,
    metrics: registerPrintMetrics(metrics.registry, () => store.waiting()),
    log,
    clock,
    perTenant: tenantShare(PRINT_WORKERS),
  });
  /** Idle printers are asked how they are every sweep (the console and kiosks show it). */
  const checkIdlePrinters = async () => {
    const check = async (id: string) => {
      const target = await ledger.target(id);
      if (target && (await drainer.checkStatus(target))) events.printersChanged({ id: target.tenantId });
    };
    // A few at once: a printer that is off answers nothing for its whole connect timeout.
    const due = await ledger.dueForCheck(PRINT_SWEEP_MS, IDLE_CHECKS_PER_SWEEP);
    for (let i = 0; i < due.length; i += IDLE_CHECKS_AT_ONCE) await Promise.all(due.slice(i, i + IDLE_CHECKS_AT_ONCE).map(check));
  };
  return {
    service,
    start: () => queue.work(PRINT_WORKERS, (printerId) => drainer.drain(printerId), checkIdlePrinters),
    stop: () => queue.stop(),
  };
}
