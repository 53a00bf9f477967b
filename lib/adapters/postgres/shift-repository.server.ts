/**
 * The core's ShiftRepository on PostgreSQL: shifts recorded one at a time per tenant (an
 * advisory lock), a new shift's first block of numbers in the same transaction, and the
 * scheduler's fencing by term (docs/decisions/0010).
 */
import type { BusinessDay } from "@/lib/core/business-day";
import {
  SlotAlreadyStartedError,
  StaleLeaderError,
  type Block,
  type ScheduleSkip,
  type ScheduledStart,
  type ShiftRepository,
  type StartShiftOptions,
} from "@/lib/core/ports";
import type { DayShift, DaySkip } from "@/lib/core/schedule";
import type { ShiftInfo } from "@/lib/core/shifts";
import type { Db, Tx } from "./prisma.server";
import type { WebhookOutbox } from "./webhook-outbox.server";
import type { Shift as ShiftRow } from "./generated/prisma/client";
import { fromSqlDate, toSqlDate, uniqueViolationOn } from "./rows.server";
import { giveBackFirstBlock, reserveFirstBlock } from "./counter-ledger.server";

function toShiftInfo(row: ShiftRow): ShiftInfo {
  return {
    businessDay: fromSqlDate(row.businessDay),
    shift: row.number,
    firstNumber: row.firstNumber,
    startedAt: row.startedAt,
    startedBy: row.startedBy,
    reason: row.reason,
  };
}

export class PrismaShiftRepository implements ShiftRepository {
  /** Without `outbox`, a new shift emits no webhook event. */
  constructor(
    private readonly db: Db,
    private readonly outbox?: WebhookOutbox,
  ) {}

  async currentShift(tenantId: string, day: BusinessDay): Promise<number> {
    const latest = await this.db.shift.findFirst({
      where: { tenantId, businessDay: toSqlDate(day) },
      orderBy: { number: "desc" },
      select: { number: true },
    });
    return latest?.number ?? 1;
  }

  async startShift(
    tenantId: string,
    day: BusinessDay,
    opts: StartShiftOptions,
    commit: (shift: ShiftInfo, firstBlock: Block) => Promise<boolean>,
  ): Promise<{ shift: ShiftInfo; created: boolean; skipped?: ScheduleSkip }> {
    const s = opts.scheduled;
    let queued = 0;
    try {
      const result = await this.db.$transaction(async (tx) => {
        // One reset at a time per tenant: concurrent presses are serialized here.
        await lockTenantShifts(tx, tenantId);
        const latest = await tx.shift.findFirst({
          where: { tenantId, businessDay: toSqlDate(day) },
          orderBy: { number: "desc" },
        });
        const current = latest?.number ?? 1;
        if (opts.ifCurrentShift !== undefined && current > opts.ifCurrentShift && latest) {
          return { shift: toShiftInfo(latest), created: false };
        }
        if (s) {
          await checkTerm(tx, s.term);
          const skipped = await scheduleSkip(tx, tenantId, day, s);
          if (skipped && latest) return { shift: toShiftInfo(latest), created: false, skipped };
        }
        const row = await tx.shift.create({
          data: {
            tenantId,
            businessDay: toSqlDate(day),
            number: current + 1,
            firstNumber: opts.firstNumber,
            startedBy: opts.startedBy,
            reason: opts.reason,
            ...(s ? { trigger: "SCHEDULE" as const, slot: s.slot, term: s.term } : {}),
          },
        });
        // The new shift's first block, reserved with the shift itself (the ledger writes every ceiling).
        const firstBlock = await reserveFirstBlock(tx, tenantId, day, row.number, opts.firstNumber, opts.blockSize);
        const shift = toShiftInfo(row);
        // The shift's webhook events, before Redis is moved: a failure here leaves nothing to undo.
        if (this.outbox && opts.emits) queued = await this.outbox.write(tx, tenantId, opts.emits(shift));
        const inUse = await commit(shift, firstBlock);
        // Nobody will issue from that block: give it back.
        if (!inUse) await giveBackFirstBlock(tx, tenantId, firstBlock);
        return { shift, created: true };
      });
      this.outbox?.committed(queued);
      return result;
    } catch (e) {
      // The backstop: the unique (tenant, day, slot) index (the checks above make it rare).
      if (s && uniqueViolationOn(e)?.includes("slot")) throw new SlotAlreadyStartedError(day, s.slot);
      throw e;
    }
  }

  async recordScheduleSkip(
    tenantId: string,
    day: BusinessDay,
    s: ScheduledStart,
    entry: { actor: string; details: Record<string, unknown> },
  ): Promise<boolean> {
    return this.db.$transaction(async (tx) => {
      // Under the tenant's shift lock and the term check, so two nodes never both record it.
      await lockTenantShifts(tx, tenantId);
      await checkTerm(tx, s.term);
      const started = await tx.shift.findFirst({ where: { tenantId, businessDay: toSqlDate(day), slot: s.slot }, select: { id: true } });
      if (started) return false;
      const [recorded] = await tx.$queryRaw<{ n: bigint }[]>`
        SELECT count(*) AS n FROM "AuditEntry"
        WHERE "tenantId" = ${tenantId}::uuid AND "action" = 'shift.scheduleSkipped'
          AND "details"->>'businessDay' = ${day} AND "details"->>'slot' = ${s.slot}`;
      if (Number(recorded?.n ?? 0) > 0) return false;
      await tx.auditEntry.create({
        data: { tenantId, actor: entry.actor, action: "shift.scheduleSkipped", details: { ...entry.details, businessDay: day, slot: s.slot } },
      });
      return true;
    });
  }

  async scheduleRecord(tenantId: string, day: BusinessDay): Promise<{ shifts: DayShift[]; skips: DaySkip[] }> {
    const [shifts, skips] = await Promise.all([
      this.db.shift.findMany({ where: { tenantId, businessDay: toSqlDate(day) }, select: { number: true, slot: true }, orderBy: { number: "asc" } }),
      this.db.$queryRaw<DaySkip[]>`
        SELECT "details"->>'slot' AS "slot", coalesce("details"->>'reason', '') AS "reason" FROM "AuditEntry"
        WHERE "tenantId" = ${tenantId}::uuid AND "action" = 'shift.scheduleSkipped' AND "details"->>'businessDay' = ${day}`,
    ]);
    return { shifts: shifts.map((s) => ({ shift: s.number, slot: s.slot })), skips: skips.filter((s) => s.slot) };
  }
}

async function lockTenantShifts(tx: Tx, tenantId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`shift:${tenantId}`}, 0))`;
}

/**
 * Fencing: the caller's term must still be the current one. FOR SHARE holds the row until
 * commit, so a node being elected (UPDATE term = term + 1) waits for this start to finish,
 * and every start after its election carries an older term and is refused.
 */
async function checkTerm(tx: Tx, term: number): Promise<void> {
  // A leader paused (SIGSTOP, GC) inside this transaction would hold the term row forever and
  // block the next election: PostgreSQL ends the transaction after 5 s of silence instead.
  await tx.$executeRaw`SELECT set_config('idle_in_transaction_session_timeout', '5000', true)`;
  const [row] = await tx.$queryRaw<{ term: number }[]>`SELECT "term" FROM "SchedulerTerm" WHERE "id" = 1 FOR SHARE`;
  const current = row?.term ?? 0;
  if (current !== term) throw new StaleLeaderError(term, current);
}

/** Why the slot must not start a shift now, if it must not. */
async function scheduleSkip(tx: Tx, tenantId: string, day: BusinessDay, s: ScheduledStart): Promise<ScheduleSkip | null> {
  const started = await tx.shift.findFirst({ where: { tenantId, businessDay: toSqlDate(day), slot: s.slot }, select: { id: true } });
  if (started) return "slotStarted";
  const since = await tx.shift.findFirst({ where: { tenantId, businessDay: toSqlDate(day), startedAt: { gte: s.slotAt } }, select: { id: true } });
  return since ? "shiftSince" : null;
}
