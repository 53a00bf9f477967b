/**
 * The Redis counter's batching (RedisCounter + issue-numbers-n.lua) on a real Redis: the
 * calls of one turn of the event loop share one script call, a tenant's callers get its
 * numbers in order, a batch can run across blocks or past them, and the fast path's hint
 * can be stale (another node moved on, Redis lost the counter) without a number repeating.
 */
import { afterAll, describe, expect, inject, it } from "vitest";
import { Redis } from "ioredis";
import { RedisCounter } from "@/lib/adapters/redis/counter.server";
import { defineScripts } from "@/lib/adapters/redis/scripts.server";
import { testKeyPrefix } from "../support/app-server";
import type { Block, FastIssue } from "@/lib/core/ports";

const redisUrl = inject("redisUrl");
const prefix = testKeyPrefix("batching");
const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} } as never;
// Today (UTC) and an expiry days ahead, both from the real clock: Redis compares the expiry with its own.
const DAY = new Date().toISOString().slice(0, 10);
const EXPIRE = Date.now() + 3 * 86_400_000;

function node(): { redis: Redis; counter: RedisCounter; scriptCalls: () => number } {
  // Without auto-pipelining (which would route the counting wrapper below back into
  // itself); the batching under test happens before any command is written.
  const redis = new Redis(redisUrl, { enableAutoPipelining: false });
  defineScripts(redis);
  let calls = 0;
  const issueNumbers = redis.issueNumbers.bind(redis);
  // Counts the script calls; the calls themselves go to Redis unchanged.
  redis.issueNumbers = (...args: Parameters<typeof issueNumbers>) => {
    calls++;
    return issueNumbers(...args);
  };
  // A generous breaker, as in core-harness: a hiccup of a loaded machine is not the subject here.
  const counter = new RedisCounter(redis, prefix, silent, { timeoutMs: 3_000, resetMs: 1_000 });
  return { redis, counter, scriptCalls: () => calls };
}

const block = (lo: number, hi: number, shift = 1): Block => ({ businessDay: DAY, shift, lo, hi });
const ask = (counter: RedisCounter, tenantId: string, n: number): Promise<FastIssue[]> =>
  Promise.all(Array.from({ length: n }, () => counter.next(tenantId, DAY, Date.now(), EXPIRE)));
const numbersOf = (rs: FastIssue[]) => rs.flatMap((r) => (r.kind === "issued" ? [r.issued.number] : []));
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe("the Redis counter's batches", () => {
  const a = node();
  const b = node();
  afterAll(() => {
    a.counter.shutdown();
    b.counter.shutdown();
    a.redis.disconnect();
    b.redis.disconnect();
  });

  it("issues the calls of one turn of the event loop in one script call, each tenant's callers in order", async () => {
    const tenants = ["t-one", "t-two", "t-three"];
    for (const t of tenants) expect(await a.counter.restore(t, block(0, 40), EXPIRE)).toBe(true);
    const before = a.scriptCalls();
    const results = await Promise.all(tenants.map((t) => ask(a.counter, t, 31)));
    expect(a.scriptCalls() - before).toBe(1);
    for (const rs of results) {
      expect(numbersOf(rs)).toEqual(range(1, 31));
      // 9 of 40 left, fewer than the low-water mark of 10: the caller of number 31 reserves.
      expect(rs.map((r) => r.kind === "issued" && r.refill)).toEqual(range(1, 31).map((n) => n === 31));
    }
  });

  it("runs from the current block into the one in reserve within one batch", async () => {
    const t = "t-across";
    await a.counter.restore(t, block(0, 40), EXPIRE);
    expect(await a.counter.addBlock(t, block(40, 80), EXPIRE)).toBe(true);
    const first = await ask(a.counter, t, 50);
    expect(numbersOf(first)).toEqual(range(1, 50));
    expect(first.some((r) => r.kind === "issued" && r.refill)).toBe(false); // 30 left, no block in reserve asked for yet
    // Now through the fast path (the node knows the block): 25 more leave 5, below the mark.
    const second = await ask(a.counter, t, 25);
    expect(numbersOf(second)).toEqual(range(51, 75));
    expect(second.map((r) => r.kind === "issued" && r.refill)).toEqual(range(51, 75).map((n) => n === 75));
  });

  it("a batch larger than what is left: the rest are told to wait, and exactly one of them reserves", async () => {
    const t = "t-short";
    await a.counter.restore(t, block(0, 40), EXPIRE);
    const rs = await ask(a.counter, t, 45);
    expect(numbersOf(rs)).toEqual(range(1, 40));
    const rest = rs.slice(40);
    expect(rest.every((r) => r.kind === "empty" && r.businessDay === DAY && r.shift === 1)).toBe(true);
    expect(rest.map((r) => r.kind === "empty" && r.lease)).toEqual([true, false, false, false, false]);
    // The block that arrives continues the numbering.
    expect(await a.counter.addBlock(t, block(40, 80), EXPIRE)).toBe(true);
    expect(numbersOf(await ask(a.counter, t, 3))).toEqual([41, 42, 43]);
  });

  it("two nodes taking turns (each one's hint goes stale) never repeat a number and leave no gap", async () => {
    const t = "t-two-nodes";
    await a.counter.restore(t, block(0, 40), EXPIRE);
    let ceiling = 40;
    const issued: number[] = [];
    for (let round = 0; round < 40; round++) {
      const n = 1 + ((round * 7) % 13);
      const rs = await ask(round % 2 === 0 ? a.counter : b.counter, t, n);
      issued.push(...numbersOf(rs));
      // Play the issuer: whoever is asked to reserve installs the next block.
      if (rs.some((r) => (r.kind === "issued" && r.refill) || (r.kind === "empty" && r.lease))) {
        expect(await b.counter.addBlock(t, block(ceiling, ceiling + 40), EXPIRE)).toBe(true);
        ceiling += 40;
      }
      const missed = rs.filter((r) => r.kind !== "issued").length;
      if (missed) issued.push(...numbersOf(await ask(a.counter, t, missed)));
    }
    expect(issued).toEqual(range(1, issued.length));
  });

  it("a hint for a counter Redis has lost answers 'missing' once, and leaves no stray block behind", async () => {
    const t = "t-lost";
    await a.counter.restore(t, block(0, 40), EXPIRE);
    expect(numbersOf(await ask(a.counter, t, 2))).toEqual([1, 2]); // the node now holds a hint
    await a.redis.del(a.counter.key(t)); // Redis restarted empty
    const rs = await ask(a.counter, t, 3);
    expect(rs).toEqual([
      { kind: "missing", lease: true },
      { kind: "missing", lease: false },
      { kind: "missing", lease: false },
    ]);
    const fields = Object.keys(await a.redis.hgetall(a.counter.key(t)));
    expect(fields).toEqual(["lease"]); // only the restorer's lease, which expires on its own
  });

  it("a burned block is never issued from again, whatever the hint says", async () => {
    const t = "t-burned";
    await a.counter.restore(t, block(0, 40), EXPIRE);
    expect(numbersOf(await ask(a.counter, t, 5))).toEqual(range(1, 5));
    await a.counter.burn(t, { businessDay: DAY, shift: 1, number: 5 }, 5);
    const rs = await ask(a.counter, t, 2);
    expect(rs.map((r) => r.kind)).toEqual(["empty", "empty"]);
    expect(await a.counter.addBlock(t, block(40, 80), EXPIRE)).toBe(true);
    expect(numbersOf(await ask(a.counter, t, 2))).toEqual([41, 42]);
  });

  it("a burn keeps a block in reserve above every stored number, and drops one below", async () => {
    // A promoted replica: its current block (0, 40] is stale; the master had stored up to 75.
    const fresh = "t-burn-fresh";
    await a.counter.restore(fresh, block(0, 40), EXPIRE);
    expect(numbersOf(await ask(a.counter, fresh, 1))).toEqual([1]);
    expect(await a.counter.addBlock(fresh, block(80, 120), EXPIRE)).toBe(true); // a refill after the failover
    await a.counter.burn(fresh, { businessDay: DAY, shift: 1, number: 1 }, 75);
    expect(numbersOf(await ask(a.counter, fresh, 2))).toEqual([81, 82]);

    const stale = "t-burn-stale";
    await a.counter.restore(stale, block(0, 40), EXPIRE);
    expect(numbersOf(await ask(a.counter, stale, 1))).toEqual([1]);
    expect(await a.counter.addBlock(stale, block(40, 80), EXPIRE)).toBe(true); // the replica's own, stale reserve
    await a.counter.burn(stale, { businessDay: DAY, shift: 1, number: 1 }, 75);
    expect((await ask(a.counter, stale, 1)).map((r) => r.kind)).toEqual(["empty"]);
  });

  it("a burn leaves a live refill lease alone: the block its holder brings is the next one", async () => {
    const t = "t-burn-lease";
    await a.counter.restore(t, block(0, 40), EXPIRE);
    // 31 numbers cross the low-water mark: the last caller holds the lease to refill.
    const first = await ask(a.counter, t, 31);
    expect(first.filter((r) => r.kind === "issued" && r.refill)).toHaveLength(1);
    await a.counter.burn(t, { businessDay: DAY, shift: 1, number: 31 }, 31);
    // Nobody else may reserve a second block while the holder is at work…
    expect(await ask(a.counter, t, 2)).toEqual([
      // `reached`: the end of the block used up, the floor of the next reservation (decision 0028).
      { kind: "empty", businessDay: DAY, shift: 1, lease: false, reached: 40 },
      { kind: "empty", businessDay: DAY, shift: 1, lease: false, reached: 40 },
    ]);
    // …and the holder's block is the next one issued from.
    expect(await a.counter.addBlock(t, block(40, 80), EXPIRE)).toBe(true);
    expect(numbersOf(await ask(a.counter, t, 1))).toEqual([41]);
  });

  it("the hash holds each fact once: no copy of the block's name, no spent lease (bytes per tenant-day)", async () => {
    const t = "t-layout";
    const fields = async () => Object.keys(await a.redis.hgetall(a.counter.key(t))).sort();
    await a.counter.restore(t, block(0, 40), EXPIRE);
    expect(await fields()).toEqual([`${DAY}:1:0:40`, "day", "lo", "max", "shift"]);
    const crossed = await ask(a.counter, t, 31); // crosses the low-water mark: a lease is taken
    expect(crossed.filter((r) => r.kind === "issued" && r.refill)).toHaveLength(1);
    expect(await fields()).toContain("lease");
    expect(await a.counter.addBlock(t, block(40, 80), EXPIRE)).toBe(true); // in reserve; the lease is done
    expect(await fields()).toEqual([`${DAY}:1:0:40`, "day", "lo", "max", "nhi", "nlo", "shift"]);
    expect(numbersOf(await ask(a.counter, t, 10))).toEqual(range(32, 41)); // runs into the reserve
    expect(await fields()).toEqual([`${DAY}:1:40:80`, "day", "lo", "max", "shift"]);
  });

  it("a block reserved later replaces a lower block in reserve; a lower or equal one is refused", async () => {
    const t = "t-reserve-order";
    await a.counter.restore(t, block(0, 40), EXPIRE);
    expect(await a.counter.addBlock(t, block(40, 80), EXPIRE)).toBe(true); // in reserve
    expect(await a.counter.addBlock(t, block(120, 160), EXPIRE)).toBe(true); // replaces it
    expect(await a.counter.addBlock(t, block(80, 120), EXPIRE)).toBe(false); // below the reserve
    expect(await a.counter.addBlock(t, block(120, 160), EXPIRE)).toBe(false); // the same block twice
    expect(numbersOf(await ask(a.counter, t, 41))).toEqual([...range(1, 40), 121]);
  });
});
