/**
 * The invalidation bus on the real Redis: messages reach every subscriber, and when a
 * subscriber's connection drops it stops vouching for its caches (subscribed() false,
 * so caches hold entries for at most 1 s) and clears them once it is subscribed again.
 */
import { afterAll, describe, expect, inject, it } from "vitest";
import { InvalidationBus } from "@/lib/adapters/redis/invalidation-bus.server";
import { createRedis } from "@/lib/server/wiring/redis-clients.server";
import { TenantDirectory } from "@/lib/server/caches/tenant-directory.server";
import { ttlWhileSubscribed, UNSUBSCRIBED_TTL_MS } from "@/lib/server/caches/invalidation.server";
import type { Tenant } from "@/lib/core/tenants";
import { testKeyPrefix } from "../support/app-server";

const redisUrl = inject("redisUrl");
const silent = { warn() {}, info() {}, error() {}, debug() {} } as never;

/** Waits for `check`; `maxMs` only stops a hung test. */
async function until(check: () => boolean, maxMs = 60_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > maxMs) throw new Error(`not within ${maxMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("the invalidation bus", () => {
  const prefix = testKeyPrefix("bus");
  const pub = createRedis(redisUrl, silent, "bus-pub");
  const subs = [createRedis(redisUrl, silent, "bus-sub-a"), createRedis(redisUrl, silent, "bus-sub-b")];
  const buses = subs.map((s) => new InvalidationBus(s, pub, prefix, silent));
  afterAll(async () => {
    await Promise.allSettled([...buses.map((b) => b.close()), pub.quit()]);
  });

  it("delivers a message to every node, and to no node of another prefix", async () => {
    const other = new InvalidationBus(createRedis(redisUrl, silent, "bus-other"), pub, testKeyPrefix("bus-other"), silent);
    await until(() => buses.every((b) => b.subscribed()) && other.subscribed());
    const got: string[][] = [[], [], []];
    buses.forEach((b, i) => b.onMessage((m) => got[i]!.push(m)));
    other.onMessage((m) => got[2]!.push(m));
    await buses[0]!.publish("tenant:alpha");
    await until(() => got[0]!.length === 1 && got[1]!.length === 1);
    expect(got).toEqual([["tenant:alpha"], ["tenant:alpha"], []]);
    // A node that is not subscribed trusts its caches for 1 s at most.
    expect(ttlWhileSubscribed(other, 60_000)()).toBe(60_000);
    await other.close();
    expect(other.subscribed()).toBe(false);
    expect(ttlWhileSubscribed(other, 60_000)()).toBe(UNSUBSCRIBED_TTL_MS);
  });

  it("after its connection is cut, a node shortens its caches' TTL and clears them when subscribed again", async () => {
    const bus = buses[1]!;
    let loads = 0;
    const tenant = { slug: "alpha" } as Tenant;
    const dir = new TenantDirectory(
      async () => {
        loads++;
        return tenant;
      },
      ttlWhileSubscribed(bus, 60_000),
    );
    let resets = 0;
    bus.onReset(() => {
      resets++;
      dir.clear();
    });
    await dir.find("alpha");
    await dir.find("alpha");
    expect(loads).toBe(1);

    // Cut the subscriber's connection from the server side, as a failover or a network cut would.
    const killer = createRedis(redisUrl, silent, "bus-killer");
    try {
      // A subscriber connection cannot run CLIENT ID: find it by its name.
      const list = (await killer.client("LIST")) as string;
      const line = list.split("\n").find((l) => l.includes("name=nextup-bus-sub-b"));
      expect(line).toBeDefined();
      await killer.client("KILL", "ID", /id=(\d+)/.exec(line!)![1]!);
    } finally {
      await killer.quit();
    }
    await until(() => bus.subscribed() && resets > 0);
    // The reset cleared the cache: the next lookup reads again.
    await dir.find("alpha");
    expect(loads).toBe(2);
    // And it still receives messages.
    const got: string[] = [];
    bus.onMessage((m) => got.push(m));
    await buses[0]!.publish("keys");
    await until(() => got.includes("keys"));
  });
});
