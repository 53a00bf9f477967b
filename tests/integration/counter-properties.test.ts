/**
 * Property-based tests of the number-issuing rules on real Redis and PostgreSQL
 * (fast-check generates sequences of operations and shrinks failures to a minimal one):
 *  - with faults (counter lost, counter turned back as by a replica that missed writes,
 *    orders taken on a node without Redis, shifts started on either node), no number is
 *    ever stored twice in a shift, and every order placed is stored;
 *  - without faults, every shift is numbered 1, 2, 3, … with no gap.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import fc from "fast-check";
import { createCoreHarness } from "../support/core-harness";
import { testKeyPrefix } from "../support/app-server";
import { freePort } from "../support/ports";
import { MAX_SKIPPED_PER_FAULT } from "@/lib/core/numbering";
import type { Tenant } from "@/lib/core/tenants";
import { lastIssuedIn, rewindTo } from "../support/counter-state";
import { toTenant } from "@/lib/adapters/postgres/rows.server";

const databaseUrl = inject("databaseUrl");
const redisUrl = inject("redisUrl");

type Op =
  | { kind: "burst"; node: "live" | "dead"; size: number }
  | { kind: "lose" }
  | { kind: "rewind"; by: number }
  | { kind: "shift"; node: "live" | "dead"; firstNumber: number };

const burst = (node: fc.Arbitrary<"live" | "dead">) => fc.record({ kind: fc.constant("burst" as const), node, size: fc.integer({ min: 1, max: 25 }) });
const faultyOps: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: burst(fc.constantFrom("live", "dead")) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("lose" as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("rewind" as const), by: fc.integer({ min: 1, max: 8 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("shift" as const), node: fc.constantFrom("live", "dead"), firstNumber: fc.constantFrom(1, 1, 100) }) },
);
const cleanOps: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: burst(fc.constant("live")) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("shift" as const), node: fc.constant("live" as const), firstNumber: fc.constant(1) }) },
);

describe("number-issuing rules, property-based", () => {
  const keyPrefix = testKeyPrefix("props");
  const live = createCoreHarness({ databaseUrl, redisUrl, keyPrefix });
  let dead: ReturnType<typeof createCoreHarness>;
  let seq = 0;

  beforeAll(async () => {
    dead = createCoreHarness({ databaseUrl, redisUrl: `redis://127.0.0.1:${await freePort()}`, keyPrefix });
  });
  afterAll(async () => {
    await live.close();
    await dead.close();
  });

  async function freshTenant(): Promise<Tenant> {
    const row = await live.db.tenant.create({
      data: {
        slug: `props-${process.pid}-${Date.now()}-${seq++}`,
        name: "Props",
        timeZone: "UTC",
        dayStartMinutes: ((new Date().getUTCHours() + 12) % 24) * 60,
      },
    });
    return toTenant(row);
  }

  /** Runs the ops; returns placed order ids and the number of faults per shift. */
  async function run(tenant: Tenant, ops: Op[]) {
    const placed: string[] = [];
    const faults = new Map<number, number>();
    const firstNumber = new Map<number, number>([[1, 1]]);
    let shift = 1;
    const fault = () => faults.set(shift, (faults.get(shift) ?? 0) + 1);
    // An outage (orders taken where Redis is unreachable) is one fault in each shift it
    // reaches: it starts when the first such order of the shift follows one from Redis.
    const lastNode = new Map<number, "live" | "dead">();
    for (const op of ops) {
      if (op.kind === "burst") {
        if (op.node === "dead" && lastNode.get(shift) !== "dead") fault();
        lastNode.set(shift, op.node);
        const h = op.node === "live" ? live : dead;
        const results = await Promise.all(Array.from({ length: op.size }, () => h.orders.place(tenant, {}, { channel: "kiosk", by: null })));
        placed.push(...results.map((r) => r.order.id));
      } else if (op.kind === "lose") {
        await live.redis.del(live.counter.key(tenant.id));
        fault();
      } else if (op.kind === "rewind") {
        // A replica that missed the last `by` increments of this shift.
        // (A replica holds an older state of the hash: never below its own block's start.)
        const key = live.counter.key(tenant.id);
        const hash = await live.redis.hgetall(key);
        const cur = lastIssuedIn(hash) ?? 0;
        const floor = Math.max((firstNumber.get(Number(hash.shift)) ?? 1) - 1, Number(hash.lo ?? 0));
        if (cur > floor) await rewindTo(live.redis, key, Math.max(floor, cur - op.by));
        fault();
      } else {
        const h = op.node === "live" ? live : dead;
        const started = await h.shifts.start(tenant, { firstNumber: op.firstNumber }, "prop");
        shift = started.shift.shift;
        firstNumber.set(shift, op.firstNumber);
        if (op.node === "dead") fault(); // Redis did not hear of it
      }
    }
    return { placed, faults, firstNumber };
  }

  async function storedByShift(tenantId: string) {
    const rows = await live.db.order.findMany({ where: { tenantId }, select: { id: true, shift: true, number: true } });
    const byShift = new Map<number, number[]>();
    for (const r of rows) byShift.set(r.shift, [...(byShift.get(r.shift) ?? []), r.number]);
    return { rows, byShift };
  }

  /** How many numbers in first…last orders of other shifts hold (every order stays open in these runs; a node that missed a new shift numbers the old one after it). */
  function heldBefore(byShift: Map<number, number[]>, shift: number, first: number, last: number): number {
    const held = new Set([...byShift].filter(([s]) => s !== shift).flatMap(([, ns]) => ns.filter((n) => n >= first && n <= last)));
    return held.size;
  }

  it("never stores a number twice among open orders, stores every order, and skips at most 50 per fault", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(faultyOps, { minLength: 1, maxLength: 14 }), async (ops) => {
        const tenant = await freshTenant();
        const { placed, faults, firstNumber } = await run(tenant, ops);
        const { rows, byShift } = await storedByShift(tenant.id);
        expect(new Set(rows.map((r) => r.id))).toEqual(new Set(placed));
        // Every order stays open here: no two of them, of any shift, show the same number (decision 0027).
        const all = rows.map((r) => r.number);
        expect(new Set(all).size, `open numbers shared: ${all.sort((a, b) => a - b).join(",")}`).toBe(all.length);
        for (const [shift, numbers] of byShift) {
          const first = firstNumber.get(shift)!;
          expect(Math.min(...numbers)).toBeGreaterThanOrEqual(first);
          // Numbers passed over because an earlier shift's order held them are skips, not losses.
          const held = heldBefore(byShift, shift, first, Math.max(...numbers));
          const skipped = Math.max(...numbers) - first + 1 - numbers.length - held;
          expect(skipped, `shift ${shift} skipped ${skipped} with ${faults.get(shift) ?? 0} faults`).toBeLessThanOrEqual(
            MAX_SKIPPED_PER_FAULT * (faults.get(shift) ?? 0),
          );
        }
      }),
      { numRuns: 25 },
    );
  });

  it("without faults numbers every shift 1, 2, 3, … with no gap but the numbers still open", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(cleanOps, { minLength: 1, maxLength: 10 }), async (ops) => {
        const tenant = await freshTenant();
        await run(tenant, ops);
        const { byShift } = await storedByShift(tenant.id);
        for (const [shift, numbers] of byShift) {
          // 1, 2, 3, … but the numbers earlier shifts' orders (all still open) hold.
          const taken = new Set([...byShift].filter(([s]) => s < shift).flatMap(([, ns]) => ns));
          const expected: number[] = [];
          for (let n = 1; expected.length < numbers.length; n++) if (!taken.has(n)) expected.push(n);
          expect(
            numbers.sort((a, b) => a - b),
            `shift ${shift}`,
          ).toEqual(expected);
        }
      }),
      { numRuns: 25 },
    );
  });
});
