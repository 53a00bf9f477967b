/**
 * Scenario 6b: a network partition between the app and Redis for 4 s (a TCP proxy that
 * stops forwarding without closing anything: connections stall, new ones hang), then
 * healed — what was sent meanwhile is delivered late, as TCP would. Redis itself never
 * stops: the app comes back to its old, stale counter while PostgreSQL issued numbers
 * in between. No duplicate, no collision, ≤ 50 skipped, health says "database" meanwhile.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRig, runFaultScenario, type Rig } from "../support/fault-scenario";
import { RedisProcess, sleep } from "../support/redis-process";
import { TcpProxy } from "../support/tcp-proxy";
import { BURST, WRAPPING_SERIES } from "./burst";

describe("fault: network partition between the app and Redis for 4 s", () => {
  let redis: RedisProcess;
  let proxy: TcpProxy;
  let rig: Rig;

  beforeAll(async () => {
    redis = await RedisProcess.launch({ label: "redis" });
    proxy = await TcpProxy.start(redis.port, { label: "proxy" });
    rig = await createRig({ label: "partition", redisUrls: [proxy.url], series: WRAPPING_SERIES });
    rig.onClose(() => redis.cleanup());
    rig.onClose(() => proxy.close());
  });
  afterAll(async () => {
    if (rig) await rig.close();
    else await Promise.all([proxy?.close(), redis?.cleanup()]);
  });

  it("no duplicate, ≥ 99.5 % taken, all stored, ≤ 50 skipped; health says 'database' while partitioned", async () => {
    const report = await runFaultScenario({
      rig,
      name: "6b. partition app↔Redis 4 s (stall, then heal)",
      faults: 1,
      load: { ...BURST, durationMs: 12_000 },
      counterRedis: () => redis,
      inject: async (ctx) => {
        await ctx.at(4_000);
        proxy.blackhole(true);
        const from = Date.now();
        ctx.mark(`partition (${proxy.connectionCount()} connections stalled)`);
        await sleep(4_000);
        ctx.expectDatabaseCounter(0, from + 1_000, Date.now(), "the partition");
        proxy.blackhole(false);
        ctx.mark("healed");
      },
    });
    expect(report.violations, report.text).toEqual([]);
  });
});
