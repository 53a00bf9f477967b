/**
 * The counter's two sides (docs/decisions/0028): the fast one (Redis) and the durable
 * ledger of ceilings (PostgreSQL), and the blocks of numbers between them. The rules that
 * use them: lib/core/numbering.ts.
 */
import type { BusinessDay } from "../business-day";
import { UnavailableError } from "./unavailable";

/** One of a tenant's series other than its default: its tickets are counted apart (decision 0027). */
export interface SeriesCounter {
  tenantId: string;
  seriesId: string;
}

/** Which counter: a tenant's id (its default series, whose keys and ceilings predate series) or one of its series. */
export type CounterId = string | SeriesCounter;

export const tenantOfCounter = (c: CounterId): string => (typeof c === "string" ? c : c.tenantId);
/** A string naming the counter, for maps and logs. */
export const counterName = (c: CounterId): string => (typeof c === "string" ? c : `${c.tenantId}/${c.seriesId}`);

/** What a counter hands out: a number of the default series, or a ticket of another series. */
export interface IssuedNumber {
  businessDay: BusinessDay;
  shift: number;
  number: number;
}

/** A block of numbers (lo, hi]: lo + 1 … hi. */
export interface Block {
  businessDay: BusinessDay;
  shift: number;
  lo: number;
  hi: number;
  /** Set by a reservation whose floor was above the stored ceiling: by how much the ledger had forgotten (decision 0028). */
  ceilingBehind?: number;
}

export type FastIssue =
  /**
   * A number; `refill` asks the caller to reserve the next block (it holds the lease).
   * `reached`: the highest number of the block it came from, so the next block starts above
   * it even where the ledger forgot that block (decision 0028).
   */
  | { kind: "issued"; issued: IssuedNumber; refill: boolean; reached: number }
  /** The counter is gone from Redis; `lease` says this caller should restore it from the ledger. */
  | { kind: "missing"; lease: boolean }
  /** The block is used up (`reached`: its highest number); `lease` says this caller should reserve the next one. */
  | { kind: "empty"; businessDay: BusinessDay; shift: number; lease: boolean; reached: number };

/** Raised by a FastCounter when its store cannot be reached (or the breaker is open). */
export class CounterUnavailableError extends UnavailableError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("redis", message, options);
    this.name = "CounterUnavailableError";
  }
}

/** The fast counter (Redis). Every method may throw CounterUnavailableError. */
export interface FastCounter {
  next(counter: CounterId, today: BusinessDay, nowMs: number, expireAtMs: number): Promise<FastIssue>;
  /** Installs a reserved block for (day, shift) if the counter is still there; false if it moved on. */
  addBlock(counter: CounterId, block: Block, expireAtMs: number): Promise<boolean>;
  /**
   * Moves the counter to `block` when it is missing or behind (older day or shift);
   * for the same (day, shift) it installs the block like addBlock. Never moves backwards.
   */
  restore(counter: CounterId, block: Block, expireAtMs: number): Promise<boolean>;
  /**
   * Abandons the block `issued` came from, if it is still the current one: the next
   * number comes from a fresh block. A block installed since is left alone, and so is a
   * block in reserve that starts at or above `storedUpTo` (no number of it was stored).
   */
  burn(counter: CounterId, issued: IssuedNumber, storedUpTo: number): Promise<void>;
  /** False while the store is considered unreachable (numbers come from the ledger). */
  available(): boolean;
}

/** The durable side (PostgreSQL). */
export interface CounterLedger {
  /**
   * Reserves `size` numbers above the ceiling of (day, shift), and above `floor`: numbers up
   * to it were handed out, whatever the ledger remembers (a failover may have lost its last
   * writes). If a later shift of that day exists, reserves in the latest shift instead (the
   * caller's view was stale; the floor does not apply there).
   */
  reserve(counter: CounterId, day: BusinessDay, shift: number, size: number, floor?: number): Promise<Block>;
  /** Reserves a block in the current shift of `day` (or of a later day the ledger already holds). */
  reserveCurrent(counter: CounterId, day: BusinessDay, size: number): Promise<Block>;
  /** The fallback: one number straight from the ceiling of the current shift. */
  issueDirect(counter: CounterId, day: BusinessDay): Promise<IssuedNumber>;
  /** The highest number (a series: ticket) stored in an order of (day, shift); 0 when none. */
  highestStored(counter: CounterId, day: BusinessDay, shift: number): Promise<number>;
}
