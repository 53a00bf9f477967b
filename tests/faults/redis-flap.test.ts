/**
 * Scenario 4: Redis flaps — 5 cycles of kill -9, 1 s down, restart empty, 1 s up — during
 * one burst. Each cycle is a fault of its own: at most 5 × 50 numbers skipped per shift.
 */
import { describe, expect, it } from "vitest";
import { rigOnOneRedis, runFaultScenario } from "../support/fault-scenario";
import { sleep } from "../support/redis-process";
import { BURST, WRAPPING_SERIES } from "./burst";

const CYCLES = 5;

describe(`fault: Redis flapping (${CYCLES} × 1 s down / 1 s up)`, () => {
  const setup = rigOnOneRedis("flap", { series: WRAPPING_SERIES });

  it(`no duplicate, ≥ 99.5 % taken, all stored, ≤ ${CYCLES} × 50 skipped`, async () => {
    const report = await runFaultScenario({
      rig: setup.rig,
      name: `4. Redis flapping ${CYCLES} × (1 s down, 1 s up)`,
      faults: CYCLES,
      load: { ...BURST, durationMs: 16_000 },
      counterRedis: () => setup.redis,
      inject: async (ctx) => {
        await ctx.at(3_000);
        for (let i = 1; i <= CYCLES; i++) {
          await setup.redis.kill9();
          ctx.mark(`flap ${i}: down`);
          await sleep(1_000);
          await setup.redis.start();
          ctx.mark(`flap ${i}: up (empty)`);
          await sleep(1_000);
        }
      },
    });
    expect(report.violations, report.text).toEqual([]);
  });
});
