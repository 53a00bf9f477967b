/**
 * Control: the same burst as every fault scenario, with no fault. Every check of the
 * fault scenarios holds, and no number is skipped at all.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRig, runFaultScenario, type Rig } from "../support/fault-scenario";
import { RedisProcess } from "../support/redis-process";
import { BURST } from "./burst";

describe("control: a burst of orders from 3 client processes, no fault", () => {
  let redis: RedisProcess;
  let rig: Rig;

  beforeAll(async () => {
    redis = await RedisProcess.launch({ label: "redis" });
    rig = await createRig({ label: "control", redisUrls: [redis.url] });
    rig.onClose(() => redis.cleanup());
  });
  afterAll(async () => {
    await (rig ? rig.close() : redis?.cleanup());
  });

  it("every order taken, stored, numbered 1..n without a duplicate or a gap", async () => {
    const report = await runFaultScenario({
      rig,
      name: "control (no fault)",
      faults: 0,
      load: { ...BURST, durationMs: 10_000 },
      counterRedis: () => redis,
      expectRedisThroughout: true,
      inject: async () => {},
    });
    expect(report.violations, report.text).toEqual([]);
    expect(report.shifts.map((s) => s.skipped)).toEqual([0]);
  });
});
