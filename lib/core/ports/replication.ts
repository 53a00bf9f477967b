/** What the counter learns of the database's replication and history (docs/decisions/0028). */
import type { BusinessDay } from "../business-day";
import type { DatabaseHistory, ReplicationFacts } from "../replication";

/** Reads the primary's settings, standbys and history; each part the role may not read comes back null. */
export interface DatabaseFacts {
  read(): Promise<ReplicationFacts>;
}

/** The latest database history any node saw, kept beside the counter (Redis) so a node started after a failover still knows the one before. */
export interface HistoryMark {
  get(): Promise<DatabaseHistory | null>;
  set(history: DatabaseHistory): Promise<void>;
}

/** A counter's ceiling raised past what a failover may have lost. */
export interface CeilingJump {
  tenantId: string;
  /** null: the default series. */
  seriesId: string | null;
  /** The series' name (null: the default series). */
  seriesName: string | null;
  businessDay: BusinessDay;
  shift: number;
  /** The ceiling before and after (a series': its tickets). */
  from: number;
  to: number;
}

/** Raises the recent ceilings past numbers the database may have forgotten. */
export interface CeilingJumper {
  /**
   * Every ceiling of the last two business days rises by `margin` plus the numbers its
   * counter handed out in the `lookbackSeconds` before its latest stored order.
   */
  jumpPastLoss(margin: number, lookbackSeconds: number): Promise<CeilingJump[]>;
}
