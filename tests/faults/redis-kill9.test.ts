/**
 * Scenario 1: kill -9 Redis in the middle of a burst from 3 client processes, restart it
 * EMPTY on the same port a second later. The counter is gone: numbering must continue
 * without a duplicate, the cashiers keep taking orders (from PostgreSQL while Redis is
 * away), and at most 50 numbers are skipped.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRig, runFaultScenario, type Rig } from "../support/fault-scenario";
import { RedisProcess, sleep } from "../support/redis-process";
import { BURST } from "./burst";

describe("fault: Redis killed (-9) mid-burst and restarted empty", () => {
  let redis: RedisProcess;
  let rig: Rig;

  beforeAll(async () => {
    redis = await RedisProcess.launch({ label: "redis" });
    rig = await createRig({ label: "kill9", redisUrls: [redis.url] });
    rig.onClose(() => redis.cleanup());
  });
  afterAll(async () => {
    await (rig ? rig.close() : redis?.cleanup());
  });

  it("no duplicate, ≥ 99.5 % taken, all stored, ≤ 50 skipped", async () => {
    const report = await runFaultScenario({
      rig,
      name: "1. kill -9 Redis mid-burst, restart empty",
      faults: 1,
      load: { ...BURST, durationMs: 12_000 },
      counterRedis: () => redis,
      inject: async (ctx) => {
        await ctx.at(4_000);
        await redis.kill9();
        ctx.mark("redis killed -9");
        await sleep(1_000);
        await redis.start();
        ctx.mark("redis restarted empty");
        expect(await redis.command("DBSIZE")).toBe(0);
      },
    });
    expect(report.violations, report.text).toEqual([]);
  });
});
