/** Where shifts are recorded (PostgreSQL), and what the scheduler leads with: a lock (Redis) and terms (PostgreSQL, decision 0010). */
import type { BusinessDay } from "../business-day";
import type { DayShift, DaySkip } from "../schedule";
import type { ShiftInfo } from "../shifts";
import type { Tenant } from "../tenants";
import type { Emits } from "../webhooks/events";
import type { Block } from "./counter";

/**
 * A scheduled start carried a leadership term older than the current one: another node
 * became the scheduler's leader since (docs/decisions/0010). The caller must step down.
 */
export class StaleLeaderError extends Error {
  constructor(
    readonly term: number,
    readonly currentTerm: number,
  ) {
    super(`Scheduler term ${term} is stale (current: ${currentTerm})`);
    this.name = "StaleLeaderError";
  }
}

/** The unique (tenant, day, slot) index refused a scheduled start: that slot has its shift. */
export class SlotAlreadyStartedError extends Error {
  constructor(
    readonly businessDay: BusinessDay,
    readonly slot: string,
  ) {
    super(`Slot ${slot} of ${businessDay} already started a shift`);
    this.name = "SlotAlreadyStartedError";
  }
}

/** A start asked for by the schedule: which slot, when it fired, under which leadership term. */
export interface ScheduledStart {
  slot: string;
  slotAt: Date;
  term: number;
}

/** Why a scheduled start did not happen: the slot has its shift, or a shift was started since the slot's time. */
export type ScheduleSkip = "slotStarted" | "shiftSince";

/** How a shift starts: who and why, its first number, its guard and block, the schedule's slot, its webhook events. */
export interface StartShiftOptions {
  startedBy: string;
  reason: string | null;
  firstNumber: number;
  ifCurrentShift?: number;
  blockSize: number;
  scheduled?: ScheduledStart;
  emits?: Emits<ShiftInfo>;
}

export interface ShiftRepository {
  /** The current shift of `day` (1 when no manager started one). */
  currentShift(tenantId: string, day: BusinessDay): Promise<number>;
  /**
   * Records shift `current + 1` of `day` with its first block of numbers (reserved in the
   * ledger, starting at `firstNumber`) and runs `commit(shift, block)` before the record is
   * committed; `commit` answers whether the block is in use (if not, it is given back); if
   * it throws, nothing is recorded. Concurrent calls are serialized.
   * When `ifCurrentShift` is given and the day has already moved past it, nothing is
   * started and the latest shift is returned with `created: false`.
   * With `scheduled`, the start is refused with StaleLeaderError unless `term` is the
   * current scheduler term (checked in the same transaction), and skipped (`created: false`
   * with `skipped`) when the slot already has its shift or any shift of the day was started
   * at or after `slotAt`; SlotAlreadyStartedError if the unique index catches a race.
   * `emits`: the new shift's webhook events, written in its transaction.
   */
  startShift(
    tenantId: string,
    day: BusinessDay,
    opts: StartShiftOptions,
    commit: (shift: ShiftInfo, firstBlock: Block) => Promise<boolean>,
  ): Promise<{ shift: ShiftInfo; created: boolean; skipped?: ScheduleSkip }>;
  /**
   * Writes the audit entry `entry` for a skipped slot, once: false (nothing written) when the
   * slot has its shift or its skip is already recorded. StaleLeaderError as startShift.
   */
  recordScheduleSkip(
    tenantId: string,
    day: BusinessDay,
    scheduled: ScheduledStart,
    entry: { actor: string; details: Record<string, unknown> },
  ): Promise<boolean>;
  /** The shifts of `day` (with the slot that started each) and the slots recorded as skipped: what the overview merges. */
  scheduleRecord(tenantId: string, day: BusinessDay): Promise<{ shifts: DayShift[]; skips: DaySkip[] }>;
}

export interface LeaderLock {
  readonly ttlMs: number;
  /** True when this node took the free lock (with a new token). */
  acquire(): Promise<boolean>;
  /** True when this node still held the lock and its time to live starts over. */
  extend(): Promise<boolean>;
  /** Gives the lock up if this node still holds it. */
  release(): Promise<void>;
}

export interface SchedulerStore {
  /** Raises the leadership term and returns it (durable: it never goes back). */
  nextTerm(): Promise<number>;
  /** Tenants with a non-empty schedule, as stored now (a change applies on the next tick). */
  scheduledTenants(): Promise<Tenant[]>;
}
