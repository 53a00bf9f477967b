/**
 * The checks themselves, on made-up records: each kind of broken promise must be caught
 * (a checker that always says "ok" would make every fault scenario pass).
 */
import { describe, expect, it } from "vitest";
import { checkRun, ranges, shiftStats, type StoredOrder } from "../support/fault-checks";
import type { LoadRecord } from "../support/load-runner";

const DAY = "2026-11-21";
let seq = 0;

function rec(number: number | null, o: Partial<LoadRecord> = {}): LoadRecord {
  const i = seq++;
  const ok = number !== null;
  return {
    type: "request",
    client: "c1",
    pid: 1,
    worker: 0,
    seq: i,
    key: `k${i}`,
    node: 0,
    start: 1_000 + i,
    end: 1_010 + i,
    status: ok ? 201 : 503,
    attempts: [{ start: 1_000 + i, end: 1_010 + i, status: ok ? 201 : 503 }],
    ...(ok ? { id: `id${i}`, businessDay: DAY, shift: 1, number, replayed: false } : {}),
    ...o,
  };
}

const storedFor = (rs: LoadRecord[]): StoredOrder[] =>
  rs.filter((r) => r.status === 201).map((r) => ({ id: r.id!, businessDay: r.businessDay!, shift: r.shift!, number: r.number!, idempotencyKey: r.key }));

describe("fault checks", () => {
  it("a clean run passes and counts no gap", () => {
    const rs = [1, 2, 3, 4].map((n) => rec(n));
    const report = checkRun({ scenario: "clean", records: rs, stored: storedFor(rs), faults: 0 });
    expect(report.violations).toEqual([]);
    expect(report.shifts).toMatchObject([{ shift: 1, count: 4, max: 4, skipped: 0, missing: "" }]);
  });

  it("catches two orders with one number", () => {
    const rs = [rec(1), rec(2), rec(2)];
    const report = checkRun({ scenario: "dup", records: rs, stored: storedFor(rs), faults: 1 });
    expect(report.duplicates).toBe(1);
    expect(report.violations.some((v) => v.startsWith(`DUPLICATE ${DAY}/shift 1/#2`))).toBe(true);
  });

  it("does not count an idempotent replay of the same order as a duplicate", () => {
    const a = rec(1);
    const rs = [a, rec(2, { id: a.id, key: "other-key", number: 1 })];
    const report = checkRun({ scenario: "replay", records: rs, stored: storedFor([a]), faults: 0 });
    expect(report.duplicates).toBe(0);
    // …but one order id for two different keys is wrong in itself.
    expect(report.violations.some((v) => v.includes("different Idempotency-Keys"))).toBe(true);
  });

  it("counts gaps per shift against 50 × faults", () => {
    const rs = [1, 2, 60].map((n) => rec(n));
    const one = checkRun({ scenario: "gap", records: rs, stored: storedFor(rs), faults: 1 });
    expect(one.shifts[0]).toMatchObject({ skipped: 57, missing: "3–59" });
    expect(one.violations.some((v) => v.startsWith("SKIPPED 57"))).toBe(true);
    const two = checkRun({ scenario: "gap", records: rs, stored: storedFor(rs), faults: 2 });
    expect(two.violations).toEqual([]);
    expect(ranges([1, 2, 3, 7, 9, 10])).toBe("1–3, 7, 9–10");
    expect(shiftStats([])).toEqual([]);
  });

  it("demands 99.5 % answered 201", () => {
    const rs = [...Array.from({ length: 199 }, (_, i) => rec(i + 1)), rec(null)];
    expect(checkRun({ scenario: "ok", records: rs, stored: storedFor(rs), faults: 1 }).violations).toEqual([]);
    const worse = [...rs, rec(null)];
    const report = checkRun({ scenario: "low", records: worse, stored: storedFor(worse), faults: 1 });
    expect(report.violations.some((v) => v.startsWith("ACCEPTANCE 99.00 %"))).toBe(true);
  });

  it("demands every 201 order stored with its number, and no stored order a client was refused", () => {
    const rs = [rec(1), rec(2), rec(3)];
    const stored = storedFor(rs);
    stored[1] = { ...stored[1]!, number: 7 };
    stored.pop();
    const report = checkRun({ scenario: "db", records: rs, stored, faults: 1 });
    expect(report.violations.some((v) => v.includes("stored as") && v.includes("#7"))).toBe(true);
    expect(report.violations.some((v) => v.startsWith("201 order not stored"))).toBe(true);

    const refused = rec(null);
    const timedOut = rec(null, { status: null, attempts: [{ start: 0, end: 1, status: null, error: "timeout" }] });
    const extra: StoredOrder[] = [
      { id: "x1", businessDay: DAY, shift: 1, number: 4, idempotencyKey: refused.key },
      { id: "x2", businessDay: DAY, shift: 1, number: 5, idempotencyKey: timedOut.key },
      { id: "x3", businessDay: DAY, shift: 1, number: 6, idempotencyKey: "nobody" },
    ];
    const all = [rec(1), rec(2), rec(3), refused, timedOut];
    const r2 = checkRun({ scenario: "unseen", records: all, stored: [...storedFor(all), ...extra], faults: 1, minAcceptance: 0 });
    expect(r2.violations.filter((v) => v.includes("although its client was told 503"))).toHaveLength(1);
    expect(r2.violations.filter((v) => v.includes("that no client sent"))).toHaveLength(1);
    expect(r2.violations.some((v) => v.includes("x2"))).toBe(false); // the client gave up: allowed
  });

  it("catches a duplicate stored in PostgreSQL even if no client saw it", () => {
    const rs = [rec(1), rec(2)];
    const stored = [...storedFor(rs), { id: "z", businessDay: DAY, shift: 1, number: 2, idempotencyKey: null }];
    const report = checkRun({ scenario: "db-dup", records: rs, stored, faults: 1 });
    expect(report.violations.some((v) => v.startsWith("DUPLICATE in PostgreSQL"))).toBe(true);
  });
});
