/**
 * The print drainer's view of PostgreSQL (decisions 0029, 0033): a printer's hold, its waiting
 * jobs in order, their outcomes, each write conditional on the drain that holds the job.
 */
import { asService, type OrderItem } from "@/lib/core/orders";
import { toParts } from "@/lib/core/stations";
import type { PrintLedger, PrintTarget, WaitingJob, PrintJobKind } from "@/lib/core/ports";
import type { PrinterStatus } from "@/lib/core/printing/printers";
import type { Db } from "./prisma.server";
import { toPrinter } from "./rows.server";
import { PRINT_BACKOFF_MAX_MS, PRINT_HOLD_SECONDS, PRINT_RETRY_MS } from "./print-queue.server";

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

  async hold(printerId: string, holder: string): Promise<boolean> {
    const n = await this.db.$executeRaw`
      UPDATE "Printer" SET "drainOwner" = ${holder}::uuid, "drainingUntil" = now() + make_interval(secs => ${PRINT_HOLD_SECONDS})
      WHERE "id" = ${printerId}::uuid AND ("drainingUntil" IS NULL OR "drainingUntil" < now() OR "drainOwner" = ${holder}::uuid)`;
    return n === 1;
  }

  async release(printerId: string, holder: string): Promise<void> {
    await this.db
      .$executeRaw`UPDATE "Printer" SET "drainOwner" = NULL, "drainingUntil" = NULL WHERE "id" = ${printerId}::uuid AND "drainOwner" = ${holder}::uuid`;
  }

  /**
   * One write: the oldest waiting job becomes `holder`'s, only while `holder` holds the printer
   * (so a job another drain claimed changes hands only once that drain lost the printer). A
   * concurrent claim waits on the row lock and then overwrites the holder: the last claim wins
   * and the loser's next conditional write finds nothing.
   */
  async claim(printerId: string, holder: string): Promise<WaitingJob | null> {
    const [job] = await this.db.$queryRaw<
      {
        id: string;
        kind: string;
        stationId: string | null;
        attempts: number;
        createdAt: Date;
        url: string | null;
        orderId: string | null;
        sendingAt: Date | null;
      }[]
    >`
      UPDATE "PrintJob" j SET "state" = 'printing', "holder" = ${holder}::uuid
      FROM (SELECT "id" FROM "PrintJob" WHERE "printerId" = ${printerId}::uuid AND "state" IN ('queued', 'printing') ORDER BY "seq" LIMIT 1 FOR UPDATE) w
      WHERE j."id" = w."id"
        AND EXISTS (SELECT 1 FROM "Printer" p WHERE p."id" = ${printerId}::uuid AND p."drainOwner" = ${holder}::uuid AND p."drainingUntil" > now())
      RETURNING j."id"::text AS "id", j."kind", j."stationId"::text AS "stationId", j."attempts", j."createdAt", j."url", j."orderId"::text AS "orderId", j."sendingAt"`;
    if (!job) return null;
    const order = job.orderId
      ? await this.db.order.findUnique({
          where: { id: job.orderId },
          select: { number: true, prefix: true, items: true, note: true, createdAt: true, channel: true, service: true, stations: true },
        })
      : null;
    return {
      id: job.id,
      kind: job.kind as PrintJobKind,
      stationId: job.stationId,
      state: job.sendingAt ? "sending" : "claimed",
      attempts: job.attempts,
      createdAt: job.createdAt,
      url: job.url,
      order: order && {
        number: order.number,
        prefix: order.prefix,
        items: order.items as unknown as OrderItem[],
        note: order.note,
        createdAt: order.createdAt,
        channel: order.channel,
        service: asService(order.service),
        stations: toParts(order.stations),
      },
    };
  }

  /** Only the holder, only before its bytes went out, only while it still holds the printer. */
  async sending(jobId: string, holder: string): Promise<boolean> {
    const n = await this.db.$executeRaw`
      UPDATE "PrintJob" j SET "sendingAt" = now(), "attempts" = j."attempts" + 1
      WHERE j."id" = ${jobId}::uuid AND j."holder" = ${holder}::uuid AND j."state" = 'printing' AND j."sendingAt" IS NULL
        AND EXISTS (SELECT 1 FROM "Printer" p WHERE p."id" = j."printerId" AND p."drainOwner" = ${holder}::uuid AND p."drainingUntil" > now())`;
    return n === 1;
  }

  async printed(jobId: string, holder: string, at: Date): Promise<boolean> {
    const { count } = await this.db.printJob.updateMany({
      where: { id: jobId, holder, state: "printing", sendingAt: { not: null } },
      data: { state: "printed", printedAt: at, lastError: null },
    });
    // It printed: whatever it says of itself (a printer without status replies reads unknown), its backoff ends.
    if (count === 1)
      await this.db.$executeRaw`
        UPDATE "Printer" SET "failures" = 0, "retryAt" = NULL
        WHERE "id" = (SELECT "printerId" FROM "PrintJob" WHERE "id" = ${jobId}::uuid) AND "failures" > 0`;
    return count === 1;
  }

  async notPrinted(jobId: string, holder: string, error: string): Promise<boolean> {
    const { count } = await this.db.printJob.updateMany({
      where: { id: jobId, holder, state: "printing" },
      data: { state: "queued", holder: null, sendingAt: null, lastError: error.slice(0, 300) },
    });
    return count === 1;
  }

  async gaveUp(jobId: string, holder: string, at: Date, error: string): Promise<boolean> {
    const { count } = await this.db.printJob.updateMany({
      where: { id: jobId, holder, state: "printing" },
      data: { state: "gaveUp", gaveUpAt: at, lastError: error.slice(0, 300) },
    });
    return count === 1;
  }

  async setStatus(printerId: string, status: PrinterStatus, error: string | null, at: Date): Promise<boolean> {
    const [before] = await this.db.$queryRaw<{ status: string; lastError: string | null }[]>`
      UPDATE "Printer" p SET "status" = ${status}, "lastError" = ${error}, "checkedAt" = ${at},
        "failures" = CASE WHEN ${status} IN ('offline', 'unknown') THEN p."failures" ELSE 0 END,
        "retryAt" = CASE WHEN ${status} IN ('offline', 'unknown') THEN p."retryAt" END
      FROM (SELECT "status", "lastError" FROM "Printer" WHERE "id" = ${printerId}::uuid FOR UPDATE) old
      WHERE p."id" = ${printerId}::uuid RETURNING old."status", old."lastError"`;
    return !!before && (before.status !== status || before.lastError !== error);
  }

  /** A drain before `retryAt` (a new ticket woke the printer) leaves the backoff as it is: the gaps grow with time, not with tickets. */
  async unanswered(printerId: string): Promise<void> {
    // Never past the moment its oldest waiting ticket is due to be given up: a late ticket is
    // given up on time (the restaurant's printGiveUpMinutes), however long the printer was off.
    await this.db.$executeRaw`
      UPDATE "Printer" p SET "failures" = p."failures" + 1,
        "retryAt" = LEAST(
          now() + make_interval(secs => LEAST(${PRINT_RETRY_MS / 1000} * power(2, LEAST(p."failures", 10)), ${PRINT_BACKOFF_MAX_MS / 1000})),
          (SELECT min(j."createdAt") FROM "PrintJob" j WHERE j."printerId" = p."id" AND j."state" IN ('queued', 'printing'))
            + make_interval(mins => t."printGiveUpMinutes"))
      FROM "Tenant" t
      WHERE p."id" = ${printerId}::uuid AND t."id" = p."tenantId" AND (p."retryAt" IS NULL OR p."retryAt" <= now())`;
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
