import { describe, expect, it } from "vitest";
import { FailoverGuardError, FRESH_HISTORY_MS, JUMP_LOOKBACK_SECONDS, JUMP_MARGIN, ReplicationWatch } from "@/lib/core/replication-watch";
import { isUnavailableError } from "@/lib/core/ports";
import type { AuditEntry } from "@/lib/core/audit";
import type { CeilingJump, DatabaseFacts, HistoryMark } from "@/lib/core/ports";
import type { DatabaseHistory, ReplicationFacts } from "@/lib/core/replication";

/** A database whose facts the test sets, a mark as Redis would keep it, a jumper that records its calls. */
function rig(start: Partial<ReplicationFacts> = {}) {
  let facts: ReplicationFacts = { synchronousStandbyNames: "", synchronousCommit: "on", standbys: 1, history: { systemId: "s", timeline: 1 }, ...start };
  let down = false;
  let marked: DatabaseHistory | null = null;
  let markDown = false;
  let now = 0;
  const jumps: [number, number][] = [];
  const audits: [string, Omit<AuditEntry, "at">][] = [];
  const warnings: string[] = [];
  let reads = 0;
  const db: DatabaseFacts = {
    read: async () => {
      reads++;
      if (down) throw new Error("ECONNREFUSED");
      return facts;
    },
  };
  const mark: HistoryMark = {
    get: async () => {
      if (markDown) throw new Error("redis down");
      return marked;
    },
    set: async (h) => {
      if (markDown) throw new Error("redis down");
      marked = h;
    },
  };
  const jumped: CeilingJump[] = [{ tenantId: "t1", seriesId: null, seriesName: null, businessDay: "2026-11-26", shift: 1, from: 60, to: 290 }];
  const watch = new ReplicationWatch({
    facts: db,
    mark,
    jumper: {
      jumpPastLoss: async (margin, lookback) => {
        jumps.push([margin, lookback]);
        return jumped;
      },
    },
    log: { info: () => {}, warn: (_o: object, msg?: string) => void warnings.push(msg ?? ""), error: () => {} },
    audit: { record: async (id, e) => void audits.push([id, e]), list: async () => [] },
    monotonic: () => now,
  });
  return {
    watch,
    jumps,
    audits,
    warnings,
    reads: () => reads,
    set: (f: Partial<ReplicationFacts>) => (facts = { ...facts, ...f }),
    promote: () => (facts = { ...facts, history: { systemId: "s", timeline: facts.history!.timeline + 1 } }),
    dbDown: (d: boolean) => (down = d),
    markDown: (d: boolean) => (markDown = d),
    marked: () => marked,
    setMarked: (h: DatabaseHistory | null) => (marked = h),
    advance: (ms: number) => (now += ms),
  };
}

describe("ReplicationWatch (decision 0028)", () => {
  it("says the replication it reads, warns once when it is asynchronous, and is unknown while the database is away", async () => {
    const r = rig({ standbys: 1 });
    expect(r.watch.replication()).toBe("unknown");
    await r.watch.check();
    expect(r.watch.replication()).toBe("async");
    await r.watch.check();
    expect(r.warnings.filter((w) => w.includes("asynchronous"))).toHaveLength(1);
    r.set({ synchronousStandbyNames: "*" });
    await r.watch.check();
    expect(r.watch.replication()).toBe("sync");
    r.dbDown(true);
    await r.watch.check();
    expect(r.watch.replication()).toBe("unknown");
  });

  it("a promoted standby (a later timeline): every recent ceiling jumps once, audited per restaurant, and the mark moves on", async () => {
    const r = rig();
    await r.watch.check();
    expect(r.marked()).toEqual({ systemId: "s", timeline: 1 });
    expect(r.jumps).toEqual([]);
    r.promote();
    await r.watch.check();
    expect(r.jumps).toEqual([[JUMP_MARGIN, JUMP_LOOKBACK_SECONDS]]);
    expect(r.audits).toEqual([
      [
        "t1",
        expect.objectContaining({
          actor: "system",
          action: "counter.jumpedAfterFailover",
          details: { timeline: 2, counters: [{ series: null, businessDay: "2026-11-26", shift: 1, from: 60, to: 290 }] },
        }),
      ],
    ]);
    expect(r.marked()).toEqual({ systemId: "s", timeline: 2 });
    await r.watch.check();
    expect(r.jumps).toHaveLength(1);
  });

  it("a failover from a synchronous standby lost nothing: no jump, though the promoted one reads none", async () => {
    const r = rig({ synchronousStandbyNames: "*", standbys: 1 });
    await r.watch.check();
    expect(r.watch.replication()).toBe("sync");
    r.set({ synchronousStandbyNames: "", standbys: 0 });
    r.promote();
    await r.watch.check();
    expect(r.watch.replication()).toBe("none");
    expect(r.jumps).toEqual([]);
    expect(r.marked()).toEqual({ systemId: "s", timeline: 2 });
    // The next failover, from a database that then ran without a standby, jumps.
    r.promote();
    await r.watch.check();
    expect(r.jumps).toHaveLength(1);
  });

  it("a node started after the failover learns the timeline before from the mark; with Redis away too, from its own memory", async () => {
    const fresh = rig({ history: { systemId: "s", timeline: 3 } });
    fresh.setMarked({ systemId: "s", timeline: 2 });
    await fresh.watch.check();
    expect(fresh.jumps).toHaveLength(1);

    const r = rig();
    await r.watch.check();
    r.markDown(true);
    r.promote();
    await r.watch.check();
    expect(r.jumps).toHaveLength(1);
  });

  it("a node that never saw a history and finds no mark does not jump (it cannot know; decision 0028 says when that matters)", async () => {
    const r = rig({ history: { systemId: "s", timeline: 5 } });
    await r.watch.check();
    expect(r.jumps).toEqual([]);
    expect(r.marked()).toEqual({ systemId: "s", timeline: 5 });
  });

  it("fresh() reads again only when the last reading is older than FRESH_HISTORY_MS; concurrent callers share one reading", async () => {
    const r = rig();
    await r.watch.check();
    expect(r.reads()).toBe(1);
    await r.watch.fresh();
    expect(r.reads()).toBe(1);
    r.advance(FRESH_HISTORY_MS + 1);
    await Promise.all([r.watch.fresh(), r.watch.fresh(), r.watch.check()]);
    expect(r.reads()).toBe(2);
  });

  it("fresh() refuses when the reading fails, a jump fails, or nothing remembers the history; counted; the next call reads again (decision 0032)", async () => {
    const refused: string[] = [];
    let readings = 0;
    let failReading = true;
    let failJump = true;
    let history = { systemId: "s", timeline: 1 };
    let markDown = true;
    let marked: DatabaseHistory | null = { systemId: "s", timeline: 1 };
    const watch = new ReplicationWatch({
      facts: {
        read: async () => {
          readings++;
          if (failReading) throw new Error("ECONNRESET");
          return { synchronousStandbyNames: "", synchronousCommit: "on", standbys: 1, history };
        },
      },
      mark: {
        get: async () => {
          if (markDown) throw new Error("redis down");
          return marked;
        },
        set: async (h) => void (marked = h),
      },
      jumper: {
        jumpPastLoss: async () => {
          if (failJump) throw new Error("database away again");
          return [];
        },
      },
      log: { info: () => {}, warn: () => {}, error: () => {} },
      metrics: { ceilingsJumped: () => {}, guardRefused: (reason) => void refused.push(reason) },
      monotonic: () => 0,
    });
    // The very first reading fails: refused, and each call reads again.
    await expect(watch.fresh()).rejects.toSatisfy((e) => e instanceof FailoverGuardError && isUnavailableError(e) && e.reason === "reading");
    expect(readings).toBe(1);
    // Read now, but Redis (the mark) is away and this node saw nothing before: no baseline.
    failReading = false;
    await expect(watch.fresh()).rejects.toMatchObject({ reason: "baseline" });
    expect(readings).toBe(2);
    // Redis answers with the timeline before: the history went back, and the jump fails.
    markDown = false;
    history = { systemId: "s", timeline: 2 };
    await expect(watch.fresh()).rejects.toMatchObject({ reason: "jump" });
    expect(marked).toEqual({ systemId: "s", timeline: 1 });
    // The jump is made at the next reading: numbers may come.
    failJump = false;
    await watch.fresh();
    expect(marked).toEqual({ systemId: "s", timeline: 2 });
    expect(readings).toBe(4);
    expect(refused).toEqual(["reading", "baseline", "jump"]);
    // check() (the timer's) never throws.
    failReading = true;
    await watch.check();
  });

  it("fresh() does not take a reading that began before it was asked by more than FRESH_HISTORY_MS: it waits for one that began after", async () => {
    let now = 0;
    const timelines: number[] = [];
    let release: (() => void) | null = null;
    let timeline = 1;
    const watch = new ReplicationWatch({
      facts: {
        read: async () => {
          const mine = timeline;
          if (timelines.push(mine) === 1) await new Promise<void>((r) => (release = r));
          return { synchronousStandbyNames: "", synchronousCommit: "on", standbys: 1, history: { systemId: "s", timeline: mine } };
        },
      },
      mark: { get: async () => null, set: async () => {} },
      jumper: { jumpPastLoss: async () => [] },
      log: { info: () => {}, warn: () => {}, error: () => {} },
      monotonic: () => now,
    });
    const slow = watch.check(); // began at 0, on the old primary
    now = FRESH_HISTORY_MS + 1;
    timeline = 2; // the standby is promoted meanwhile
    const asked = watch.fresh();
    release!();
    await slow;
    await asked;
    expect(timelines).toEqual([1, 2]);
  });

  it("a role that may not read the history: health says unknown; numbers from the database are refused unless replication is sync or none", async () => {
    for (const [facts, refusedWith] of [
      [{ standbys: 1 }, "history"],
      [{ standbys: null }, "history"],
      [{ standbys: 0 }, null],
      [{ standbys: 1, synchronousStandbyNames: "*" }, null],
    ] as const) {
      const r = rig({ ...facts, history: null });
      await r.watch.check();
      await r.watch.check();
      expect(r.watch.historyWatch()).toBe("unknown");
      expect(r.warnings.filter((w) => w.includes("may not read pg_control_system()"))).toHaveLength(1);
      if (refusedWith) await expect(r.watch.fresh()).rejects.toMatchObject({ reason: refusedWith });
      else await r.watch.fresh();
    }
    const r = rig();
    expect(r.watch.historyWatch()).toBe("unknown");
    await r.watch.check();
    expect(r.watch.historyWatch()).toBe("watched");
  });

  it("a jump that fails is tried again at the next reading (nothing marked meanwhile)", async () => {
    let marked: DatabaseHistory | null = { systemId: "s", timeline: 1 };
    let attempts = 0;
    const watch = new ReplicationWatch({
      facts: { read: async () => ({ synchronousStandbyNames: "", synchronousCommit: "on", standbys: 0, history: { systemId: "s", timeline: 2 } }) },
      mark: { get: async () => marked, set: async (h) => void (marked = h) },
      jumper: {
        jumpPastLoss: async () => {
          if (++attempts === 1) throw new Error("database away again");
          return [];
        },
      },
      log: { info: () => {}, warn: () => {}, error: () => {} },
    });
    await watch.check(); // never throws
    expect(marked).toEqual({ systemId: "s", timeline: 1 });
    await watch.check();
    expect(attempts).toBe(2);
    expect(marked).toEqual({ systemId: "s", timeline: 2 });
    await watch.check();
    expect(attempts).toBe(2);
  });
});
