/**
 * Scenario 9: the business day turns over in the middle of a burst served by two app
 * nodes whose clocks disagree. Node B's clock is 1.5 s behind node A's: for 1.5 s after
 * A's clock passed the restaurant's day start, B's still says "yesterday". Nothing may go
 * back to yesterday: once an order of the new day has been answered, every order asked
 * for afterwards, on either node, belongs to the new day. Yesterday's orders are all still
 * open, so the new day's tickets start at 1 but skip every number they show (decision
 * 0027): the new day starts at the first number no order of yesterday holds, no number is
 * on two open orders at once (while node B still numbers yesterday's orders, the two days
 * take turns), and neither day has a gap but numbers the other held open.
 *
 * The clocks are skewed per process (tests/support/skewed-clock.mjs). So that the day
 * start falls 5 s into the burst without waiting for it, node A's clock runs ahead of the
 * machine's by up to a minute and node B's 1.5 s less; the tenant's day start is the
 * minute A's clock reaches then.
 */
import { describe, expect, it } from "vitest";
import { rigOnOneRedis, runFaultScenario } from "../support/fault-scenario";
import type { LoadRecord } from "../support/load-runner";
import { BURST } from "./burst";

const LAG_MS = 1_500;
/** The day start, this long into the burst (machine time, as node A sees it). */
const TURN_AT_MS = 5_000;
/** Starting two app nodes takes well under this (the burst waits for it). */
const SETUP_MS = 45_000;
const SKEWED_CLOCK = new URL("../support/skewed-clock.mjs", import.meta.url).pathname;

const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);

describe("fault: the business day turns over mid-burst on two nodes whose clocks are 1.5 s apart", () => {
  // Machine times: when the burst starts, and when node A's clock reaches the day start.
  const burstAt = Date.now() + SETUP_MS;
  const turn = burstAt + TURN_AT_MS;
  const dayStart = Math.ceil(turn / 60_000) * 60_000; // node A's clock reads this at `turn`
  const ahead = dayStart - turn;
  const clock = (offset: number) => ({ NODE_OPTIONS: `--import ${SKEWED_CLOCK}`, SKEWED_CLOCK_OFFSET_MS: String(offset) });
  const setup = rigOnOneRedis("clock", {
    nodes: 2,
    day: { timeZone: "UTC", dayStart: hhmm(dayStart) },
    nodeEnv: [clock(ahead), clock(ahead - LAG_MS)],
  });

  it("no order goes back to yesterday; the new day skips yesterday's open numbers; no duplicate, no number open twice, no other gap", async () => {
    const startInMs = burstAt - Date.now();
    if (startInMs < 2_000) throw new Error(`setting up took longer than ${SETUP_MS} ms: the day start would not fall inside the burst`);
    const report = await runFaultScenario({
      rig: setup.rig,
      name: "9. day start mid-burst, node B's clock 1.5 s behind node A's",
      faults: 0,
      // Cashier w of each process uses node w mod 2: half the load on each node.
      load: { ...BURST, durationMs: 12_000, startInMs },
      counterRedis: () => setup.redis,
      expectRedisThroughout: true,
      inject: async (ctx) => {
        await ctx.at(TURN_AT_MS);
        ctx.mark(`node A's clock passes the day start (${hhmm(dayStart)} UTC)`);
        await ctx.at(TURN_AT_MS + LAG_MS);
        ctx.mark("node B's clock passes it");
      },
      extraChecks: (records) => dayChecks(records.filter((r) => r.status === 201)),
    });
    expect(report.violations, report.text).toEqual([]);
    expect(report.shifts.map((s) => [s.shift, s.skipped])).toEqual([
      [1, 0],
      [1, 0],
    ]);
    // Yesterday starts at 1; the new day at the first number no order of yesterday (all
    // still open) shows: never a second "1" on the board.
    const [yesterday, today] = report.shifts.map((s) => s.businessDay);
    const held = new Set(report.stored.filter((o) => o.businessDay === yesterday).map((o) => o.number));
    expect(report.stored.every((o) => o.open)).toBe(true);
    let firstFree = 1;
    while (held.has(firstFree)) firstFree++;
    expect(report.shifts[0]!.min).toBe(1);
    expect(firstFree).toBeGreaterThan(1);
    expect(Math.min(...report.stored.filter((o) => o.businessDay === today).map((o) => o.number)), report.text).toBe(firstFree);
  });

  function dayChecks(taken: LoadRecord[]): string[] {
    const days = [...new Set(taken.map((r) => r.businessDay!))].sort();
    if (days.length !== 2) return [`expected orders of two business days, got ${JSON.stringify(days)}`];
    const today = days[1]!;
    const problems: string[] = [];
    // No order of the new day before any clock reached it (50 ms: the load clients' clock
    // is the machine's, read through performance.now()).
    const early = taken.filter((r) => r.businessDay === today && r.end < turn - 50);
    if (early.length) problems.push(`${early.length} orders of ${today} answered before node A's clock reached the day start`);
    // Forward only: an order asked for after another was answered is of the same day or later.
    const byEnd = [...taken].sort((a, b) => a.end - b.end);
    const backwards: string[] = [];
    let i = 0;
    let latestDone = "";
    for (const r of [...taken].sort((a, b) => a.start - b.start)) {
      for (; i < byEnd.length && byEnd[i]!.end < r.start; i++) if (byEnd[i]!.businessDay! > latestDone) latestDone = byEnd[i]!.businessDay!;
      if (r.businessDay! < latestDone) backwards.push(`node ${r.node} #${r.number} of ${r.businessDay} asked +${Math.round(r.start - turn)} ms after the turn`);
    }
    if (backwards.length)
      problems.push(`${backwards.length} orders went back to yesterday after an order of ${today} was answered: ${backwards.slice(0, 5).join("; ")}`);
    // The case this scenario is about must have happened: node B, its clock still on
    // yesterday, took orders after the new day had begun.
    const firstToday = Math.min(...taken.filter((r) => r.businessDay === today).map((r) => r.end));
    const lagging = taken.filter((r) => r.node === 1 && r.start > firstToday && r.end < turn + LAG_MS - 100);
    if (lagging.length === 0) problems.push("node B took no order while its clock still said yesterday: the scenario did not test anything");
    else console.log(`  node B took ${lagging.length} orders while its clock still said yesterday, all numbered in ${today}`);
    return problems;
  }
});
