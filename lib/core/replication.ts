/**
 * What the database's replication promises the counter (docs/decisions/0028): which kind
 * the primary runs with, and whether its history went back (a failover to a standby that
 * missed writes). Pure rules; the facts come through the DatabaseFacts port.
 */

/** "sync": commits wait for a standby; "async": a standby streams behind; "none": no standby seen; "unknown": not readable. */
export type Replication = "sync" | "async" | "none" | "unknown";

export const REPLICATIONS: readonly Replication[] = ["sync", "async", "none", "unknown"];

/** Which database, and which line of its history: a promoted standby starts a later timeline. */
export interface DatabaseHistory {
  systemId: string;
  timeline: number;
}

export interface ReplicationFacts {
  /** `synchronous_standby_names` ("" when unset). */
  synchronousStandbyNames: string;
  /** `synchronous_commit`: on, remote_apply, remote_write, local or off. */
  synchronousCommit: string;
  /** How many standbys pg_stat_replication shows; null when this role may not read it. */
  standbys: number | null;
  /** null when this role may not read the control data. */
  history: DatabaseHistory | null;
}

/**
 * What the operator is told, at start and at each change, when replication is asynchronous:
 * decision 0028's "What can still repeat a number", in one breath.
 */
export const ASYNC_REPLICATION_WARNING =
  "PostgreSQL replication is asynchronous: orders acknowledged in the last moments before a database failover can be lost. " +
  "Their numbers are not given again, except if Redis lost its counters in the same moments and no running node had read the database's history before the failover, " +
  "or if the standby lagged more than 5 s while numbers came from the database alone (docs/decisions/0028)";

/** Whether this node can see the database's history (timeline and system identifier): "unknown" when the role may not read it. */
export type HistoryWatch = "watched" | "unknown";

/**
 * Whether numbers from the database alone are refused for want of the history (decision
 * 0032): it cannot be read, and a standby that may lose writes may exist (not "sync", not "none").
 */
export function blindToFailover(kind: Replication, history: HistoryWatch): boolean {
  return history === "unknown" && kind !== "sync" && kind !== "none";
}

/** Commit levels at which a commit waits for the synchronous standbys named. */
const WAITS_FOR_STANDBY = new Set(["on", "remote_write", "remote_apply"]);

/**
 * The kind of replication the facts describe. Named synchronous standbys with a commit level
 * that waits for them: "sync" (a commit waits even while none is connected, so nothing
 * acknowledged is lost). Otherwise a connected standby is "async"; none seen is "none".
 */
export function replicationOf(f: ReplicationFacts | null): Replication {
  if (!f) return "unknown";
  if (f.synchronousStandbyNames.trim() !== "" && WAITS_FOR_STANDBY.has(f.synchronousCommit)) return "sync";
  if (f.standbys === null) return "unknown";
  return f.standbys > 0 ? "async" : "none";
}

/**
 * Whether the database's history went back since `before`: another system (restored from
 * elsewhere) or a later timeline (a standby promoted). Unknown either side: no.
 */
export function historyWentBack(before: DatabaseHistory | null, now: DatabaseHistory | null): boolean {
  if (!before || !now) return false;
  return before.systemId !== now.systemId || now.timeline > before.timeline;
}

/** The later of two histories as this app has seen them (another system counts as later: it is the one in use now). */
export function latestHistory(a: DatabaseHistory | null, b: DatabaseHistory | null): DatabaseHistory | null {
  if (!a) return b;
  if (!b) return a;
  if (a.systemId !== b.systemId) return b;
  return b.timeline >= a.timeline ? b : a;
}
