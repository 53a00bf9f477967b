/**
 * Scenario 5: a manager starts a new shift (POST /shifts with the manager key) in the
 * middle of a burst. Every order lands in exactly one shift — shift 1 or shift 2 — an
 * order finished before the reset was pressed is in shift 1, an order begun after the
 * reset was answered is in shift 2. The burst's orders stay open (the reset keeps them), so
 * the new shift's tickets start at 1 but skip every number shift 1 still shows (decision
 * 0027): shift 2 starts at the first number no order of shift 1 holds, no number is on two
 * open orders at once, and neither shift has a gap but numbers the other held open (a reset
 * is not a fault). The burst also orders into a series of 20 numbers that come round while
 * they are collected (tests/faults/burst.ts): it restarts at its first ticket in shift 2.
 */
import { describe, expect, it } from "vitest";
import { rigOnOneRedis, runFaultScenario } from "../support/fault-scenario";
import type { LoadRecord } from "../support/load-runner";
import { BURST, WRAPPING_SERIES } from "./burst";

interface ResetCall {
  start: number;
  end: number;
  status: number;
  body: { businessDay?: string; shift?: number; firstNumber?: number; created?: boolean } & Record<string, unknown>;
}

describe("a manager reset in the middle of a burst", () => {
  const setup = rigOnOneRedis("reset", { series: WRAPPING_SERIES });

  it("every order in exactly one shift; the new shift skips the numbers still open, and has no other gap", async () => {
    let reset: ResetCall | undefined;
    const report = await runFaultScenario({
      rig: setup.rig,
      name: "5. manager reset mid-burst",
      faults: 0,
      load: { ...BURST, durationMs: 10_000 },
      counterRedis: () => setup.redis,
      inject: async (ctx) => {
        await ctx.at(5_000);
        const start = Date.now();
        ctx.mark("reset pressed");
        const res = await fetch(`${setup.rig.apps[0]!.url}/api/v1/orgs/${setup.rig.tenant.slug}/shifts`, {
          method: "POST",
          headers: { authorization: `Bearer ${setup.rig.tenant.apiKeys.manager}`, "content-type": "application/json" },
          body: JSON.stringify({ reason: "fault test: reset mid-burst" }),
        });
        reset = { start, end: Date.now(), status: res.status, body: (await res.json()) as ResetCall["body"] };
        ctx.mark(`reset answered ${res.status} ${JSON.stringify(reset.body)}`);
      },
      extraChecks: (records: LoadRecord[]) => {
        const v: string[] = [];
        if (!reset) return ["the reset was never sent"];
        if (reset.status !== 201 || reset.body.shift !== 2 || reset.body.firstNumber !== 1 || reset.body.created !== true) {
          v.push(`reset answered ${reset.status} ${JSON.stringify(reset.body)}, expected 201 with shift 2, firstNumber 1, created true`);
        }
        const ok = records.filter((r) => r.status === 201);
        const days = new Set(ok.map((r) => r.businessDay));
        if (days.size !== 1) v.push(`orders span several business days: ${[...days].join(", ")}`);
        const bad = ok.filter((r) => r.shift !== 1 && r.shift !== 2);
        if (bad.length) v.push(`${bad.length} orders in neither shift 1 nor 2, e.g. ${JSON.stringify(bad[0])}`);
        const lateOld = ok.filter((r) => r.shift === 1 && r.start > reset!.end);
        if (lateOld.length) {
          v.push(
            `${lateOld.length} orders begun after the reset was answered got a number of the OLD shift 1, e.g. #${lateOld[0]!.number} begun ${Math.round(lateOld[0]!.start - reset.end)} ms after (node ${lateOld[0]!.node})`,
          );
        }
        const earlyNew = ok.filter((r) => r.shift === 2 && r.end < reset!.start);
        if (earlyNew.length) v.push(`${earlyNew.length} orders finished before the reset was pressed are in shift 2, e.g. #${earlyNew[0]!.number}`);
        if (!ok.some((r) => r.shift === 2)) v.push("no order landed in shift 2");
        if (!ok.some((r) => r.shift === 1)) v.push("no order landed in shift 1");
        return v;
      },
    });
    expect(report.violations, report.text).toEqual([]);
    // Every order of shift 1 in the default series is still open: shift 2's first number is
    // the first one none of them shows (never 1 again: the two "1"s on the board were the
    // bug), and every number of shift 2 below its highest is its own or one of shift 1's.
    const defaultSeries = report.stored.filter((o) => !o.seriesId);
    const [one, two] = [1, 2].map((n) => defaultSeries.filter((o) => o.shift === n));
    expect(one!.every((o) => o.open) && two!.every((o) => o.open), report.text).toBe(true);
    const shift1 = new Set(one!.map((o) => o.number));
    let firstFree = 1;
    while (shift1.has(firstFree)) firstFree++;
    expect(firstFree, report.text).toBeGreaterThan(1);
    expect(Math.min(...two!.map((o) => o.number)), report.text).toBe(firstFree);
    // The wrapping series restarted with the shift: shift 2 counts its tickets from 1 again,
    // every one below its highest stored or skipped because its number was still open.
    expect(report.shifts.map((s) => [s.shift, s.series, s.skipped])).toEqual([
      [1, "Default", 0],
      [1, WRAPPING_SERIES.name, 0],
      [2, "Default", 0],
      [2, WRAPPING_SERIES.name, 0],
    ]);
    expect(report.shifts[2]!.held, report.text).toBeGreaterThanOrEqual(firstFree - 1);
  });
});
