/**
 * Watches the database the counter leans on (docs/decisions/0028): which replication it runs
 * with (for /api/health, /api/ready and the metrics), and whether its history went back —
 * a standby promoted after missing the last writes. Then every recent ceiling jumps past
 * what may have been handed out, once, before the counter numbers from the database again.
 * Where it cannot tell, the counter's database path is refused (decision 0032).
 */
import { SYSTEM_ACTOR } from "./audit";
import { BLOCK_SIZE } from "./numbering";
import { UnavailableError, type AuditLog, type CeilingJump, type CeilingJumper, type DatabaseFacts, type HistoryMark, type Logger } from "./ports";
import {
  ASYNC_REPLICATION_WARNING,
  blindToFailover,
  historyWentBack,
  latestHistory,
  replicationOf,
  type DatabaseHistory,
  type HistoryWatch,
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
/**
 * Why numbers from the database alone were refused (decision 0032): the facts could not be
 * read; a jump owed could not be made; the role may not read the history of a database
 * with a standby that may have lost writes; no history to compare with (this node saw none
 * and the mark in Redis cannot be read).
 */
export type GuardRefusal = "reading" | "jump" | "history" | "baseline";
export const GUARD_REFUSALS: readonly GuardRefusal[] = ["reading", "jump", "history", "baseline"];

const REFUSED: Record<GuardRefusal, string> = {
  reading: "the database's history could not be read",
  jump: "the counters could not be moved past a database failover",
  history: "this database role may not read the database's history, and a standby may have lost writes",
  baseline: "this node has no earlier reading of the database's history, and Redis (which keeps one) is unreachable",
};

/** Numbers from the database alone were refused: the request may be retried (503). */
export class FailoverGuardError extends UnavailableError {
  constructor(readonly reason: GuardRefusal) {
    super("database", `Numbers from the database alone are refused until a failover can be ruled out: ${REFUSED[reason]}`);
    this.name = "FailoverGuardError";
  }
}

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
  /** The replication gauge reads replication() when scraped; jumps and refusals are counted here. */
  metrics?: { ceilingsJumped(count: number): void; guardRefused?(reason: GuardRefusal): void };
  monotonic?: () => number;
}

/** What one reading found: when it began, and why the database path may not number yet (null: it may). */
interface Reading {
  began: number;
  refusal: GuardRefusal | null;
}

export class ReplicationWatch {
  private kind: Replication = "unknown";
  /** null until the database first answers, so that the start's log says it either way. */
  private history: HistoryWatch | null = null;
  /** The replication last read while the database answered (decides whether a failover lost writes). */
  private lastKnown: Replication = "unknown";
  /** The latest history this node saw. */
  private seen: DatabaseHistory | null = null;
  /** The latest reading that ended. */
  private last: Reading | null = null;
  private running: Promise<Reading> | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly deps: ReplicationWatchDeps) {}

  /** The replication the last reading found. */
  replication(): Replication {
    return this.kind;
  }

  /** Whether the role may read the database's history (as last read; "unknown" before the first reading). */
  historyWatch(): HistoryWatch {
    return this.history ?? "unknown";
  }

  /** Whether numbers from the database alone are refused because the role may not read the history (as last read). */
  blind(): boolean {
    return this.history !== null && blindToFailover(this.kind, this.history);
  }

  /** Reads now (one reading at a time: callers share the one under way); never throws. */
  async check(): Promise<void> {
    await this.reading();
  }

  /**
   * The counter's database path waits for this: a reading that began at most FRESH_HISTORY_MS
   * before the call, and succeeded with every jump made. Otherwise it throws
   * FailoverGuardError, and the next call reads again. Callers at the same time share one reading.
   */
  async fresh(): Promise<void> {
    const asked = this.now();
    // A refused reading is not reused: each later caller reads again (one reading at a time).
    let r = this.last?.refusal ? null : this.last;
    // A reading under way may have begun before a failover: one that began too early is followed by another.
    while (!r || r.began < asked - FRESH_HISTORY_MS) r = await this.reading();
    if (r.refusal) {
      this.deps.metrics?.guardRefused?.(r.refusal);
      throw new FailoverGuardError(r.refusal);
    }
  }

  private reading(): Promise<Reading> {
    this.running ??= this.read()
      .then((r) => (this.last = r))
      .finally(() => (this.running = null));
    return this.running;
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

  private async read(): Promise<Reading> {
    const { facts, log } = this.deps;
    const began = this.now();
    let f: ReplicationFacts;
    try {
      f = await facts.read();
    } catch (e) {
      // The database is away: the kind is unknown until it answers; the history is read again then.
      this.setKind("unknown");
      log.warn({ err: e instanceof Error ? e.message : String(e) }, "could not read the database's replication");
      return { began, refusal: "reading" };
    }
    // What the database promised before this reading: a promoted standby reads "none" itself.
    const promised = this.lastKnown;
    this.setKind(replicationOf(f));
    this.setHistory(f.history ? "watched" : "unknown");
    // Unreadable history: a failover cannot be seen. Harmless without a standby, or with one that holds every commit.
    if (!f.history) return { began, refusal: blindToFailover(this.kind, "unknown") ? "history" : null };
    try {
      return { began, refusal: await this.follow(f.history, promised) };
    } catch (e) {
      log.error({ err: e instanceof Error ? e.message : String(e) }, "could not move the counters past a database failover; trying again at the next reading");
      return { began, refusal: "jump" };
    }
  }

  private setHistory(history: HistoryWatch): void {
    if (history === this.history) return;
    this.history = history;
    if (history === "unknown") {
      this.deps.log.warn(
        { history },
        "this database role may not read pg_control_system() or pg_current_wal_lsn(): a database failover cannot be detected, so numbers that need the database alone (Redis unreachable, or without the counter) are refused unless replication is sync or none; the README (PostgreSQL high availability) names the grants",
      );
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

  /** Compares `now` with what this node and the others saw; jumps when it went back. "baseline": nothing to compare with. */
  private async follow(now: DatabaseHistory, promised: Replication): Promise<GuardRefusal | null> {
    const { mark, log } = this.deps;
    // Redis may be away too: this node's own memory still tells.
    const marked = await mark.get().then(
      (m) => m,
      () => undefined,
    );
    // Neither memory: this history may be a promoted standby's. Not taken as the baseline until one answers.
    if (marked === undefined && !this.seen) return "baseline";
    const before = latestHistory(this.seen, marked ?? null);
    if (historyWentBack(before, now)) {
      // A synchronous standby holds every acknowledged commit, ceilings included: nothing to jump past.
      if (promised === "sync") log.info({ before, now }, "the database failed over to a synchronous standby: nothing acknowledged was lost");
      else await this.jump(before!, now);
    }
    this.seen = latestHistory(this.seen, now);
    if (!marked || marked.systemId !== now.systemId || marked.timeline !== now.timeline) {
      await mark.set(now).catch((e: unknown) => log.warn({ err: e instanceof Error ? e.message : String(e) }, "could not record the database's history"));
    }
    return null;
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
