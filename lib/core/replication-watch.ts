/**
 * Watches the database the counter leans on (docs/decisions/0028): which replication it runs
 * with (for /api/health, /api/ready and the metrics), and whether its history went back —
 * a standby promoted after missing the last writes. Then every recent ceiling jumps past
 * what may have been handed out, once, before the counter numbers from the database again.
 */
import { SYSTEM_ACTOR } from "./audit";
import { BLOCK_SIZE } from "./numbering";
import type { AuditLog, CeilingJump, CeilingJumper, DatabaseFacts, HistoryMark, Logger } from "./ports";
import {
  ASYNC_REPLICATION_WARNING,
  historyWentBack,
  latestHistory,
  replicationOf,
  type DatabaseHistory,
  type Replication,
  type ReplicationFacts,
} from "./replication";

/** How often the facts are read while nothing asks. */
export const REPLICATION_POLL_MS = 10_000;
/**
 * Before numbering from the database alone, the history is read again when the last reading
 * began longer ago than this: shorter than any failover takes (a crash, a promotion and an
 * address that moves), so a reading of the old primary is never taken for the new one's.
 */
export const FRESH_HISTORY_MS = 100;
/** Every jump adds this much: the blocks Redis may hold beyond the ledger (current and in reserve). */
export const JUMP_MARGIN = 2 * BLOCK_SIZE;
/** And what its counter handed out in this many seconds before its latest stored order: more than an asynchronous standby lags while it is healthy. */
export const JUMP_LOOKBACK_SECONDS = 5;

export interface ReplicationWatchDeps {
  facts: DatabaseFacts;
  mark: HistoryMark;
  jumper: CeilingJumper;
  log: Pick<Logger, "info" | "warn" | "error">;
  audit?: AuditLog;
  /** The replication gauge reads replication() when scraped; jumps are counted here. */
  metrics?: { ceilingsJumped(count: number): void };
  monotonic?: () => number;
}

export class ReplicationWatch {
  private kind: Replication = "unknown";
  /** The replication last read while the database answered (decides whether a failover lost writes). */
  private lastKnown: Replication = "unknown";
  /** The latest history this node saw. */
  private seen: DatabaseHistory | null = null;
  private checkedAt = -Infinity;
  private running: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly deps: ReplicationWatchDeps) {}

  /** The replication the last reading found. */
  replication(): Replication {
    return this.kind;
  }

  /** Reads now (one reading at a time: callers share the one under way); never throws. */
  check(): Promise<void> {
    this.running ??= this.read().finally(() => (this.running = null));
    return this.running;
  }

  /** A reading no older than FRESH_HISTORY_MS: the counter's database path waits for it. */
  async fresh(): Promise<void> {
    if (this.now() - this.checkedAt > FRESH_HISTORY_MS) await this.check();
  }

  start(): void {
    if (this.timer) return;
    void this.check();
    this.timer = setInterval(() => void this.check(), REPLICATION_POLL_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private now(): number {
    return (this.deps.monotonic ?? (() => performance.now()))();
  }

  private async read(): Promise<void> {
    const { facts, log } = this.deps;
    const began = this.now();
    let f: ReplicationFacts;
    try {
      f = await facts.read();
    } catch (e) {
      // The database is away: the kind is unknown until it answers; the history is read again then.
      this.setKind("unknown");
      log.warn({ err: e instanceof Error ? e.message : String(e) }, "could not read the database's replication");
      return;
    }
    // What the database promised before this reading: a promoted standby reads "none" itself.
    const promised = this.lastKnown;
    this.setKind(replicationOf(f));
    try {
      if (f.history) await this.follow(f.history, promised);
      this.checkedAt = began;
    } catch (e) {
      log.error({ err: e instanceof Error ? e.message : String(e) }, "could not move the counters past a database failover; trying again at the next reading");
    }
  }

  private setKind(kind: Replication): void {
    // What the database promised before a failover: "unknown" while it is away says nothing.
    if (kind !== "unknown") this.lastKnown = kind;
    if (kind === this.kind) return;
    const was = this.kind;
    this.kind = kind;
    if (kind === "async") this.deps.log.warn({ replication: kind, was }, ASYNC_REPLICATION_WARNING);
    else this.deps.log.info({ replication: kind, was }, "PostgreSQL replication");
  }

  /** Compares `now` with what this node and the others saw; jumps when it went back. */
  private async follow(now: DatabaseHistory, promised: Replication): Promise<void> {
    const { mark, log } = this.deps;
    // Redis may be away too: this node's own memory still tells.
    const marked = await mark.get().catch(() => null);
    const before = latestHistory(this.seen, marked);
    if (historyWentBack(before, now)) {
      // A synchronous standby holds every acknowledged commit, ceilings included: nothing to jump past.
      if (promised === "sync") log.info({ before, now }, "the database failed over to a synchronous standby: nothing acknowledged was lost");
      else await this.jump(before!, now);
    }
    this.seen = latestHistory(this.seen, now);
    if (!marked || marked.systemId !== now.systemId || marked.timeline !== now.timeline) {
      await mark.set(now).catch((e: unknown) => log.warn({ err: e instanceof Error ? e.message : String(e) }, "could not record the database's history"));
    }
  }

  private async jump(before: DatabaseHistory, now: DatabaseHistory): Promise<void> {
    const { jumper, log, audit, metrics } = this.deps;
    // Throws when the database is away again: the next reading retries (nothing is marked).
    const jumps = await jumper.jumpPastLoss(JUMP_MARGIN, JUMP_LOOKBACK_SECONDS);
    metrics?.ceilingsJumped(jumps.length);
    log.warn(
      { before, now, ceilings: jumps.length, margin: JUMP_MARGIN, lookbackSeconds: JUMP_LOOKBACK_SECONDS },
      "the database's history went back (a standby was promoted): every recent counter jumps past what may have been handed out",
    );
    for (const [tenantId, mine] of byTenant(jumps)) {
      await audit
        ?.record(tenantId, {
          actor: SYSTEM_ACTOR,
          action: "counter.jumpedAfterFailover",
          details: {
            timeline: now.timeline,
            counters: mine.map((j) => ({ series: j.seriesName, businessDay: j.businessDay, shift: j.shift, from: j.from, to: j.to })),
          },
        })
        .catch((e: unknown) => log.error({ tenantId, err: e instanceof Error ? e.message : String(e) }, "could not audit a counter's jump"));
    }
  }
}

function byTenant(jumps: readonly CeilingJump[]): Map<string, CeilingJump[]> {
  const out = new Map<string, CeilingJump[]>();
  for (const j of jumps) out.set(j.tenantId, [...(out.get(j.tenantId) ?? []), j]);
  return out;
}
