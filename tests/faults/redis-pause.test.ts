/**
 * Scenario 2: Redis paused (SIGSTOP) for 3 s mid-burst, then resumed (SIGCONT). Its
 * sockets stay open but nothing answers; when it resumes it still holds its old counter
 * (and executes whatever was queued on its sockets meanwhile). Numbers come from
 * PostgreSQL while it is paused, health says so, and issuing moves back to Redis without
 * a collision afterwards.
 */
import { describe, expect, it } from "vitest";
import { rigOnOneRedis, runFaultScenario } from "../support/fault-scenario";
import { sleep } from "../support/redis-process";
import { BURST, WRAPPING_SERIES } from "./burst";

describe("fault: Redis paused (SIGSTOP) for 3 s mid-burst", () => {
  const setup = rigOnOneRedis("pause", { series: WRAPPING_SERIES });

  it("no duplicate, ≥ 99.5 % taken, all stored, ≤ 50 skipped; health says 'database' while paused", async () => {
    const report = await runFaultScenario({
      rig: setup.rig,
      name: "2. SIGSTOP Redis 3 s",
      faults: 1,
      load: { ...BURST, durationMs: 12_000 },
      counterRedis: () => setup.redis,
      inject: async (ctx) => {
        await ctx.at(4_000);
        setup.redis.pause();
        const pausedAt = Date.now();
        ctx.mark("redis SIGSTOP");
        await sleep(3_000);
        setup.redis.resume();
        ctx.mark("redis SIGCONT");
        ctx.expectDatabaseCounter(0, pausedAt + 1_000, Date.now(), "the pause");
      },
    });
    expect(report.violations, report.text).toEqual([]);
  });
});
