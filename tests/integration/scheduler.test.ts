/**
 * Scheduled shifts run exactly once across app nodes (docs/decisions/0010).
 *
 * First the fencing in PostgreSQL itself (the repository): a start carrying an older term
 * or a slot already started is refused. Then three real app processes on one Redis and one
 * PostgreSQL, with a 2 s lock: exactly one leads; a slot starts one shift; the leader killed
 * with -9 is replaced (a newer term) and the next slot starts once; a leader stopped
 * (SIGSTOP) across a slot for longer than its lock, then resumed, does not start that slot a
 * second time. Slots are real minutes of the wall clock, so the test waits for two minute
 * boundaries (about two minutes in all). "Nothing more happened" is asserted after a whole
 * scheduler round seen to end (sentinel tenants), not after a fixed sleep.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrisma, type Db } from "@/lib/adapters/postgres/prisma.server";
import { PrismaSchedulerStore } from "@/lib/adapters/postgres/scheduler-store.server";
import { StaleLeaderError } from "@/lib/core/ports";
import { createTestDatabase, type TestDatabase } from "../support/db";
import { startAppServer, testKeyPrefix, type AppServer } from "../support/app-server";
import { provisionTenants } from "../support/tenants";
import { localDate } from "../support/clock";
import { PrismaShiftRepository } from "@/lib/adapters/postgres/shift-repository.server";
import { contractFetch } from "../support/http";
import { aWholeRoundLater, wallClockSlot as localHHMM } from "../support/scheduler-rounds";

const TTL_MS = 2_000;
const METRICS_TOKEN = "scheduler-test-metrics-token";
const ZONE = "Asia/Kolkata";

let database: TestDatabase;
let db: Db;

beforeAll(async () => {
  database = await createTestDatabase("scheduler");
  db = createPrisma(database.url, { max: 4 });
});

afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | null | undefined | false>, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("fencing in PostgreSQL (the shift repository)", () => {
  it("refuses a scheduled start with an older term or for a slot already started, and records a skip once", async () => {
    const { fence } = await provisionTenants(database.url, [{ slug: "fence", name: "Fence Fries", timeZone: ZONE }]);
    const shifts = new PrismaShiftRepository(db);
    const store = new PrismaSchedulerStore(db);
    const day = localDate(ZONE);
    const opts = { startedBy: "scheduler", reason: null, firstNumber: 1, blockSize: 10 };
    const unused = async () => false;

    const term = await store.nextTerm();
    const first = await shifts.startShift(fence!.id, day, { ...opts, scheduled: { slot: "11:00", slotAt: new Date(Date.now() - 60_000), term } }, unused);
    expect(first.created).toBe(true);
    const again = await shifts.startShift(fence!.id, day, { ...opts, scheduled: { slot: "11:00", slotAt: new Date(Date.now() - 60_000), term } }, unused);
    expect(again).toMatchObject({ created: false, skipped: "slotStarted" });
    // A slot whose time lies before the shift just started: a shift was started since.
    const since = await shifts.startShift(fence!.id, day, { ...opts, scheduled: { slot: "10:00", slotAt: new Date(Date.now() - 3_600_000), term } }, unused);
    expect(since).toMatchObject({ created: false, skipped: "shiftSince" });

    // A newer leader was elected: the old term is refused, whatever the slot.
    const newer = await store.nextTerm();
    expect(newer).toBeGreaterThan(term);
    await expect(shifts.startShift(fence!.id, day, { ...opts, scheduled: { slot: "17:00", slotAt: new Date(), term } }, unused)).rejects.toBeInstanceOf(
      StaleLeaderError,
    );
    await expect(
      shifts.recordScheduleSkip(fence!.id, day, { slot: "10:00", slotAt: new Date(), term }, { actor: "scheduler", details: {} }),
    ).rejects.toBeInstanceOf(StaleLeaderError);

    // The skip is written once; never for a slot that started.
    const skip = { slot: "10:00", slotAt: new Date(), term: newer };
    expect(await shifts.recordScheduleSkip(fence!.id, day, skip, { actor: "scheduler", details: { reason: "pastGrace" } })).toBe(true);
    expect(await shifts.recordScheduleSkip(fence!.id, day, skip, { actor: "scheduler", details: { reason: "pastGrace" } })).toBe(false);
    expect(await shifts.recordScheduleSkip(fence!.id, day, { ...skip, slot: "11:00" }, { actor: "scheduler", details: {} })).toBe(false);
    expect(await db.auditEntry.count({ where: { tenantId: fence!.id, action: "shift.scheduleSkipped" } })).toBe(1);

    // The unique (tenant, day, slot) index is the backstop behind the checks.
    const rows = await db.shift.findMany({ where: { tenantId: fence!.id }, orderBy: { number: "asc" } });
    expect(rows.map((r) => [r.number, r.trigger, r.slot, r.term])).toEqual([[2, "SCHEDULE", "11:00", term]]);
    await expect(
      db.shift.create({ data: { tenantId: fence!.id, businessDay: new Date(`${day}T00:00:00Z`), number: 3, startedBy: "x", slot: "11:00" } }),
    ).rejects.toThrow();
  });
});

describe("three app nodes, one schedule", () => {
  const nodes: AppServer[] = [];
  const live = new Set<number>();
  const stopped = new Set<number>();
  let tenantId = "";
  let lateId = "";
  let manualId = "";
  /** Fresh tenants for aWholeRoundLater, two per use. */
  const sentinels: [string, string][] = [];
  /** The term of the leader that started the slot just past. */
  let pastTerm = 0;
  /** The slots on the wall clock: one just past, then two minute boundaries ahead. */
  let past = "";
  let s1: { slot: string; at: Date };
  let s2: { slot: string; at: Date };

  async function health(i: number): Promise<{ leader: boolean } | null> {
    try {
      // Generous: only a hung node should go unanswered (a stopped one is never asked).
      const res = await contractFetch(`${nodes[i]!.url}/api/health`, { signal: AbortSignal.timeout(30_000) });
      return (await res.json()) as { leader: boolean };
    } catch {
      return null;
    }
  }

  async function leaders(): Promise<number[]> {
    const ids = [...live].filter((i) => !stopped.has(i));
    const answers = await Promise.all(ids.map(async (i) => [i, await health(i)] as const));
    return answers.filter(([, h]) => h?.leader === true).map(([i]) => i);
  }

  const shiftsOf = (id: string, slot?: string) => db.shift.findMany({ where: { tenantId: id, ...(slot ? { slot } : {}) } });

  beforeAll(async () => {
    const now = new Date();
    // The business day began three hours ago, so every slot below lies inside it.
    const dayStart = localHHMM(new Date(now.getTime() - 3 * 3_600_000), ZONE);
    const sentinelSlugs = [0, 1, 2].map((k) => [`sentinel-${k}a`, `sentinel-${k}b`] as const);
    const t = await provisionTenants(database.url, [
      { slug: "sched", name: "Scheduled Samosas", timeZone: ZONE, dayStart },
      { slug: "late", name: "Late Lassi", timeZone: ZONE, dayStart },
      { slug: "manual", name: "Manual Masala", timeZone: ZONE, dayStart },
      ...sentinelSlugs.flat().map((slug) => ({ slug, name: `Sentinel ${slug}`, timeZone: ZONE, dayStart })),
    ]);
    sentinels.push(...sentinelSlugs.map(([x, y]) => [t[x]!.id, t[y]!.id] as [string, string]));
    tenantId = t.sched!.id;
    lateId = t.late!.id;
    manualId = t.manual!.id;
    // Missed while no node ran: 40 minutes ago is past the 30-minute grace; 10 minutes ago is
    // within it, but a manager started a shift 5 minutes ago.
    await db.tenant.update({ where: { id: lateId }, data: { schedule: [localHHMM(new Date(now.getTime() - 40 * 60_000), ZONE)] } });
    await db.tenant.update({ where: { id: manualId }, data: { schedule: [localHHMM(new Date(now.getTime() - 10 * 60_000), ZONE)] } });
    const { businessDayAt } = await import("@/lib/core/business-day");
    const manualDay = businessDayAt(now, { timeZone: ZONE, dayStartMinutes: Number(dayStart.slice(0, 2)) * 60 + Number(dayStart.slice(3)) });
    await db.shift.create({
      data: {
        tenantId: manualId,
        businessDay: new Date(`${manualDay}T00:00:00Z`),
        number: 2,
        startedBy: "Manager (staff)",
        startedAt: new Date(now.getTime() - 5 * 60_000),
      },
    });

    const keyPrefix = testKeyPrefix("sched");
    const started = await Promise.all(
      [0, 1, 2].map(() =>
        startAppServer({
          databaseUrl: database.url,
          keyPrefix,
          env: { SCHEDULER_LOCK_TTL_MS: String(TTL_MS), SCHEDULE_GRACE_MINUTES: "30", METRICS_TOKEN },
          timeoutMs: 120_000,
        }),
      ),
    );
    nodes.push(...started);
    for (const i of [0, 1, 2]) live.add(i);
  }, 180_000);

  afterAll(async () => {
    for (const i of stopped) nodes[i]?.proc.kill("SIGCONT");
    await Promise.all(nodes.map((n) => n.stop()));
  });

  it("has exactly one leader", async () => {
    await until("a leader", 60_000, async () => (await leaders()).length === 1);
    // …and one only, sample after sample (each node answers for itself).
    const seen = new Set<number>();
    for (let k = 0; k < 10; k++) {
      const l = await leaders();
      expect(l.length).toBe(1);
      seen.add(l[0]!);
      await sleep(200); // samples spread over several ticks (the thing tested), not a wait for something to happen
    }
    expect(seen.size).toBe(1);
    // Prometheus shows the same: 1 on the leader, 0 on the others.
    const gauges = await Promise.all(
      nodes.map(async (n) => {
        const text = await (await contractFetch(`${n.url}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
        return /^nextup_scheduler_leader (\d)$/m.exec(text)?.[1];
      }),
    );
    expect(gauges).toEqual([0, 1, 2].map((i) => (seen.has(i) ? "1" : "0")));
  });

  it("starts one shift for a slot, and records missed slots as skipped once", async () => {
    const now = new Date();
    past = localHHMM(now, ZONE);
    // The next minute boundary at least 25 s ahead, and the one after.
    const next = new Date(Math.ceil((now.getTime() + 25_000) / 60_000) * 60_000);
    s1 = { slot: localHHMM(next, ZONE), at: next };
    s2 = { slot: localHHMM(new Date(next.getTime() + 60_000), ZONE), at: new Date(next.getTime() + 60_000) };
    await db.tenant.update({ where: { id: tenantId }, data: { schedule: [past, s1.slot, s2.slot].sort() } });

    // The slot just past is within the grace period: it starts (how soon is for a bench; 60 s only stops a hung test).
    const [row] = await until("the shift of the slot just past", 60_000, async () => {
      const rows = await shiftsOf(tenantId, past);
      return rows.length ? rows : null;
    });
    pastTerm = row!.term!;
    expect(row).toMatchObject({ trigger: "SCHEDULE", slot: past, startedBy: "scheduler", number: 2 });
    expect(row!.term).toBeGreaterThan(0);

    // Skipped slots: one audit entry each, no shift.
    await until(
      "the skips",
      60_000,
      async () => (await db.auditEntry.count({ where: { action: "shift.scheduleSkipped", tenantId: { in: [lateId, manualId] } } })) === 2,
    );

    // A whole round has ended since: still one shift for the slot, one skip each.
    await aWholeRoundLater(db, sentinels[0]!, ZONE);
    expect(await shiftsOf(tenantId)).toHaveLength(1);
    expect(await shiftsOf(lateId)).toHaveLength(0);
    expect(await shiftsOf(manualId)).toHaveLength(1);
    const skips = await db.auditEntry.findMany({ where: { action: "shift.scheduleSkipped", tenantId: { in: [lateId, manualId] } } });
    expect(skips.map((s) => [s.tenantId, (s.details as { reason: string }).reason]).sort()).toEqual(
      [
        [lateId, "pastGrace"],
        [manualId, "shiftStartedSince"],
      ].sort(),
    );
    const audit = await db.auditEntry.findMany({ where: { tenantId, action: "shift.start" } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: "scheduler", details: expect.objectContaining({ slot: past, term: row!.term, trigger: "schedule" }) });
  }, 180_000);

  it("replaces a leader killed with -9 (a newer term); the next slot starts once", async () => {
    const [leader] = await leaders();
    expect(leader).toBeDefined();
    nodes[leader!]!.proc.kill("SIGKILL");
    live.delete(leader!);
    // Another node leads once the dead one's lock expires (how soon is for a bench; 60 s only stops a hung test).
    await until("a new leader", 60_000, async () => (await leaders()).length === 1, 25);

    // Until the slot, then 60 s only to stop a hung test.
    const wait = s1.at.getTime() - Date.now() + 60_000;
    const [row] = await until(
      `the shift of slot ${s1.slot}`,
      wait,
      async () => {
        const rows = await shiftsOf(tenantId, s1.slot);
        return rows.length ? rows : null;
      },
      200,
    );
    // Never before its time; started by a leader elected after the one that started the slot just past.
    expect(row!.startedAt.getTime()).toBeGreaterThanOrEqual(s1.at.getTime());
    expect(row!.term!).toBeGreaterThan(pastTerm);
    await aWholeRoundLater(db, sentinels[1]!, ZONE);
    expect(await shiftsOf(tenantId, s1.slot)).toHaveLength(1);
    expect(await shiftsOf(tenantId)).toHaveLength(2);
  }, 180_000);

  it("a leader stopped across a slot for longer than its lock, then resumed, does not start the slot twice", async () => {
    const [leader] = await leaders();
    expect(leader).toBeDefined();
    const termBefore = (await shiftsOf(tenantId, s1.slot))[0]!.term!;
    // Stopped 6 s before the slot (three times its lock): this wall-clock wait places the pause across the slot.
    await sleep(Math.max(0, s2.at.getTime() - 6_000 - Date.now()));
    nodes[leader!]!.proc.kill("SIGSTOP");
    stopped.add(leader!);
    // Resumed once another node has started the slot (after it; 60 s only stops a hung test).
    const during = await until(
      `the shift of slot ${s2.slot}`,
      s2.at.getTime() - Date.now() + 60_000,
      async () => {
        const rows = await shiftsOf(tenantId, s2.slot);
        return rows.length ? rows : null;
      },
      200,
    );
    expect(during).toHaveLength(1);
    expect(during[0]!.term!).toBeGreaterThan(termBefore);
    const lost = () => nodes[leader!]!.output().split("lost the leader lock").length - 1;
    const lostBefore = lost();
    nodes[leader!]!.proc.kill("SIGCONT");
    stopped.delete(leader!);

    // The resumed node finds its lease run out and its lock taken (its first tick says so): it never acts on the slot.
    await until("the resumed node's first tick", 60_000, async () => lost() > lostBefore);
    await aWholeRoundLater(db, sentinels[2]!, ZONE);
    expect(await shiftsOf(tenantId, s2.slot)).toHaveLength(1);
    expect(await shiftsOf(tenantId)).toHaveLength(3);
    expect((await health(leader!))?.leader).toBe(false);
    expect(await leaders()).toHaveLength(1);
  }, 180_000);
});
