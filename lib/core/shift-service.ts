/**
 * Starting a new shift: the manager's one-click reset. The shift is recorded in the
 * database and the live counter moved in the same step; if the counter cannot be moved,
 * nothing is recorded.
 */
import { z } from "zod";
import { lineText } from "./text";
import { parseOrThrow } from "./orders";
import { BLOCK_SIZE, type NumberIssuer } from "./numbering";
import {
  SlotAlreadyStartedError,
  type EventPublisher,
  type Logger,
  type OrderRepository,
  type ScheduleSkip,
  type ScheduledStart,
  type ShiftRepository,
  CounterUnavailableError,
  type Clock,
  type FastCounter,
  type AuditLog,
} from "./ports";
import type { Tenant } from "./tenants";
import type { BusinessDay } from "./business-day";
import { SCHEDULER_ACTOR } from "./audit";
import { orderCleared, shiftStarted } from "./webhooks/events";
import { firstFreeNumber, seriesOf } from "./series";
import { scheduleStatus, type SlotStatus } from "./schedule";
import type { ShiftInfo } from "./shifts";
import type { SeriesOpenNumbers } from "./shift-skips";

export const startShiftSchema = z.strictObject({
  reason: lineText("Reason").max(200, "Reason is too long (200 characters at most)").optional(),
  firstNumber: z.number().int("First number must be a whole number").min(1).max(9999).optional(),
  /** The shift the manager was looking at; if it already moved on, no second shift starts. */
  ifCurrentShift: z.number().int().min(1).optional(),
  /** Orders still open from earlier shifts: keep them on the board and in the kitchen (default), or clear them. */
  openOrders: z.enum(["keep", "clear"]).default("keep"),
});

/** Why a slot did not start a shift (in its `shift.scheduleSkipped` audit entry). */
export type ScheduleSkipReason =
  /** A shift (by hand, or a later slot) was started between the slot's time and its turn. */
  | "shiftStartedSince"
  /** No node ran the schedule within the grace period after the slot. */
  | "pastGrace"
  /** A later slot of the day came due before this one started: the later one starts instead. */
  | "superseded";

export class ShiftService {
  constructor(
    private readonly deps: {
      issuer: NumberIssuer;
      counter: FastCounter;
      shifts: ShiftRepository;
      orders: OrderRepository;
      events: EventPublisher;
      audit: AuditLog;
      log: Logger;
      clock: Clock;
    },
  ) {}

  /**
   * `nextNumber`: what the next order gets — `firstNumber`, past the numbers orders still open hold (decision 0027).
   * `by` (Caller.by) is who the `order.cleared` events of the orders it clears name.
   */
  async start(
    tenant: Tenant,
    input: unknown,
    startedBy: string,
    by: string | null = null,
  ): Promise<{ shift: ShiftInfo; created: boolean; cleared: number; nextNumber: number }> {
    const data = parseOrThrow(startShiftSchema, input ?? {}, "shift");
    const day = this.deps.issuer.today(tenant);
    const firstNumber = data.firstNumber ?? 1;
    const result = await this.run(
      tenant,
      day,
      { startedBy, reason: data.reason ?? null, firstNumber, ifCurrentShift: data.ifCurrentShift, blockSize: BLOCK_SIZE },
      data.openOrders,
      { reason: data.reason ?? null, trigger: "manual" },
      by,
    );
    return { ...result, nextNumber: firstFreeNumber(result.shift.firstNumber, await this.deps.orders.openNumbers(tenant.id)) };
  }

  /**
   * The schedule's start of `slot` (docs/decisions/0010): like a manager's, by the scheduler,
   * open orders kept. Skipped (created: false) when the business day has moved on, the slot
   * already has its shift, or a shift was started since the slot's time; the last is audited
   * once as `shift.scheduleSkipped`. StaleLeaderError when `term` is not the current term.
   */
  async startScheduled(
    tenant: Tenant,
    s: { day: BusinessDay; slot: string; slotAt: Date; term: number },
  ): Promise<{ created: boolean; skipped?: ScheduleSkip | "dayOver"; shift?: ShiftInfo }> {
    if (this.deps.issuer.today(tenant) !== s.day) return { created: false, skipped: "dayOver" };
    const scheduled: ScheduledStart = { slot: s.slot, slotAt: s.slotAt, term: s.term };
    let result;
    try {
      result = await this.run(tenant, s.day, { startedBy: SCHEDULER_ACTOR, reason: null, firstNumber: 1, blockSize: BLOCK_SIZE, scheduled }, "keep", {
        reason: null,
        trigger: "schedule",
        slot: s.slot,
        slotAt: s.slotAt.toISOString(),
        term: s.term,
      });
    } catch (e) {
      if (e instanceof SlotAlreadyStartedError) return { created: false, skipped: "slotStarted" };
      throw e;
    }
    if (result.skipped === "shiftSince") await this.recordSkip(tenant, s, "shiftStartedSince");
    return result;
  }

  /** Audits, once per (day, slot), that the schedule did not start `slot`; `why` says why. */
  async recordSkip(tenant: Tenant, s: { day: BusinessDay; slot: string; slotAt: Date; term: number }, why: ScheduleSkipReason): Promise<boolean> {
    return this.deps.shifts.recordScheduleSkip(
      tenant.id,
      s.day,
      { slot: s.slot, slotAt: s.slotAt, term: s.term },
      { actor: SCHEDULER_ACTOR, details: { slotAt: s.slotAt.toISOString(), reason: why, term: s.term } },
    );
  }

  /** The one path of every start, manual or scheduled. */
  private async run(
    tenant: Tenant,
    day: BusinessDay,
    opts: Parameters<ShiftRepository["startShift"]>[2],
    openOrders: "keep" | "clear",
    auditDetails: Record<string, unknown>,
    by: string | null = null,
  ): Promise<{ shift: ShiftInfo; created: boolean; cleared: number; skipped?: ScheduleSkip }> {
    const { issuer, counter, shifts, events } = this.deps;
    const result = await shifts.startShift(tenant.id, day, { ...opts, emits: shiftStarted }, async (shift, block) => {
      // Move Redis to the new shift before the shift is committed, so that no block of
      // the new shift can be reserved before its first one is in place (no gap).
      try {
        const moved = await counter.restore(tenant.id, block, issuer.expiry(tenant, day));
        await this.restartSeries(tenant, day, shift.shift);
        return moved;
      } catch (e) {
        if (!(e instanceof CounterUnavailableError)) throw e;
        // Redis unreachable: the shift still starts, and its numbers come from
        // PostgreSQL. A node that still reaches Redis learns of the new shift when it
        // next reserves a block: at most BLOCK_SIZE more numbers of the old shift.
        this.deps.log.warn({ tenant: tenant.slug, err: e.message }, "new shift recorded while Redis is unreachable");
        return false;
      }
    });
    let cleared = 0;
    if (result.created && openOrders === "clear") {
      cleared = await this.deps.orders.clearOpen(tenant.id, day, result.shift.shift, this.deps.clock.now(), orderCleared(tenant, by));
    }
    if (result.created) {
      // How many open orders the new shift kept on the floor: what the audit log says.
      const kept = openOrders === "keep" ? await this.deps.orders.countOpen(tenant.id).catch(() => null) : null;
      await this.deps.audit
        .record(tenant.id, {
          actor: opts.startedBy,
          action: "shift.start",
          details: {
            businessDay: day,
            shift: result.shift.shift,
            firstNumber: opts.firstNumber,
            ...auditDetails,
            openOrders,
            cleared,
            ...(kept === null ? {} : { kept }),
          },
        })
        .catch((e: unknown) =>
          this.deps.log.error({ tenant: tenant.slug, err: e instanceof Error ? e.message : String(e) }, "could not write the audit entry of a shift start"),
        );
      events.shiftStarted(tenant, {
        businessDay: result.shift.businessDay,
        shift: result.shift.shift,
        startedAt: result.shift.startedAt.toISOString(),
      });
    }
    return { ...result, cleared };
  }

  /**
   * Every other series starts the new shift at its first ticket (its `first` number). A
   * series Redis does not hear of keeps drawing the old shift's tickets until its block is
   * used up, as the default series does (never a twin: the open-number index).
   */
  private async restartSeries(tenant: Tenant, day: BusinessDay, shift: number): Promise<void> {
    for (const s of seriesOf(tenant)) {
      if (s.isDefault) continue;
      await this.deps.issuer.startSeriesShift(tenant, s.id, day, shift).catch((e: unknown) => {
        if (!(e instanceof CounterUnavailableError)) throw e;
        this.deps.log.warn({ tenant: tenant.slug, series: s.name, err: e.message }, "series not moved to the new shift while Redis is unreachable");
      });
    }
  }

  /** Today's schedule as it stands (started, skipped and why, next), for the overview. */
  async scheduleToday(tenant: Tenant, graceMs: number): Promise<SlotStatus[]> {
    if (tenant.schedule.length === 0) return [];
    const now = this.deps.clock.now();
    const record = await this.deps.shifts.scheduleRecord(tenant.id, this.deps.issuer.today(tenant));
    return scheduleStatus(tenant, now, record, graceMs);
  }

  /** Per series, the open numbers in its range (one read per prefix): which numbers a new shift will skip. */
  async openBySeries(tenant: Tenant): Promise<SeriesOpenNumbers[]> {
    const all = seriesOf(tenant);
    const prefixes = [...new Set(all.map((s) => s.prefix))];
    const reads = new Map(await Promise.all(prefixes.map(async (p) => [p, await this.deps.orders.openNumbers(tenant.id, p)] as const)));
    return all.map(({ name, prefix, first, last, isDefault }) => ({
      name,
      prefix,
      first,
      last,
      isDefault,
      open: [...(reads.get(prefix) ?? [])].filter((n) => n >= first && (last === null || n <= last)).sort((a, b) => a - b),
    }));
  }

  /** What the new-shift confirmation tells the manager: how many orders are still open on the floor. */
  async openCount(tenant: Tenant): Promise<number> {
    return this.deps.orders.countOpen(tenant.id);
  }
}
