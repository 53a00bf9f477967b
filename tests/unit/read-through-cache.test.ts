import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ReadThroughCache } from "@/lib/core/read-through-cache";

describe("the read-through cache", () => {
  beforeEach(() => vi.useFakeTimers({ now: 0 }));
  afterEach(() => vi.useRealTimers());

  const counting = (ttl: (v: string) => number, max?: number) => {
    const loads: string[] = [];
    const cache = new ReadThroughCache<string, string>(
      async (k) => {
        loads.push(k);
        return `${k}@${Date.now()}`;
      },
      ttl,
      max,
    );
    return { cache, loads };
  };

  it("answers from memory within the TTL and loads again after it", async () => {
    const { cache, loads } = counting(() => 1_000);
    expect(await cache.get("a")).toBe("a@0");
    vi.setSystemTime(999);
    expect(await cache.get("a")).toBe("a@0");
    vi.setSystemTime(1_000);
    expect(await cache.get("a")).toBe("a@1000");
    expect(loads).toEqual(["a", "a"]);
  });

  it("asks the TTL of each value at each hit (a value may be trusted forever, or less while the bus is down)", async () => {
    let ttl = 10_000;
    const { cache, loads } = counting((v) => (v.startsWith("forever") ? Infinity : ttl));
    await cache.get("forever");
    await cache.get("b");
    ttl = 1_000;
    vi.setSystemTime(5_000);
    await cache.get("forever");
    await cache.get("b");
    expect(loads).toEqual(["forever", "b", "b"]);
  });

  it("forgets one key or all; a load that started before a forget is answered but not kept", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let n = 0;
    const cache = new ReadThroughCache<string, number>(
      async () => {
        const mine = ++n;
        if (mine === 1) await gate;
        return mine;
      },
      () => 60_000,
    );
    const slow = cache.get("k");
    cache.forget("k");
    release();
    expect(await slow).toBe(1);
    expect(await cache.get("k")).toBe(2); // the first load was not kept
    expect(await cache.get("k")).toBe(2);
    cache.clear();
    expect(await cache.get("k")).toBe(3);
  });

  it("starts over beyond its size: made-up keys cannot grow memory", async () => {
    const { cache, loads } = counting(() => 60_000, 2);
    await cache.get("a");
    await cache.get("b");
    await cache.get("c"); // full: starts over with c
    await cache.get("c");
    await cache.get("a");
    expect(loads).toEqual(["a", "b", "c", "a"]);
  });
});
