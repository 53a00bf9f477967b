/**
 * Scenario 7: two app nodes on the same PostgreSQL and the same Redis key prefix, each
 * through its own proxy to the same Redis. For 6 s node B is partitioned from Redis
 * (its proxy stalls) while node A still reaches it: A issues from Redis, B from
 * PostgreSQL, at the same time, for the same restaurant. Their numbers must never
 * collide; B reports counter "database" meanwhile and returns to Redis afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRig, runFaultScenario, type Rig } from "../support/fault-scenario";
import { RedisProcess, sleep } from "../support/redis-process";
import { TcpProxy } from "../support/tcp-proxy";
import { BURST, WRAPPING_SERIES } from "./burst";

describe("fault: two app nodes, only one of which sees Redis", () => {
  let redis: RedisProcess;
  let proxyA: TcpProxy;
  let proxyB: TcpProxy;
  let rig: Rig;

  beforeAll(async () => {
    redis = await RedisProcess.launch({ label: "redis" });
    proxyA = await TcpProxy.start(redis.port, { label: "proxy A" });
    proxyB = await TcpProxy.start(redis.port, { label: "proxy B" });
    rig = await createRig({ label: "split", redisUrls: [proxyA.url, proxyB.url], series: WRAPPING_SERIES });
    rig.onClose(() => redis.cleanup());
    rig.onClose(() => proxyA.close());
    rig.onClose(() => proxyB.close());
  });
  afterAll(async () => {
    if (rig) await rig.close();
    else await Promise.all([proxyA?.close(), proxyB?.close(), redis?.cleanup()]);
  });

  it("numbers of both nodes never collide; ≥ 99.5 % taken, all stored, ≤ 50 skipped", async () => {
    const report = await runFaultScenario({
      rig,
      name: "7. two nodes, node B cut off from Redis 6 s",
      faults: 1,
      // Cashier w of each process uses node w mod 2: half the load on each node.
      load: { ...BURST, durationMs: 14_000 },
      counterRedis: () => redis,
      inject: async (ctx) => {
        await ctx.at(4_000);
        proxyB.blackhole(true);
        const from = Date.now();
        ctx.mark("node B partitioned from Redis");
        await sleep(6_000);
        ctx.expectDatabaseCounter(1, from + 1_000, Date.now(), "node B's partition");
        proxyB.blackhole(false);
        ctx.mark("node B healed");
      },
      extraChecks: (records) => {
        const taken = (node: number) => records.filter((r) => r.status === 201 && r.node === node).length;
        return taken(0) && taken(1) ? [] : [`a node took no order at all (node A: ${taken(0)}, node B: ${taken(1)})`];
      },
    });
    expect(report.violations, report.text).toEqual([]);
  });
});
