/**
 * Control: the same burst as every fault scenario, with no fault. Every check of the
 * fault scenarios holds, and no number is skipped at all.
 */
import { describe, expect, it } from "vitest";
import { rigOnOneRedis, runFaultScenario } from "../support/fault-scenario";
import { BURST, WRAPPING_SERIES } from "./burst";

describe("control: a burst of orders from 3 client processes, no fault", () => {
  const setup = rigOnOneRedis("control", { series: WRAPPING_SERIES });

  it("every order taken, stored, numbered 1..n without a duplicate or a gap", async () => {
    const report = await runFaultScenario({
      rig: setup.rig,
      name: "control (no fault)",
      faults: 0,
      load: { ...BURST, durationMs: 10_000 },
      counterRedis: () => setup.redis,
      expectRedisThroughout: true,
      inject: async () => {},
    });
    expect(report.violations, report.text).toEqual([]);
    // Neither the default series' numbers nor the wrapping series' tickets skip anything.
    expect(report.shifts.map((s) => [s.series, s.skipped])).toEqual([
      ["Default", 0],
      [WRAPPING_SERIES.name, 0],
    ]);
  });
});
