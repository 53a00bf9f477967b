/**
 * Scenario 1: kill -9 Redis in the middle of a burst from 3 client processes, restart it
 * EMPTY on the same port a second later. The counter is gone: numbering must continue
 * without a duplicate, the cashiers keep taking orders (from PostgreSQL while Redis is
 * away), and at most 50 numbers are skipped.
 */
import { describe, expect, it } from "vitest";
import { rigOnOneRedis, runFaultScenario } from "../support/fault-scenario";
import { sleep } from "../support/redis-process";
import { BURST, WRAPPING_SERIES } from "./burst";

describe("fault: Redis killed (-9) mid-burst and restarted empty", () => {
  const setup = rigOnOneRedis("kill9", { series: WRAPPING_SERIES });

  it("no duplicate, ≥ 99.5 % taken, all stored, ≤ 50 skipped", async () => {
    const report = await runFaultScenario({
      rig: setup.rig,
      name: "1. kill -9 Redis mid-burst, restart empty",
      faults: 1,
      load: { ...BURST, durationMs: 12_000 },
      counterRedis: () => setup.redis,
      inject: async (ctx) => {
        await ctx.at(4_000);
        await setup.redis.kill9();
        ctx.mark("redis killed -9");
        await sleep(1_000);
        await setup.redis.start();
        ctx.mark("redis restarted empty");
        expect(await setup.redis.command("DBSIZE")).toBe(0);
      },
    });
    expect(report.violations, report.text).toEqual([]);
  });
});
