/**
 * Scenario 5: a manager starts a new shift (POST /shifts with the manager key) in the
 * middle of a burst. Every order lands in exactly one shift — shift 1 or shift 2 — an
 * order finished before the reset was pressed is in shift 1, an order begun after the
 * reset was answered is in shift 2, and the new shift starts at 1 with no gap (nor does
 * the old one have any: a reset is not a fault).
 */
import { describe, expect, it } from "vitest";
import { rigOnOneRedis, runFaultScenario } from "../support/fault-scenario";
import type { LoadRecord } from "../support/load-runner";
import { BURST } from "./burst";

interface ResetCall {
  start: number;
  end: number;
  status: number;
  body: { businessDay?: string; shift?: number; firstNumber?: number; created?: boolean } & Record<string, unknown>;
}

describe("a manager reset in the middle of a burst", () => {
  const setup = rigOnOneRedis("reset");

  it("every order in exactly one shift; the new shift starts at 1 with no gap", async () => {
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
        const shift2 = ok.filter((r) => r.shift === 2).map((r) => r.number!);
        if (!shift2.length) v.push("no order landed in shift 2");
        else if (Math.min(...shift2) !== 1) v.push(`shift 2 starts at ${Math.min(...shift2)}, not 1`);
        if (!ok.some((r) => r.shift === 1)) v.push("no order landed in shift 1");
        return v;
      },
    });
    expect(report.violations, report.text).toEqual([]);
    expect(report.shifts.map((s) => [s.shift, s.skipped])).toEqual([
      [1, 0],
      [2, 0],
    ]);
  });
});
