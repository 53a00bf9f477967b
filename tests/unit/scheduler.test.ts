/**
 * The scheduler's loop with in-memory ports: when it may act (lock and local lease), what it
 * starts and what it records as skipped. The real lock, term and fencing are tested on Redis
 * and PostgreSQL in tests/integration/scheduler.test.ts.
 */
import { describe, expect, it } from "vitest";
import { Scheduler } from "@/lib/core/scheduler";
import { StaleLeaderError, type LeaderLock, type SchedulerStore } from "@/lib/core/ports";
import type { Tenant } from "@/lib/core/tenants";

const TTL = 2_000;

/** One lock shared by the "nodes" of a test, timed by a shared fake monotonic clock. */
function world() {
  let mono = 0;
  let holder: { token: number; until: number } | null = null;
  let tokens = 0;
  let term = 0;
  const lockFor = (): LeaderLock => {
    let mine: number | null = null;
    const free = () => !holder || holder.until <= mono;
    return {
      ttlMs: TTL,
      async acquire() {
        if (!free()) return false;
        mine = ++tokens;
        holder = { token: mine, until: mono + TTL };
        return true;
      },
      async extend() {
        if (free() || holder!.token !== mine) return false;
        holder!.until = mono + TTL;
        return true;
      },
      async release() {
        if (holder?.token === mine) holder = null;
      },
    };
  };
  return {
    advance: (ms: number) => (mono += ms),
    monotonic: () => mono,
    lockFor,
    store: (tenants: Tenant[]): SchedulerStore => ({ nextTerm: async () => ++term, scheduledTenants: async () => tenants }),
    term: () => term,
  };
}

const tenant: Tenant = {
  id: "t1",
  slug: "t1",
  name: "T",
  timeZone: "Europe/Berlin",
  dayStartMinutes: 240,
  floor: {
    language: null,
    readyClearMinutes: 10,
    ageWarnMinutes: 10,
    ageLateMinutes: 20,
    currency: null,
    kioskNumberOnly: false,
    printGiveUpMinutes: 10,
    readyWhen: "parts",
    askService: "off",
    defaultService: "eatIn",
    soldOutAcceptedFrom: [],
  },
  schedule: ["09:00", "11:00", "11:20"],
};

function recordingShifts(opts: { stale?: () => boolean } = {}) {
  const calls: { kind: string; slot: string; term: number; why?: string }[] = [];
  return {
    calls,
    async startScheduled(_t: Tenant, s: { slot: string; term: number }) {
      if (opts.stale?.()) throw new StaleLeaderError(s.term, s.term + 1);
      calls.push({ kind: "start", slot: s.slot, term: s.term });
      return { created: true };
    },
    async recordSkip(_t: Tenant, s: { slot: string; term: number }, why: string) {
      calls.push({ kind: "skip", slot: s.slot, term: s.term, why });
      return true;
    },
  };
}

const silent = { info() {}, warn() {}, error() {} };
// 11:25 in Berlin on 23 November: 11:20 is due (5 minutes ago), 11:00 within grace, 09:00 past it.
const now = new Date("2026-11-23T10:25:00Z");

function node(w: ReturnType<typeof world>, shifts: ReturnType<typeof recordingShifts>) {
  return new Scheduler({
    lock: w.lockFor(),
    store: w.store([tenant]),
    shifts,
    log: silent,
    clock: { now: () => now },
    monotonic: w.monotonic,
    graceMs: 30 * 60_000,
  });
}

async function round(s: Scheduler) {
  await s.tick();
  await s.idle();
}

describe("Scheduler", () => {
  it("one node leads; it starts only the latest slot reached, once, and records earlier ones as skipped", async () => {
    const w = world();
    const shifts = recordingShifts();
    const a = node(w, shifts);
    const b = node(w, shifts);
    for (let i = 0; i < 3; i++) {
      await round(a);
      await round(b);
      w.advance(500);
    }
    expect([a.isLeader(), b.isLeader()]).toEqual([true, false]);
    expect(shifts.calls).toEqual([
      { kind: "start", slot: "11:20", term: 1 },
      { kind: "skip", slot: "11:00", term: 1, why: "superseded" },
      { kind: "skip", slot: "09:00", term: 1, why: "pastGrace" },
    ]);
  });

  it("a leader paused past its lease stops leading at once, and cannot act once another took the lock", async () => {
    const w = world();
    const aShifts = recordingShifts();
    const bShifts = recordingShifts();
    const a = node(w, aShifts);
    const b = node(w, bShifts);
    await round(a);
    expect(a.isLeader()).toBe(true);
    // a is paused: its lock expires and b takes it (a new term).
    w.advance(TTL + 1);
    expect(a.isLeader()).toBe(false);
    await round(b);
    expect(b.isLeader()).toBe(true);
    expect(b.currentTerm()).toBe(2);
    // a wakes: its extend fails, it does not act.
    const before = aShifts.calls.length;
    await round(a);
    expect(a.isLeader()).toBe(false);
    expect(aShifts.calls.length).toBe(before);
  });

  it("a refused term makes the leader step down and give the lock up", async () => {
    const w = world();
    let stale = true;
    const shifts = recordingShifts({ stale: () => stale });
    const a = node(w, shifts);
    await round(a);
    expect(a.isLeader()).toBe(false);
    expect(shifts.calls).toEqual([]);
    stale = false;
    // The lock was released: the next round leads under a new term.
    await round(a);
    expect(a.currentTerm()).toBe(2);
    expect(shifts.calls[0]).toEqual({ kind: "start", slot: "11:20", term: 2 });
  });

  it("releases the lock on stop, so another node leads at once", async () => {
    const w = world();
    const shifts = recordingShifts();
    const a = node(w, shifts);
    const b = node(w, shifts);
    await round(a);
    await a.stop();
    await round(b);
    expect(b.isLeader()).toBe(true);
  });
});
