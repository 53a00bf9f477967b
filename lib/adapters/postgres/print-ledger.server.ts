/** The print drainer's view of PostgreSQL (decision 0029): a printer's hold, its waiting jobs in order, their outcomes. */
import type { OrderItem } from "@/lib/core/orders";
import type { PrintLedger, PrintTarget, WaitingJob, PrintJobKind } from "@/lib/core/ports";
import type { PrinterStatus } from "@/lib/core/printing/printers";
import type { Db } from "./prisma.server";
import { toPrinter } from "./rows.server";
import { PRINT_HOLD_SECONDS } from "./print-queue.server";

/** A status check of an idle printer holds it this long (one node asks at a time). */
const CHECK_HOLD_SECONDS = 20;

export class PrismaPrintLedger implements PrintLedger {
  constructor(private readonly db: Db) {}

  async target(printerId: string): Promise<PrintTarget | null> {
    const p = await this.db.printer.findUnique({
      where: { id: printerId },
      include: { tenant: { select: { name: true, timeZone: true, currency: true, language: true, printGiveUpMinutes: true } } },
    });
    if (!p) return null;
    return {
      ...toPrinter(p),
      tenantId: p.tenantId,
      restaurant: p.tenant.name,
      timeZone: p.tenant.timeZone,
      currency: p.tenant.currency,
      language: p.tenant.language,
      giveUpMinutes: p.tenant.printGiveUpMinutes,
    };
  }

  async hold(printerId: string, owner: string): Promise<boolean> {
    const n = await this.db.$executeRaw`
      UPDATE "Printer" SET "drainOwner" = ${owner}::uuid, "drainingUntil" = now() + make_interval(secs => ${PRINT_HOLD_SECONDS})
      WHERE "id" = ${printerId}::uuid AND ("drainingUntil" IS NULL OR "drainingUntil" < now() OR "drainOwner" = ${owner}::uuid)`;
    return n === 1;
  }

  async release(printerId: string, owner: string): Promise<void> {
    await this.db
      .$executeRaw`UPDATE "Printer" SET "drainOwner" = NULL, "drainingUntil" = NULL WHERE "id" = ${printerId}::uuid AND "drainOwner" = ${owner}::uuid`;
  }

  async next(printerId: string): Promise<WaitingJob | null> {
    const job = await this.db.printJob.findFirst({ where: { printerId, state: { in: ["queued", "printing"] } }, orderBy: { seq: "asc" } });
    if (!job) return null;
    const order = job.orderId
      ? await this.db.order.findUnique({ where: { id: job.orderId }, select: { number: true, prefix: true, items: true, note: true, createdAt: true } })
      : null;
    return {
      id: job.id,
      kind: job.kind as PrintJobKind,
      state: job.state as WaitingJob["state"],
      attempts: job.attempts,
      createdAt: job.createdAt,
      url: job.url,
      order: order && {
        number: order.number,
        prefix: order.prefix,
        items: order.items as unknown as OrderItem[],
        note: order.note,
        createdAt: order.createdAt,
      },
    };
  }

  async sending(jobId: string): Promise<void> {
    await this.db.printJob.update({ where: { id: jobId }, data: { state: "printing", attempts: { increment: 1 } } });
  }

  async printed(jobId: string, at: Date): Promise<void> {
    await this.db.printJob.update({ where: { id: jobId }, data: { state: "printed", printedAt: at, lastError: null } });
  }

  async notPrinted(jobId: string, error: string): Promise<void> {
    await this.db.printJob.update({ where: { id: jobId }, data: { state: "queued", lastError: error.slice(0, 300) } });
  }

  async gaveUp(jobId: string, at: Date, error: string): Promise<void> {
    await this.db.printJob.update({ where: { id: jobId }, data: { state: "gaveUp", gaveUpAt: at, lastError: error.slice(0, 300) } });
  }

  async setStatus(printerId: string, status: PrinterStatus, error: string | null, at: Date): Promise<boolean> {
    const [before] = await this.db.$queryRaw<{ status: string; lastError: string | null }[]>`
      UPDATE "Printer" p SET "status" = ${status}, "lastError" = ${error}, "checkedAt" = ${at}
      FROM (SELECT "status", "lastError" FROM "Printer" WHERE "id" = ${printerId}::uuid FOR UPDATE) old
      WHERE p."id" = ${printerId}::uuid RETURNING old."status", old."lastError"`;
    return !!before && (before.status !== status || before.lastError !== error);
  }

  /** Idle printers due for a status check, held for this node; at most `limit`. */
  async dueForCheck(everyMs: number, limit: number): Promise<string[]> {
    const rows = await this.db.$queryRaw<{ id: string }[]>`
      UPDATE "Printer" SET "checkingUntil" = now() + make_interval(secs => ${CHECK_HOLD_SECONDS})
      WHERE "id" IN (
        SELECT "id" FROM "Printer"
        WHERE ("checkedAt" IS NULL OR "checkedAt" < now() - make_interval(secs => ${everyMs / 1000}))
          AND ("checkingUntil" IS NULL OR "checkingUntil" < now())
          AND ("drainingUntil" IS NULL OR "drainingUntil" < now())
        ORDER BY "checkedAt" NULLS FIRST LIMIT ${limit} FOR UPDATE SKIP LOCKED)
      RETURNING "id"::text AS "id"`;
    return rows.map((r) => r.id);
  }
}
