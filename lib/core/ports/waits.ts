/** What the wait estimate (decision 0052) reads: when recent orders were placed and first made ready. */
import type { BusinessDay } from "../business-day";
import type { ReadySample } from "../wait-estimate";

/** An order of a day as the replay of the estimates sees it (ms since epoch; null: never). */
export interface ReplayedOrder {
  id: string;
  businessDay: BusinessDay;
  placedAt: number;
  /** First made ready (after its last Undo of Ready); null: never made ready. */
  readyAt: number | null;
  /** Off the floor without being made ready first: cancelled, cleared or collected straight away; null: not. */
  goneAt: number | null;
}

export interface WaitHistory {
  /**
   * Orders of `days` placed since `placedSince` and first made ready since `readySince`: the
   * first move to READY after their last Undo of Ready (a "call again" moves readyAt, not this),
   * readyAt for orders moved by a release that stored no moves.
   */
  readies(tenantId: string, days: readonly BusinessDay[], placedSince: Date, readySince: Date): Promise<ReadySample[]>;
  /** Every order of `days` (all statuses), for replaying the estimates of a day. */
  replayOrders(tenantId: string, days: readonly BusinessDay[]): Promise<ReplayedOrder[]>;
}
