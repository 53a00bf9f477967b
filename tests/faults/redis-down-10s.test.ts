/**
 * Scenario 3: Redis stopped (SHUTDOWN NOSAVE) for 10 s mid-burst, then started again
 * EMPTY. The cashiers keep taking orders from PostgreSQL the whole time (health reports
 * counter "database"), and numbering moves back to Redis without a collision.
 */
import { describe, expect, it } from "vitest";
import { rigOnOneRedis, runFaultScenario } from "../support/fault-scenario";
import { sleep } from "../support/redis-process";
import { BURST, WRAPPING_SERIES } from "./burst";

describe("fault: Redis down for 10 s mid-burst, back empty", () => {
  const setup = rigOnOneRedis("down10", { series: WRAPPING_SERIES });

  it("no duplicate, ≥ 99.5 % taken, all stored, ≤ 50 skipped; health says 'database' while down", async () => {
    const report = await runFaultScenario({
      rig: setup.rig,
      name: "3. Redis stopped 10 s, restarted empty",
      faults: 1,
      load: { ...BURST, durationMs: 17_000 },
      counterRedis: () => setup.redis,
      inject: async (ctx) => {
        await ctx.at(3_000);
        await setup.redis.stop();
        const downAt = Date.now();
        ctx.mark("redis stopped (SHUTDOWN NOSAVE)");
        await sleep(10_000);
        ctx.expectDatabaseCounter(0, downAt + 1_500, Date.now(), "the 10 s outage");
        await setup.redis.start();
        ctx.mark("redis started empty");
      },
    });
    expect(report.violations, report.text).toEqual([]);
  });
});
