/**
 * NumberIssuer's rules on in-memory ports (tests/support/in-memory-core.ts): blocks reserved
 * in the ledger and handed out by the fast counter, the fallback to the database when the
 * counter fails, the limit on blocks one caller brings, shifts and business days. The
 * real Redis and PostgreSQL behind the same rules: tests/integration/counter*.test.ts.
 */
import { describe, expect, it } from "vitest";
import { BLOCK_SIZE, LOW_WATER, NumberIssuer } from "@/lib/core/numbering";
import { isUnavailableError } from "@/lib/core/ports";
import type { DatabaseHistory } from "@/lib/core/replication";
import { FRESH_HISTORY_MS, JUMP_MARGIN, ReplicationWatch } from "@/lib/core/replication-watch";
import { localDate, movableClock, wallTime } from "../support/clock";
import { memoryCore, memoryTenant } from "../support/in-memory-core";

const BERLIN = "Europe/Berlin";
const noon = () => movableClock(wallTime(BERLIN, "12:00"));
const today = localDate(BERLIN);

/** `n` numbers, one caller after the other. */
async function issue(core: ReturnType<typeof memoryCore>, tenant: ReturnType<typeof memoryTenant>, n: number) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(await core.issuer.issue(tenant));
  return out;
}

describe("NumberIssuer: a database failover that lost writes (decision 0028)", () => {
  it("the next block starts above what Redis handed out, even where the ledger forgot it: said and counted", async () => {
    const behind: number[] = [];
    const core = memoryCore({ clock: noon(), hooks: { ceilingBehind: (_t, by) => void behind.push(by) } });
    const tenant = memoryTenant();
    await issue(core, tenant, 5); // block 1–40, the ceiling at 40
    core.db.forget(tenant.id, today, 1, 0); // the standby never saw that block's row
    const issued = await issue(core, tenant, 60);
    const numbers = issued.map((i) => i.number);
    expect(numbers).toEqual(Array.from({ length: 60 }, (_, i) => i + 6));
    expect(core.ledger.calls.filter((c) => c.method === "reserve")[0]).toEqual({ method: "reserve", businessDay: today, shift: 1, lo: 40, hi: 80 });
    expect(behind).toEqual([40]);
    expect(core.recorder.logs.some((l) => l.level === "warn" && l.msg?.includes("forgotten numbers Redis handed out"))).toBe(true);
  });

  it("numbers from the ledger alone wait for the failover check first", async () => {
    const order: string[] = [];
    const core = memoryCore({ clock: noon(), hooks: { beforeLedgerNumbers: async () => void order.push("checked") } });
    const tenant = memoryTenant();
    await issue(core, tenant, 1); // Redis lost the counter: restored from the ledger
    core.counter.down = true;
    await issue(core, tenant, 1); // Redis down: straight from the ledger
    expect(order).toEqual(["checked", "checked"]);
    expect(core.ledger.calls.map((c) => c.method)).toEqual(["reserveCurrent", "issueDirect"]);
  });
});

/**
 * The counter guarded by a real ReplicationWatch (decision 0032): a database whose facts the
 * test sets (reading fails, timeline moves), a mark in "Redis" that is away with the
 * counter, and a jump that raises every ceiling in the in-memory database or fails.
 */
function guarded() {
  const rig = { readingFails: false, jumpFails: false, timeline: 1, now: 0 };
  let marked: DatabaseHistory | null = null;
  const core = memoryCore({ clock: noon(), hooks: { beforeLedgerNumbers: () => watch.fresh() } });
  const watch: ReplicationWatch = new ReplicationWatch({
    facts: {
      read: async () => {
        if (rig.readingFails) throw new Error("read ECONNRESET");
        return { synchronousStandbyNames: "", synchronousCommit: "on", standbys: 1, history: { systemId: "s", timeline: rig.timeline } };
      },
    },
    mark: {
      get: async () => {
        if (core.counter.down) throw new Error("redis down");
        return marked;
      },
      set: async (h) => void (marked = h),
    },
    jumper: {
      jumpPastLoss: async (margin) => {
        if (rig.jumpFails) throw new Error("database away again");
        for (const key of core.db.ceilings.keys()) core.db.ceilings.set(key, core.db.ceilings.get(key)! + margin);
        return [];
      },
    },
    log: { info: () => {}, warn: () => {}, error: () => {} },
    monotonic: () => rig.now,
  });
  const tenant = memoryTenant();
  const place = () => core.orderService.place(tenant, {}, { channel: "kiosk", by: null });
  /** The order is refused as an outage (503), no number drawn, nothing stored. */
  const refused = async () => {
    const calls = core.ledger.calls.length;
    const orders = core.db.orders.length;
    const ceilings = [...core.db.ceilings.values()];
    rig.now += FRESH_HISTORY_MS + 1;
    await expect(place()).rejects.toSatisfy(isUnavailableError);
    expect(core.ledger.calls.length).toBe(calls);
    expect(core.db.orders.length).toBe(orders);
    expect([...core.db.ceilings.values()]).toEqual(ceilings);
  };
  const placed = async () => {
    rig.now += FRESH_HISTORY_MS + 1;
    return (await place()).order.number;
  };
  return { core, rig, refused, placed };
}

describe("NumberIssuer: numbers from the database only after a fresh reading of its history (decision 0032)", () => {
  it("Redis down: a reading that fails refuses the order (503, no number, ledger untouched); the next good reading lets orders through", async () => {
    const { core, rig, refused, placed } = guarded();
    expect(await placed()).toBe(1); // Redis up: the counter restored from the ledger, the history read
    core.counter.down = true;
    rig.readingFails = true;
    await refused();
    await refused();
    rig.readingFails = false;
    expect(await placed()).toBe(BLOCK_SIZE + 1); // from the ledger, above Redis's block
    expect(core.ledger.calls.map((c) => c.method)).toEqual(["reserveCurrent", "issueDirect"]);
  });

  it("Redis down and the database failed over: a jump that fails refuses; once made, numbers continue above it", async () => {
    const { core, rig, refused, placed } = guarded();
    expect(await placed()).toBe(1);
    core.counter.down = true;
    rig.timeline = 2;
    rig.jumpFails = true;
    await refused();
    rig.jumpFails = false;
    expect(await placed()).toBe(BLOCK_SIZE + JUMP_MARGIN + 1);
  });

  it("Redis lost the counter (the restore path): a reading that fails refuses the order before any block is reserved", async () => {
    const { core, rig, refused, placed } = guarded();
    rig.readingFails = true;
    await refused();
    expect(core.ledger.calls).toEqual([]);
    rig.readingFails = false;
    expect(await placed()).toBe(1);
  });
});

describe("NumberIssuer: blocks", () => {
  it("restores a missing counter from the ledger, then numbers 1, 2, 3, … from blocks of 40 reserved ahead", async () => {
    const core = memoryCore({ clock: noon() });
    const tenant = memoryTenant();
    const issued = await issue(core, tenant, 100);
    expect(issued.map((i) => i.number)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(new Set(issued.map((i) => `${i.businessDay}/${i.shift}/${i.source}`))).toEqual(new Set([`${today}/1/redis`]));
    // One restore, then a refill each time a block crosses the low-water mark.
    expect(core.ledger.calls).toEqual([
      { method: "reserveCurrent", businessDay: today, shift: 1, lo: 0, hi: BLOCK_SIZE },
      { method: "reserve", businessDay: today, shift: 1, lo: 40, hi: 80 },
      { method: "reserve", businessDay: today, shift: 1, lo: 80, hi: 120 },
    ]);
    expect(core.db.ceiling(tenant.id, today, 1)).toBe(120);
  });

  it("asks for the next block when fewer than LOW_WATER numbers are left, so callers never wait for one", async () => {
    const core = memoryCore({ clock: noon() });
    const tenant = memoryTenant();
    await issue(core, tenant, BLOCK_SIZE - LOW_WATER);
    expect(core.ledger.calls.map((c) => c.method)).toEqual(["reserveCurrent"]);
    await issue(core, tenant, 1); // leaves LOW_WATER - 1
    await Promise.resolve();
    expect(core.ledger.calls.map((c) => c.method)).toEqual(["reserveCurrent", "reserve"]);
    expect(core.counter.peek(tenant.id)?.next).toEqual({ lo: 40, hi: 80 });
  });

  it("a counter Redis lost (restart) continues above the ledger's ceiling: numbers skipped, never repeated", async () => {
    const core = memoryCore({ clock: noon() });
    const tenant = memoryTenant();
    await issue(core, tenant, 5);
    core.counter.forget(tenant.id);
    const [after] = await issue(core, tenant, 1);
    expect(after).toMatchObject({ number: 41, source: "redis" });
    expect(core.ledger.calls.at(-1)).toEqual({ method: "reserveCurrent", businessDay: today, shift: 1, lo: 40, hi: 80 });
  });
});

describe("NumberIssuer: the fallback to the database", () => {
  it("while the counter is down, numbers come from the database above every reserved block", async () => {
    const core = memoryCore({ clock: noon() });
    const tenant = memoryTenant();
    await issue(core, tenant, 5);
    core.counter.down = true;
    const calls = core.counter.calls.length;
    const fromDb = await issue(core, tenant, 3);
    expect(fromDb.map((i) => [i.number, i.source])).toEqual([
      [41, "database"],
      [42, "database"],
      [43, "database"],
    ]);
    // A counter known to be down is not even asked.
    expect(core.counter.calls.length).toBe(calls);
    expect(core.issuer.source()).toBe("database");

    // Back: it goes on in its old block, which the database never handed out.
    core.counter.down = false;
    expect((await issue(core, tenant, 2)).map((i) => [i.number, i.source])).toEqual([
      [6, "redis"],
      [7, "redis"],
    ]);
  });

  it("a call that fails before the breaker opens falls back for that caller only", async () => {
    const core = memoryCore({ clock: noon() });
    const tenant = memoryTenant();
    await issue(core, tenant, 2);
    core.counter.failCalls = 1;
    expect((await issue(core, tenant, 2)).map((i) => [i.number, i.source])).toEqual([
      [41, "database"],
      [3, "redis"],
    ]);
  });

  it("a caller brings at most three blocks to a counter that keeps losing them, then takes its number from the database", async () => {
    const core = memoryCore({ clock: noon() });
    const tenant = memoryTenant();
    core.counter.forgetful = true;
    const [n] = await issue(core, tenant, 1);
    expect(core.ledger.calls.map((c) => c.method)).toEqual(["reserveCurrent", "reserveCurrent", "reserveCurrent", "issueDirect"]);
    expect(n).toMatchObject({ number: 3 * BLOCK_SIZE + 1, source: "database" });
  });

  it("a caller waiting for a block this node is bringing gives up after refillWaitMs and takes a database number", async () => {
    const core = memoryCore({ clock: noon(), refillWaitMs: 30 });
    const tenant = memoryTenant();
    await issue(core, tenant, BLOCK_SIZE - LOW_WATER); // the next number asks for a refill
    const release = core.ledger.holdReserves();
    await issue(core, tenant, LOW_WATER); // the rest of the block; its refill hangs
    const started = Date.now();
    const [late] = await issue(core, tenant, 1);
    expect(late).toMatchObject({ number: 41, source: "database" });
    expect(Date.now() - started).toBeLessThan(1_000);
    // The late block arrives above the database's number: Redis goes on from there.
    release();
    await new Promise((r) => setTimeout(r, 10));
    expect(core.ledger.calls.at(-1)).toMatchObject({ method: "reserve", lo: 41, hi: 81 });
    expect((await issue(core, tenant, 2)).map((i) => [i.number, i.source])).toEqual([
      [42, "redis"],
      [43, "redis"],
    ]);
  });

  it("a caller on another node waits for that block at most refillWaitMs too", async () => {
    const clock = noon();
    const core = memoryCore({ clock, refillWaitMs: 30 });
    const tenant = memoryTenant();
    await issue(core, tenant, BLOCK_SIZE - LOW_WATER);
    const release = core.ledger.holdReserves();
    await issue(core, tenant, LOW_WATER);
    const otherNode = new NumberIssuer(core.counter, core.ledger, clock, core.recorder.log, 30);
    const started = Date.now();
    expect(await otherNode.issue(tenant)).toMatchObject({ number: 41, source: "database" });
    expect(Date.now() - started).toBeLessThan(1_000);
    release();
  });

  it("when the database is down too, the caller gets the database's UnavailableError (a 503 at the edge)", async () => {
    const core = memoryCore({ clock: noon() });
    const tenant = memoryTenant();
    core.counter.down = true;
    core.db.down = true;
    const e = await core.issuer.issue(tenant).catch((err: unknown) => err);
    expect(isUnavailableError(e) && e.store).toBe("database");
  });
});

describe("NumberIssuer: shifts and business days", () => {
  it("a new shift numbers from 1 again; with a first number, from that number", async () => {
    const core = memoryCore({ clock: noon() });
    const tenant = memoryTenant();
    await issue(core, tenant, 7);
    await core.shiftService.start(tenant, {}, "manager");
    expect((await issue(core, tenant, 2)).map((i) => [i.shift, i.number, i.source])).toEqual([
      [2, 1, "redis"],
      [2, 2, "redis"],
    ]);
    await core.shiftService.start(tenant, { firstNumber: 100 }, "manager");
    expect((await issue(core, tenant, 2)).map((i) => [i.shift, i.number])).toEqual([
      [3, 100],
      [3, 101],
    ]);
  });

  it("a shift started while the counter is down still starts at its first number, from the database", async () => {
    const core = memoryCore({ clock: noon() });
    const tenant = memoryTenant();
    await issue(core, tenant, 3);
    core.counter.down = true;
    const started = await core.shiftService.start(tenant, { firstNumber: 50 }, "manager");
    expect(started.shift).toMatchObject({ shift: 2, firstNumber: 50 });
    expect((await issue(core, tenant, 2)).map((i) => [i.shift, i.number, i.source])).toEqual([
      [2, 50, "database"],
      [2, 51, "database"],
    ]);
  });

  it("the business day changes at the day's start hour (04:00): numbering starts at 1 for the new day", async () => {
    const clock = movableClock(wallTime(BERLIN, "03:50"));
    const core = memoryCore({ clock });
    const tenant = memoryTenant();
    const yesterday = localDate(BERLIN, -1);
    const before = await issue(core, tenant, 3);
    expect(before.map((i) => [i.businessDay, i.number])).toEqual([
      [yesterday, 1],
      [yesterday, 2],
      [yesterday, 3],
    ]);
    clock.set(wallTime(BERLIN, "03:59"));
    expect((await issue(core, tenant, 1))[0]).toMatchObject({ businessDay: yesterday, number: 4 });
    clock.set(wallTime(BERLIN, "04:00"));
    const after = await issue(core, tenant, 2);
    expect(after.map((i) => [i.businessDay, i.shift, i.number, i.source])).toEqual([
      [today, 1, 1, "redis"],
      [today, 1, 2, "redis"],
    ]);
    expect(core.ledger.calls.at(-1)).toEqual({ method: "reserve", businessDay: today, shift: 1, lo: 0, hi: BLOCK_SIZE });
  });
});
