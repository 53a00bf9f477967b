/**
 * Printers and their print jobs in PostgreSQL (tables Printer, PrintJob; decision 0029): the
 * console's reads and writes with their audit entries, the per-node cache of which printer
 * an order's ticket goes to, and the print outbox an order's transaction writes into.
 */
import { randomUUID } from "node:crypto";
import { AppError } from "@/lib/core/errors";
import { displayNumber } from "@/lib/core/series";
import { ReadThroughCache } from "@/lib/core/read-through-cache";
import type { AddressClaim, NewPrintJob, PrinterRoutes, PrinterStore, PrinterView, PrintJobView, PrintJobKind, PrintJobState } from "@/lib/core/ports";
import type { PrinterFields, PrinterStatus } from "@/lib/core/printing/printers";
import { NO_PRINT_LIMITS, tooManyPrinters, tooManyWaiting, waitingFullReason, type PrintLimits } from "@/lib/core/printing/print-limits";
import { Prisma, type Db, type Tx } from "./prisma.server";
import type { PrintQueue } from "./print-queue.server";
import { toPrinter, uniqueViolationOn } from "./rows.server";
import type { Printer as PrinterRow, PrintJob as PrintJobRow } from "./generated/prisma/client";

type PrinterRoute = Awaited<ReturnType<PrinterRoutes["routes"]>>[number];

/** How long "which printers" is trusted without an invalidation. */
export const PRINTER_ROUTES_CACHE_MS = 5_000;

const WAITING: PrintJobState[] = ["queued", "printing"];

const toView = (row: PrinterRow, queued: number): PrinterView => ({
  ...toPrinter(row),
  status: row.status as PrinterStatus,
  checkedAt: row.checkedAt,
  lastError: row.lastError,
  queued,
});

type JobRow = PrintJobRow & { printer: { name: string } };

const toJob = (row: JobRow, orders: ReadonlyMap<string, { number: number; prefix: string }>): PrintJobView => {
  const order = row.orderId ? orders.get(row.orderId) : undefined;
  return {
    id: row.id,
    printerId: row.printerId,
    printerName: row.printer.name,
    orderId: row.orderId,
    display: order ? displayNumber(order.prefix, order.number) : null,
    kind: row.kind as PrintJobKind,
    stationId: row.stationId,
    state: row.state as PrintJobState,
    attempts: row.attempts,
    lastError: row.lastError,
    createdAt: row.createdAt,
    printedAt: row.printedAt,
    gaveUpAt: row.gaveUpAt,
  };
};

const nameTaken = (name: string) =>
  new AppError("CONFLICT", {
    message: `A printer named "${name}" already exists`,
    userMessage: `A printer named "${name}" already exists.`,
    reason: "printerNameTaken",
    details: { name, fields: [{ path: "name", message: "This name is taken" }] },
  });

const data = (f: PrinterFields) => ({ name: f.name, host: f.host, port: f.port, paper: f.paper, charset: f.charset, channels: f.channels, series: f.series });

export class PrismaPrinterStore implements PrinterStore, PrinterRoutes {
  private readonly cache: ReadThroughCache<string, PrinterRoute[]>;

  constructor(
    private readonly db: Db,
    private readonly queue: PrintQueue,
    ttlMs: () => number = () => PRINTER_ROUTES_CACHE_MS,
    private readonly limits: PrintLimits = NO_PRINT_LIMITS,
  ) {
    const load = async (tenantId: string): Promise<PrinterRoute[]> =>
      (await db.printer.findMany({ where: { tenantId }, orderBy: { name: "asc" }, select: { id: true, name: true, channels: true, series: true } })).map(
        (p) => ({
          id: p.id,
          name: p.name,
          channels: p.channels,
          series: p.series,
        }),
      );
    this.cache = new ReadThroughCache(load, () => Math.min(ttlMs(), PRINTER_ROUTES_CACHE_MS), 100_000);
  }

  routes(tenantId: string) {
    return this.cache.get(tenantId);
  }

  /** Printers of `tenantId` changed (here or on another node). */
  forget(tenantId: string): void {
    this.cache.forget(tenantId);
  }

  clear(): void {
    this.cache.clear();
  }

  private async queuedOf(tenantId: string): Promise<Map<string, number>> {
    const counts = await this.db.printJob.groupBy({ by: ["printerId"], where: { tenantId, state: { in: WAITING } }, _count: { _all: true } });
    return new Map(counts.map((c) => [c.printerId, c._count._all]));
  }

  async list(tenantId: string): Promise<PrinterView[]> {
    const [rows, queued] = await Promise.all([this.db.printer.findMany({ where: { tenantId }, orderBy: { name: "asc" } }), this.queuedOf(tenantId)]);
    return rows.map((r) => toView(r, queued.get(r.id) ?? 0));
  }

  async get(tenantId: string, id: string): Promise<PrinterView | null> {
    const row = await this.db.printer.findFirst({ where: { tenantId, id } });
    if (!row) return null;
    return toView(row, await this.db.printJob.count({ where: { printerId: id, state: { in: WAITING } } }));
  }

  async create(tenantId: string, fields: PrinterFields, audit: Parameters<PrinterStore["create"]>[2], address: AddressClaim): Promise<PrinterView> {
    try {
      const row = await this.db.$transaction(async (tx) => {
        // Counted under the restaurant's lock: two creations at once cannot both take the last place.
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`printers:${tenantId}`}, 0))`;
        if ((await tx.printer.count({ where: { tenantId } })) >= this.limits.printers) throw tooManyPrinters(this.limits.printers);
        const made = await tx.printer.create({ data: { tenantId, ...data(fields), addressKey: address.addressKey } });
        await tx.auditEntry.create({ data: { tenantId, actor: audit.actor, action: audit.action, details: { ...audit.details, id: made.id } } });
        return made;
      });
      return toView(row, 0);
    } catch (e) {
      const violated = uniqueViolationOn(e);
      if (violated?.includes("addressKey")) throw address.addressTaken();
      if (violated) throw nameTaken(fields.name);
      throw e;
    }
  }

  async update(tenantId: string, id: string, plan: Parameters<PrinterStore["update"]>[2]): Promise<PrinterView | null> {
    let name = "";
    let claim: AddressClaim | null = null;
    try {
      const row = await this.db.$transaction(async (tx) => {
        const [locked] = await tx.$queryRaw<
          { id: string }[]
        >`SELECT "id" FROM "Printer" WHERE "id" = ${id}::uuid AND "tenantId" = ${tenantId}::uuid FOR UPDATE`;
        if (!locked) return null;
        const before = await tx.printer.findUniqueOrThrow({ where: { id } });
        const { fields, audit, address } = plan(toPrinter(before));
        name = fields.name;
        claim = address;
        const saved = await tx.printer.update({ where: { id }, data: { ...data(fields), addressKey: address.addressKey } });
        await tx.auditEntry.create({ data: { tenantId, actor: audit.actor, action: audit.action, details: { ...audit.details, id } } });
        return saved;
      });
      return row && this.get(tenantId, row.id);
    } catch (e) {
      const violated = uniqueViolationOn(e);
      if (violated?.includes("addressKey") && claim) throw (claim as AddressClaim).addressTaken();
      if (violated) throw nameTaken(name);
      throw e;
    }
  }

  async remove(tenantId: string, id: string, audit: Parameters<PrinterStore["remove"]>[2]): Promise<PrinterView | null> {
    return this.db.$transaction(async (tx) => {
      const row = await tx.printer.findFirst({ where: { tenantId, id } });
      if (!row) return null;
      const queued = await tx.printJob.count({ where: { printerId: id, state: { in: WAITING } } });
      await tx.printer.delete({ where: { id } });
      const entry = audit(toPrinter(row));
      await tx.auditEntry.create({ data: { tenantId, actor: entry.actor, action: entry.action, details: { ...entry.details, id, queued } } });
      return toView(row, queued);
    });
  }

  async enqueue(tenantId: string, job: NewPrintJob, audit: Parameters<PrinterStore["enqueue"]>[2]): Promise<PrintJobView> {
    const id = await this.db.$transaction(async (tx) => {
      const made = await this.write(tx, tenantId, job, "refuse");
      if (!made)
        throw new AppError("NOT_FOUND", { message: `No printer ${job.printerId}`, userMessage: "This printer does not exist.", reason: "printerNotFound" });
      if (audit) await tx.auditEntry.create({ data: { tenantId, actor: audit.actor, action: audit.action, details: audit.details as Prisma.InputJsonValue } });
      return made;
    });
    this.queue.poke();
    const [view] = await this.jobsWhere({ id }, 1);
    return view!;
  }

  /**
   * Writes a print job and its queue wake-up in `tx` (an order's transaction: the outbox);
   * returns its id, or null when the printer is gone (removed since the routes were cached:
   * the order is taken all the same, without a ticket). When the restaurant already has its
   * limit of jobs waiting: `refuse` throws (nothing written), `skip` (an order's ticket) writes
   * the job given up with why, so the order is taken and its ticket shows "not printed".
   */
  async write(tx: Tx, tenantId: string, job: NewPrintJob, whenFull: "refuse" | "skip" = "skip"): Promise<string | null> {
    const max = this.limits.waitingJobs;
    // The count and the insert under the restaurant's lock (held to commit): the limit holds under concurrent writers.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`print-jobs:${tenantId}`}, 0))`;
    const [counted] = await tx.$queryRaw<{ waiting: number }[]>`
      SELECT count(*)::int AS "waiting" FROM "PrintJob"
      WHERE "printerId" IN (SELECT "id" FROM "Printer" WHERE "tenantId" = ${tenantId}::uuid) AND "state" IN ('queued', 'printing')`;
    const full = (counted?.waiting ?? 0) >= max;
    if (full && whenFull === "refuse") throw tooManyWaiting(max);
    const [row] = await tx.$queryRaw<{ id: string }[]>`
      INSERT INTO "PrintJob" ("id", "tenantId", "printerId", "orderId", "kind", "stationId", "url", "state", "gaveUpAt", "lastError")
      SELECT ${randomUUID()}::uuid, "tenantId", "id", ${job.orderId}::uuid, ${job.kind}, ${job.stationId ?? null}::uuid, ${job.url},
        ${full ? "gaveUp" : "queued"}, CASE WHEN ${full}::boolean THEN now() END, ${full ? waitingFullReason(max) : null}
      FROM "Printer" WHERE "id" = ${job.printerId}::uuid AND "tenantId" = ${tenantId}::uuid FOR KEY SHARE
      RETURNING "id"::text AS "id"`;
    if (!row) return null;
    if (!full) await this.queue.wakeIn(tx, job.printerId);
    return row.id;
  }

  /** Call once an order's transaction that wrote a job has committed. */
  committed(): void {
    this.queue.poke();
  }

  jobs(tenantId: string, filter: Parameters<PrinterStore["jobs"]>[1]): Promise<PrintJobView[]> {
    return this.jobsWhere(
      {
        tenantId,
        ...(filter.printerId ? { printerId: filter.printerId } : {}),
        ...(filter.orderIds ? { orderId: { in: [...filter.orderIds] } } : {}),
        ...(filter.kind ? { kind: filter.kind } : {}),
      },
      filter.limit,
    );
  }

  private async jobsWhere(where: Prisma.PrintJobWhereInput, limit: number): Promise<PrintJobView[]> {
    const rows = await this.db.printJob.findMany({ where, orderBy: { seq: "desc" }, take: limit, include: { printer: { select: { name: true } } } });
    const orderIds = [...new Set(rows.flatMap((r) => (r.orderId ? [r.orderId] : [])))];
    const orders = orderIds.length ? await this.db.order.findMany({ where: { id: { in: orderIds } }, select: { id: true, number: true, prefix: true } }) : [];
    const byId = new Map(orders.map((o) => [o.id, o]));
    return rows.map((r) => toJob(r, byId));
  }

  /** Jobs waiting on any printer (the metrics' queue depth). */
  waiting(): Promise<number> {
    return this.db.printJob.count({ where: { state: { in: WAITING } } });
  }
}
