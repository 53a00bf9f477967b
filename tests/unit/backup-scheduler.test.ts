import { describe, expect, it, vi } from "vitest";
import { BackupScheduler } from "@/lib/core/backups/backup-scheduler";
import { backupSlot, BACKUP_STALE_MS } from "@/lib/core/backups/backup-schedule";
import type { BackupRunRecord, BackupRunStore } from "@/lib/core/ports";

/** The runs' ledger as the database keeps it: one row per slot (the unique index). */
function memoryStore(): BackupRunStore & { rows: Map<number, BackupRunRecord & { deleted: boolean }> } {
  const rows = new Map<number, BackupRunRecord & { deleted: boolean }>();
  const sorted = () => [...rows.values()].sort((a, b) => b.slot.getTime() - a.slot.getTime());
  const kept = () =>
    sorted()
      .filter((r) => r.ok && !r.deleted && r.file)
      .map((r) => ({ slot: r.slot, file: r.file! }));
  return {
    rows,
    async claim(slot, node) {
      if (rows.has(slot.getTime())) return false;
      rows.set(slot.getTime(), {
        slot,
        node,
        startedAt: new Date(slot),
        finishedAt: null,
        ok: null,
        file: null,
        bytes: null,
        orders: null,
        error: null,
        deleted: false,
      });
      return true;
    },
    async finish(slot, node, end) {
      const r = rows.get(slot.getTime());
      if (!r || r.node !== node || r.finishedAt) return;
      Object.assign(
        r,
        { finishedAt: new Date(slot.getTime() + 1000), ok: end.ok },
        end.ok ? { file: end.file, bytes: end.bytes, orders: end.orders } : { error: end.error },
      );
    },
    summary: async () => ({
      latest: sorted()[0] ?? null,
      lastOk: sorted().find((r) => r.ok) ?? null,
      kept: kept().length,
    }),
    kept: async () => kept(),
    async markDeleted(slot) {
      rows.get(slot.getTime())!.deleted = true;
    },
  };
}

function harness(opts: { store?: ReturnType<typeof memoryStore>; node?: string; failWith?: string; keep?: number; dir?: string } = {}) {
  const store = opts.store ?? memoryStore();
  let now = new Date("2026-12-01T19:00:30Z");
  const written: string[] = [];
  const removed: string[] = [];
  const outcomes: string[] = [];
  const scheduler = new BackupScheduler({
    store,
    files: {
      write: async (slot) => {
        if (opts.failWith) throw new Error(opts.failWith);
        const file = `/b/nextup-${slot.toISOString()}.nxb`;
        written.push(file);
        return { file, bytes: 100, orders: 3 };
      },
      remove: async (file) => void removed.push(file),
    },
    metrics: { run: (o) => void outcomes.push(o) },
    log: { info: () => {}, warn: () => {}, error: () => {} },
    clock: { now: () => now },
    node: opts.node ?? "a",
    everyMinutes: 60,
    keep: opts.keep ?? 2,
    dir: opts.dir ?? "/b",
  });
  return { scheduler, store, written, removed, outcomes, at: (iso: string) => (now = new Date(iso)) };
}

describe("scheduled backups (decision 0049)", () => {
  it("slots are aligned to the clock, the same on every node", () => {
    expect(backupSlot(new Date("2026-12-01T19:59:59.999Z"), 60).toISOString()).toBe("2026-12-01T19:00:00.000Z");
    expect(backupSlot(new Date("2026-12-01T20:00:00Z"), 60).toISOString()).toBe("2026-12-01T20:00:00.000Z");
    expect(backupSlot(new Date("2026-12-01T20:14:00Z"), 15).toISOString()).toBe("2026-12-01T20:00:00.000Z");
  });

  it("makes one backup per slot, whichever of two nodes claims it", async () => {
    const store = memoryStore();
    const a = harness({ store, node: "a" });
    const b = harness({ store, node: "b" });
    await Promise.all([a.scheduler.tick(), b.scheduler.tick(), a.scheduler.tick()]);
    expect(a.written.length + b.written.length).toBe(1);
    expect(store.rows.size).toBe(1);
    // The same hour again: nothing; the next hour: the next backup.
    await a.scheduler.tick();
    expect(a.written.length + b.written.length).toBe(1);
    a.at("2026-12-01T20:00:05Z");
    await a.scheduler.tick();
    expect(a.written.length + b.written.length).toBe(2);
    expect(a.scheduler.state()).toMatchObject({ state: "ok", kept: 2, dir: "/b" });
    // A node whose own setting differs names the folder the backups really went to.
    const c = harness({ store, node: "c", dir: "/elsewhere" });
    await c.scheduler.tick();
    expect(c.scheduler.state()).toMatchObject({ state: "ok", dir: "/b" });
  });

  it("keeps the newest ones and removes the older files it made", async () => {
    const h = harness({ keep: 2 });
    for (const hour of ["19", "20", "21", "22"]) {
      h.at(`2026-12-01T${hour}:00:10Z`);
      await h.scheduler.tick();
    }
    expect(h.written).toHaveLength(4);
    expect(h.removed).toEqual([h.written[0], h.written[1]]);
    expect(h.scheduler.state()).toMatchObject({ state: "ok", kept: 2 });
  });

  it("a failed backup is recorded, counted and shown, and the last good one is still named", async () => {
    const store = memoryStore();
    const good = harness({ store });
    await good.scheduler.tick();
    const bad = harness({ store, failWith: "disk full" });
    bad.at("2026-12-01T20:00:10Z");
    await bad.scheduler.tick();
    expect(bad.outcomes).toEqual(["failed"]);
    expect(bad.scheduler.state()).toMatchObject({ state: "failed", error: "disk full", lastOk: new Date("2026-12-01T19:00:01Z") });
    expect(bad.removed).toEqual([]);
  });

  it("a write that never ends fails the run after one period, and the next period is tried", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const store = memoryStore();
      let calls = 0;
      const outcomes: string[] = [];
      const scheduler = new BackupScheduler({
        store,
        files: { write: () => (calls++, new Promise(() => {})), remove: async () => {} },
        metrics: { run: (o) => void outcomes.push(o) },
        log: { info: () => {}, warn: () => {}, error: () => {} },
        clock: { now: () => new Date("2026-12-01T19:00:30Z") },
        node: "a",
        everyMinutes: 60,
        keep: 2,
        dir: "/b",
      });
      const tick = scheduler.tick();
      await vi.advanceTimersByTimeAsync(60 * 60_000);
      await tick;
      expect(outcomes).toEqual(["failed"]);
      expect(scheduler.state()).toMatchObject({ state: "failed", error: "not finished after 60 minutes" });
      expect(calls).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a run its node never finished reads as running, then as failed", async () => {
    const store = memoryStore();
    await store.claim(new Date("2026-12-01T19:00:00Z"), "gone");
    // Another node keeps claiming the later slots first: this one only reads the state.
    store.claim = async () => false;
    const h = harness({ store });
    h.at("2026-12-01T19:10:00Z");
    await h.scheduler.tick();
    expect(h.scheduler.state()).toMatchObject({ state: "running" });
    h.at(new Date(Date.parse("2026-12-01T19:00:00Z") + BACKUP_STALE_MS + 1).toISOString());
    await h.scheduler.tick();
    expect(h.scheduler.state()).toMatchObject({ state: "failed", error: expect.stringMatching(/did not finish/) });
  });
});
