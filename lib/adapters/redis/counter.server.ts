/**
 * The Redis side of the counter: the core's FastCounter over the Lua scripts, behind a
 * circuit breaker (opossum).
 *
 * Numbers are asked for in batches: every `next` call made while the event loop is busy is
 * queued, and once per turn of the loop one script call (issue-numbers-n.lua) issues them
 * all, for every tenant at once on a single Redis, or one call per tenant on a Cluster
 * (a script's keys must share a slot). A lone cashier's call goes out on the next turn,
 * as fast as before; under load one round trip serves hundreds of callers (how close that
 * comes to raw INCR: docs/performance.md). Each tenant's script part starts with one
 * HINCRBY on the block field Redis named last (the hint kept here; docs/decisions/0007).
 *
 * The breaker is what makes a cashier never wait on a sick Redis: a call that takes longer
 * than `timeoutMs` fails (the issuer then takes the number from PostgreSQL); when half the
 * recent calls failed the breaker opens and every call fails at once, without touching
 * Redis, until it lets one probe through after `resetMs`.
 */
import type { Cluster, Redis } from "ioredis";
import DataLoader from "dataloader";
import CircuitBreaker from "opossum";
import { LOW_WATER, REFILL_LEASE_MS } from "@/lib/core/numbering";
import { type Logger, CounterUnavailableError, type Block, type CounterId, type FastCounter, type FastIssue, type IssuedNumber } from "@/lib/core/ports";
import type { IssueNumbersReply } from "./scripts.server";
import { Flag, IssueReply } from "./lua/reply-codes";

/** All keys of a tenant share the hash tag `{t:<id>}`, so they live in one Cluster slot. */
export function tenantKey(prefix: string, tenantId: string, name: string): string {
  return `${prefix}{t:${tenantId}}:${name}`;
}

/**
 * A tenant's counter hash (layout: lua/issue-numbers-n.lua). Each layout has its own name
 * (`counter`, then `blocks`, now `n`: decisions 0007, 0019): nodes of an older version,
 * still running during a rolling upgrade, keep their own hash, and both draw disjoint
 * blocks from the same PostgreSQL ceilings, so their numbers never collide.
 */
export function counterKey(prefix: string, tenantId: string): string {
  return tenantKey(prefix, tenantId, "n");
}

/** A series' ticket counter (decision 0027): the same layout, beside the tenant's default one in its slot. */
export function seriesCounterKey(prefix: string, tenantId: string, seriesId: string): string {
  return tenantKey(prefix, tenantId, `n:${seriesId}`);
}

export interface BreakerOptions {
  /** A Redis call slower than this counts as failed and falls back (ms). */
  timeoutMs: number;
  /** How long the breaker stays open before one probe (ms). */
  resetMs: number;
}

export const DEFAULT_BREAKER: BreakerOptions = { timeoutMs: 300, resetMs: 1_000 };

type Call = () => Promise<unknown>;

/** Most keys in one script call: keeps each call (which blocks Redis while it runs) short. */
export const MAX_KEYS_PER_CALL = 256;

/** One `next` call, waiting for the batch it joined. */
interface NextRequest {
  key: string;
  today: string;
  nowMs: number;
  expireAtMs: number;
}

export class RedisCounter implements FastCounter {
  private readonly breaker: CircuitBreaker<[Call], unknown>;
  /** Gathers the `next` calls of one turn of the event loop into one batch. */
  private readonly batches: DataLoader<NextRequest, FastIssue>;
  /**
   * Per counter key, the block field Redis named last: the script's fast path tries it
   * first (a hint only; Redis checks it). One short string per tenant.
   */
  private readonly hints = new Map<string, BlockHint>();

  constructor(
    private readonly redis: Redis | Cluster,
    private readonly prefix: string,
    log: Logger,
    opts: BreakerOptions = DEFAULT_BREAKER,
  ) {
    this.breaker = new CircuitBreaker((call: Call) => call(), {
      timeout: opts.timeoutMs,
      resetTimeout: opts.resetMs,
      // Judged on the last second only: a paused or partitioned Redis must open the breaker
      // within about a second even after thousands of successful calls. A call is a whole
      // batch, and while Redis hangs the cashiers' slowed-down orders make only one or two
      // calls a second: one failed call in a second without successes is enough.
      errorThresholdPercentage: 50,
      volumeThreshold: 1,
      rollingCountTimeout: 1_000,
      rollingCountBuckets: 10,
    });
    this.batches = new DataLoader((requests) => this.issueBatch(requests), {
      cache: false,
      maxBatchSize: 4 * MAX_KEYS_PER_CALL,
      batchScheduleFn: (send) => setImmediate(send),
    });
    this.breaker.on("open", () => log.warn({ component: "counter" }, "Redis counter unavailable: numbers now come from PostgreSQL"));
    this.breaker.on("halfOpen", () => log.info({ component: "counter" }, "probing Redis"));
    this.breaker.on("close", () => log.info({ component: "counter" }, "Redis counter back: numbers come from Redis again"));
  }

  key(counter: CounterId): string {
    return typeof counter === "string" ? counterKey(this.prefix, counter) : seriesCounterKey(this.prefix, counter.tenantId, counter.seriesId);
  }

  available(): boolean {
    return !this.breaker.opened;
  }

  /** Calls `listener` each time numbers switch to PostgreSQL (the breaker opened) or back to Redis (it closed). */
  onSwitch(listener: (to: "redis" | "database") => void): void {
    this.breaker.on("open", () => listener("database"));
    this.breaker.on("close", () => listener("redis"));
  }

  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return (await this.breaker.fire(fn)) as T;
    } catch (e) {
      throw new CounterUnavailableError(`Redis counter: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
  }

  next(counter: CounterId, today: string, nowMs: number, expireAtMs: number): Promise<FastIssue> {
    return this.batches.load({ key: this.key(counter), today, nowMs, expireAtMs });
  }

  /** One script call per MAX_KEYS_PER_CALL tenants (per tenant on a Cluster); answers in request order. */
  private async issueBatch(requests: readonly NextRequest[]): Promise<(FastIssue | Error)[]> {
    const byKey = new Map<string, number[]>();
    requests.forEach((r, i) => {
      const same = byKey.get(r.key);
      if (same) same.push(i);
      else byKey.set(r.key, [i]);
    });
    const groups = [...byKey];
    const perCall = this.redis.isCluster ? 1 : MAX_KEYS_PER_CALL;
    const answers = new Array<FastIssue | Error>(requests.length);
    const calls: Promise<void>[] = [];
    for (let g = 0; g < groups.length; g += perCall) {
      const chunk = groups.slice(g, g + perCall);
      calls.push(
        this.issueChunk(chunk.map(([key, at]) => [key, at.map((i) => requests[i]!)])).then(
          (perKey) => chunk.forEach(([, at], c) => perKey[c]!.forEach((answer, j) => (answers[at[j]!] = answer))),
          (e: Error) => chunk.forEach(([, at]) => at.forEach((i) => (answers[i] = e))),
        ),
      );
    }
    await Promise.all(calls);
    return answers;
  }

  /** One script call for some tenants; per tenant, its callers' answers in order. */
  private async issueChunk(chunk: [string, NextRequest[]][]): Promise<FastIssue[][]> {
    const keys: string[] = [];
    const sent: (BlockHint | undefined)[] = [];
    const perKey: (string | number)[] = [];
    let now = 0;
    for (const [key, requests] of chunk) {
      // Callers of one tenant in one batch share the latest day among them (the day only
      // moves forward anyway) and the batch shares the latest clock.
      let latest = requests[0]!;
      for (const r of requests) {
        if (r.today > latest.today) latest = r;
        if (r.nowMs > now) now = r.nowMs;
      }
      // A hint of an older day than today is not sent: the full path starts the new day.
      const hint = this.hints.get(key);
      const usable = hint && latest.today <= hint.day ? hint : undefined;
      keys.push(key);
      sent.push(usable);
      perKey.push(usable?.field ?? "", latest.today, latest.expireAtMs, requests.length);
    }
    const reply = await this.call(() => this.redis.issueNumbers(keys.length, ...keys, now, LOW_WATER, REFILL_LEASE_MS, ...perKey));
    const read = reader(reply);
    return chunk.map(([key, requests], i) => {
      const { answers, hint } = decode(read, requests.length, sent[i]);
      if (hint === null) this.hints.delete(key);
      else if (hint) this.hints.set(key, hint);
      return answers;
    });
  }

  async addBlock(counter: CounterId, b: Block, expireAtMs: number): Promise<boolean> {
    return (await this.call(() => this.redis.installBlock(this.key(counter), b.businessDay, b.shift, b.lo, b.hi, expireAtMs, "add"))) === Flag.YES;
  }

  async restore(counter: CounterId, b: Block, expireAtMs: number): Promise<boolean> {
    return (await this.call(() => this.redis.installBlock(this.key(counter), b.businessDay, b.shift, b.lo, b.hi, expireAtMs, "restore"))) === Flag.YES;
  }

  async burn(counter: CounterId, issued: IssuedNumber, storedUpTo: number): Promise<void> {
    await this.call(() => this.redis.burnBlock(this.key(counter), issued.businessDay, issued.shift, issued.number, storedUpTo));
  }

  shutdown(): void {
    this.breaker.shutdown();
  }
}

/** What Redis said last about a tenant's current block: the fast path's hint. */
interface BlockHint {
  field: string;
  day: string;
  shift: number;
  max: number;
}

/** Reads issue-numbers-n.lua's flat reply front to back. */
function reader(reply: IssueNumbersReply) {
  let at = 0;
  return {
    int: () => Number(reply[at++]),
    str: () => String(reply[at++]),
  };
}

/**
 * Decodes one tenant's part of the reply (see issue-numbers-n.lua) into its callers'
 * answers, in order, and what the node should now remember of the tenant's block
 * (undefined: keep the hint it sent; null: forget it).
 */
function decode(read: ReturnType<typeof reader>, callers: number, sent: BlockHint | undefined): { answers: FastIssue[]; hint: BlockHint | null | undefined } {
  const code = read.int();
  if (code === IssueReply.FAST || code === IssueReply.FAST_REFILL) {
    // The fast path: numbers max - left - callers + 1 … max - left of the hinted block.
    const left = read.int();
    if (!sent) throw new Error("issue-numbers: fast-path reply without a hint");
    const first = sent.max - left - callers + 1;
    const answers = Array.from({ length: callers }, (_, j): FastIssue => ({
      kind: "issued",
      issued: { businessDay: sent.day, shift: sent.shift, number: first + j },
      refill: code === IssueReply.FAST_REFILL && j === callers - 1,
      reached: sent.max,
    }));
    return { answers, hint: undefined };
  }
  if (code === IssueReply.MISSING) {
    const lease = read.int() === Flag.YES;
    return { answers: Array.from({ length: callers }, (_, j): FastIssue => ({ kind: "missing", lease: lease && j === 0 })), hint: null };
  }
  if (code !== IssueReply.FULL && code !== IssueReply.RAN_OUT) throw new Error(`issue-numbers: unknown reply code ${code}`);
  const businessDay = read.str();
  const shift = read.int();
  const flag = read.int() === Flag.YES;
  const field = read.str();
  read.int(); // lo: the block's start, not needed here
  // The current block's end: no block is in reserve when a refill is asked for or the blocks ran out.
  const max = read.int();
  const numbers = Array.from({ length: read.int() }, () => read.int());
  const answers = Array.from({ length: callers }, (_, j): FastIssue => {
    if (j < numbers.length) {
      // The caller of the last number holds the lease to reserve the next block, if any.
      const refill = code === IssueReply.FULL && flag && j === numbers.length - 1;
      return { kind: "issued", issued: { businessDay, shift, number: numbers[j]! }, refill, reached: max };
    }
    // Only the first caller left without a number may hold the lease.
    return { kind: "empty", businessDay, shift, lease: flag && j === numbers.length, reached: max };
  });
  return { answers, hint: field ? { field, day: businessDay, shift, max } : null };
}
