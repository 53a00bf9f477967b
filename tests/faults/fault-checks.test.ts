/**
 * The checks themselves, on made-up records: each kind of broken promise must be caught
 * (a checker that always says "ok" would make every fault scenario pass).
 */
import { describe, expect, it } from "vitest";
import { checkRun, numbersAnsweredTwice, ranges, shiftStats, STAMP_SLACK_MS, type SeriesDef, type StoredOrder } from "../support/fault-checks";
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

/** What PostgreSQL holds for the orders answered 201: stored just before the answer, all still open. */
const storedFor = (rs: LoadRecord[]): StoredOrder[] =>
  rs
    .filter((r) => r.status === 201)
    .map((r) => ({
      id: r.id!,
      businessDay: r.businessDay!,
      shift: r.shift!,
      number: r.number!,
      idempotencyKey: r.key,
      createdAt: r.end - 2,
      closedAt: null,
      open: true,
    }));
const closed = (o: StoredOrder, at: number): StoredOrder => ({ ...o, closedAt: at, open: false });

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
      { id: "x1", businessDay: DAY, shift: 1, number: 4, idempotencyKey: refused.key, createdAt: 2_000, closedAt: null, open: true },
      { id: "x2", businessDay: DAY, shift: 1, number: 5, idempotencyKey: timedOut.key, createdAt: 2_000, closedAt: null, open: true },
      { id: "x3", businessDay: DAY, shift: 1, number: 6, idempotencyKey: "nobody", createdAt: 2_000, closedAt: null, open: true },
    ];
    const all = [rec(1), rec(2), rec(3), refused, timedOut];
    const r2 = checkRun({ scenario: "unseen", records: all, stored: [...storedFor(all), ...extra], faults: 1, minAcceptance: 0 });
    expect(r2.violations.filter((v) => v.includes("although its client was told 503"))).toHaveLength(1);
    expect(r2.violations.filter((v) => v.includes("that no client sent"))).toHaveLength(1);
    expect(r2.violations.some((v) => v.includes("x2"))).toBe(false); // the client gave up: allowed
  });

  describe("numbers answered twice, judged from the 201 answers (issue #27)", () => {
    it("catches one number answered to two orders although the first was lost by the database", () => {
      // #2 answered, then lost with the standby's missing WAL; the counter hands 2 out again.
      const first = rec(2);
      const rs = [rec(1), first, rec(3), rec(2)];
      const twice = numbersAnsweredTwice(rs);
      expect(twice.map((a) => a.number)).toEqual([`${DAY}/shift 1/#2`]);
      expect(twice[0]!.records.map((r) => r.key)).toEqual([first.key, rs[3]!.key]);

      const stored = storedFor(rs).filter((o) => o.id !== first.id);
      const report = checkRun({ scenario: "lost, then again", records: rs, stored, faults: 1, lostAllowed: true });
      expect(report.answeredTwice).toHaveLength(1);
      expect(report.lost).toBe(1);
      expect(report.violations.some((v) => v.startsWith(`DUPLICATE ${DAY}/shift 1/#2 given to 2 orders`))).toBe(true);
      expect(report.violations.some((v) => v.startsWith("201 order not stored"))).toBe(false); // lost, allowed here, counted
      expect(report.violations).toHaveLength(1);
    });

    it("lets pass one number in two shifts, days or prefixes, one order under two keys, and a series that comes round", () => {
      const again = rec(1);
      const rs = [
        again,
        rec(1, { shift: 2 }),
        rec(1, { businessDay: "2026-11-22" }),
        rec(1, { prefix: "K" }),
        rec(1, { id: again.id, key: "another-key" }), // one order, not two (checkRun flags the keys)
        rec(null),
        rec(2, { prefix: "W", series: "Window" }),
        rec(2, { prefix: "W", series: "Window" }),
      ];
      expect(numbersAnsweredTwice(rs, (r) => r.series === "Window")).toEqual([]);
      // Without saying that the series comes round, its W2 counts as answered twice.
      expect(numbersAnsweredTwice(rs).map((a) => a.number)).toEqual([`${DAY}/shift 1/#W2`]);
    });

    it("counts orders lost as lost, their numbers as handed out (not skipped); not allowed, each is a violation", () => {
      const rs = [1, 2, 3, 4].map((n) => rec(n));
      const stored = storedFor(rs).filter((o) => o.number !== 3);
      const allowed = checkRun({ scenario: "lost", records: rs, stored, faults: 0, lostAllowed: true });
      expect(allowed.violations).toEqual([]);
      expect(allowed.lost).toBe(1);
      expect(allowed.shifts).toMatchObject([{ skipped: 0, max: 4 }]);
      expect(allowed.lines.some((l) => l.startsWith("answered 201, then missing from PostgreSQL (lost): 1 (allowed here)"))).toBe(true);
      const strict = checkRun({ scenario: "lost", records: rs, stored, faults: 0 });
      expect(strict.violations.filter((v) => v.startsWith("201 order not stored"))).toHaveLength(1);
    });
  });

  it("catches a duplicate stored in PostgreSQL even if no client saw it", () => {
    const rs = [rec(1), rec(2)];
    const stored = [...storedFor(rs), { id: "z", businessDay: DAY, shift: 1, number: 2, idempotencyKey: null, createdAt: 2_000, closedAt: null, open: true }];
    const report = checkRun({ scenario: "db-dup", records: rs, stored, faults: 1 });
    expect(report.violations.some((v) => v.startsWith("DUPLICATE in PostgreSQL"))).toBe(true);
  });

  describe("numbers still open are never handed out again (decision 0027)", () => {
    /** An order of shift 2 asked for at `t` (ms) and answered 10 ms later. */
    const shift2 = (n: number, t: number, o: Partial<LoadRecord> = {}) =>
      rec(n, { shift: 2, start: t, end: t + 10, attempts: [{ start: t, end: t + 10, status: 201 }], ...o });

    it("a number an earlier shift's order holds open is skipped, not spent; skipped while closed, it is spent", () => {
      // Shift 1 left 1, 2 and 4 open and 3 collected: shift 2 gets 3, 5, 6.
      const one = [1, 2, 3, 4].map((n) => rec(n));
      const two = [3, 5, 6].map((n, i) => shift2(n, 10_000 + 20 * i));
      const stored = storedFor([...one, ...two]);
      stored[2] = closed(stored[2]!, stored[4]!.createdAt - 100); // 3, collected before shift 2's first order
      const report = checkRun({ scenario: "held", records: [...one, ...two], stored, faults: 0 });
      expect(report.violations).toEqual([]);
      expect(report.shifts).toMatchObject([
        { shift: 1, skipped: 0, held: 0 },
        { shift: 2, min: 3, max: 6, skipped: 0, held: 3, heldRanges: "1–2, 4", missing: "" },
      ]);

      // Had 4 been collected before shift 2 began, skipping it would have spent it.
      const early = [...stored];
      early[3] = closed(early[3]!, early[4]!.createdAt - 100);
      const spent = checkRun({ scenario: "spent", records: [...one, ...two], stored: early, faults: 0 });
      expect(spent.shifts[1]).toMatchObject({ skipped: 1, missing: "4", held: 2 });
      expect(spent.violations.some((v) => v.startsWith("SKIPPED 1 numbers in 2026-11-21/shift 2"))).toBe(true);
    });

    it("an order of a later shift excuses a gap only if it took the number while this shift still handed them out", () => {
      // Shift 1 lost 2; shift 2's first order, asked for after shift 1's last was stored, took it.
      const one = [1, 3].map((n) => rec(n));
      const two = [shift2(2, 10_000), shift2(4, 10_020)];
      const lost = checkRun({ scenario: "lost", records: [...one, ...two], stored: storedFor([...one, ...two]), faults: 0 });
      expect(lost.shifts[0]).toMatchObject({ shift: 1, skipped: 1, missing: "2" });
      expect(lost.violations.some((v) => v.startsWith("SKIPPED 1 numbers in 2026-11-21/shift 1"))).toBe(true);

      // The race at a reset: the order that drew shift 1's 2 began before shift 1's last order
      // was stored, met shift 2's 2 and was stored in shift 2 after it.
      const [a, b] = one;
      const drew2 = shift2(5, b!.end - 5, { end: 10_050 });
      const raced = [a!, b!, two[0]!, two[1]!, drew2];
      const report = checkRun({ scenario: "race", records: raced, stored: storedFor(raced), faults: 0 });
      expect(report.violations).toEqual([]);
      expect(report.shifts[0]).toMatchObject({ shift: 1, skipped: 0, held: 1, heldRanges: "2" });
    });

    it("catches one number on two orders open at the same time, across shifts and days; one collected first is free again", () => {
      // Shift 2's 1 while shift 1's 1 is open, and the next day's 2 while yesterday's 2 is.
      const rs = [rec(1), rec(2), shift2(1, 10_000), shift2(2, 10_020, { businessDay: "2026-11-22", shift: 1 })];
      const stored = storedFor(rs);
      const report = checkRun({ scenario: "twins", records: rs, stored, faults: 1 });
      expect(report.violations.filter((v) => v.startsWith("OPEN TWICE: "))).toHaveLength(2);
      expect(report.violations.filter((v) => v.startsWith("OPEN TWICE NOW: "))).toHaveLength(2);

      // 1 collected before shift 2's 1 was stored, and 2 cleared before the next day's: no twin.
      const fine = [closed(stored[0]!, stored[2]!.createdAt - 1), closed(stored[1]!, stored[3]!.createdAt - 1), stored[2]!, stored[3]!];
      const ok = checkRun({ scenario: "no twins", records: rs, stored: fine, faults: 1 });
      expect(ok.violations.filter((v) => v.startsWith("OPEN TWICE"))).toEqual([]);
      // Collected while the other was already open, beyond the stamps' slack: open at once.
      const twins = (closedAt: number) =>
        checkRun({ scenario: "late", records: rs, stored: [closed(stored[0]!, closedAt), ...fine.slice(1)], faults: 1 }).violations.filter((v) =>
          v.startsWith("OPEN TWICE: "),
        );
      expect(twins(stored[2]!.createdAt + STAMP_SLACK_MS + 1)).toHaveLength(1);
      // Within the slack, the insert may have waited on that very collect: not a twin.
      expect(twins(stored[2]!.createdAt + STAMP_SLACK_MS)).toEqual([]);
    });
  });
  it("numbers a counter jumped past after a database failover (decision 0028) add to that shift's budget, and only that much", () => {
    // 1–3, then 104–105: 100 numbers skipped with one fault (budget 50).
    const rs = [1, 2, 3, 104, 105].map((n) => rec(n));
    const skipped = (jumps?: Map<string, number>) =>
      checkRun({ scenario: "jump", records: rs, stored: storedFor(rs), faults: 1, jumps }).violations.filter((v) => v.startsWith("SKIPPED"));
    expect(skipped()).toHaveLength(1);
    expect(skipped(new Map([[`${DAY}/1`, 50]]))).toEqual([]);
    expect(skipped(new Map([[`${DAY}/1`, 49]]))).toHaveLength(1);
    // A jump of another shift or series is not this one's.
    expect(
      skipped(
        new Map([
          [`${DAY}/2`, 500],
          [`${DAY}/1/Window`, 500],
        ]),
      ),
    ).toHaveLength(1);
  });
  describe("a wrapping series (decision 0027): numbers come round, tickets do not", () => {
    const W: SeriesDef = { id: "series-w", name: "Window", prefix: "W", first: 1, last: 3 };
    /** An order of series W, ticket `ticket`, asked for at `t` and answered 10 ms later. */
    const recW = (ticket: number, t: number, o: Partial<LoadRecord> = {}) => {
      const number = ((ticket - 1) % 3) + 1;
      return rec(number, {
        series: "Window",
        prefix: "W",
        seriesName: "Window",
        start: t,
        end: t + 10,
        attempts: [{ start: t, end: t + 10, status: 201 }],
        ...o,
      });
    };
    /** What PostgreSQL holds for them: `tickets[i]` is record i's ticket. */
    const storedW = (rs: LoadRecord[], tickets: number[]): StoredOrder[] =>
      storedFor(rs).map((o, i) => ({ ...o, prefix: "W", seriesId: W.id, seriesName: W.name, ticket: tickets[i]! }));
    /** Record i collected just before record j was stored. */
    const collectBefore = (stored: StoredOrder[], pairs: [number, number][]) => {
      const out = [...stored];
      for (const [i, j] of pairs) out[i] = closed(out[i]!, stored[j]!.createdAt - 1);
      return out;
    };

    it("W1 twice in one shift is no duplicate when the first was collected; one ticket twice is, in the answers and in PostgreSQL", () => {
      const rs = [1, 2, 3, 4].map((t) => recW(t, 1_000 + 20 * t));
      const stored = collectBefore(storedW(rs, [1, 2, 3, 4]), [[0, 3]]);
      const report = checkRun({ scenario: "laps", records: rs, stored, faults: 0, series: [W] });
      expect(report.violations).toEqual([]);
      expect(report.shifts).toMatchObject([{ series: "Window", unit: "ticket", min: 1, max: 4, skipped: 0 }]);

      const twice = [...stored.slice(0, 3), { ...stored[3]!, ticket: 3, number: 3 }];
      const dup = checkRun({ scenario: "ticket twice", records: rs, stored: twice, faults: 0, series: [W] });
      expect(dup.violations.some((v) => v.startsWith("DUPLICATE 2026-11-21/shift 1/series Window/ticket 3 given to 2 orders"))).toBe(true);
      expect(dup.violations.some((v) => v.startsWith("DUPLICATE in PostgreSQL: 2026-11-21/shift 1/series Window/ticket 3"))).toBe(true);
    });

    it("the default series' 1 and the series' W1 open at once are two numbers; W1 on two open orders is caught", () => {
      const rs = [
        rec(1, { start: 900, end: 910, attempts: [{ start: 900, end: 910, status: 201 }] }),
        recW(1, 1_000),
        recW(2, 1_020),
        recW(3, 1_040),
        recW(4, 1_060),
      ];
      const stored = [...storedFor(rs.slice(0, 1)), ...storedW(rs.slice(1), [1, 2, 3, 4])];
      const fine = collectBefore(stored, [[1, 4]]);
      expect(checkRun({ scenario: "prefixes", records: rs, stored: fine, faults: 0, series: [W] }).violations).toEqual([]);
      // W1 of the first lap still open when the second lap's W1 was stored.
      const report = checkRun({ scenario: "W1 twice", records: rs, stored, faults: 0, series: [W] });
      expect(report.violations.filter((v) => v.startsWith("OPEN TWICE: ") && v.includes("/#W1"))).toHaveLength(1);
      expect(report.violations.filter((v) => v.startsWith("OPEN TWICE NOW: W#1 open 2 times"))).toHaveLength(1);
      expect(report.violations.filter((v) => v.includes("/#1 "))).toEqual([]);
    });

    it("a ticket whose number was still open is skipped, not spent; one skipped while its number was free is spent", () => {
      // Tickets 1–3 (W1–W3); W1 stays open, W2 and W3 are collected; ticket 4 (W1) is skipped, 5 shows W2.
      const rs = [recW(1, 1_000), recW(2, 1_020), recW(3, 1_040), recW(5, 1_200)];
      const stored = collectBefore(storedW(rs, [1, 2, 3, 5]), [
        [1, 3],
        [2, 3],
      ]);
      const report = checkRun({ scenario: "skip", records: rs, stored, faults: 0, series: [W] });
      expect(report.violations).toEqual([]);
      expect(report.shifts).toMatchObject([{ series: "Window", skipped: 0, held: 1, heldRanges: "4" }]);

      // Had W1 been collected before ticket 5's request began, ticket 4 was spent for nothing.
      const early = collectBefore(stored, [[0, 2]]);
      const spent = checkRun({ scenario: "spent ticket", records: rs, stored: early, faults: 0, series: [W] });
      expect(spent.shifts).toMatchObject([{ series: "Window", skipped: 1, missing: "4", held: 0 }]);
      expect(spent.violations.some((v) => v.startsWith("SKIPPED 1 tickets in 2026-11-21/shift 1 of series Window > budget 0"))).toBe(true);
      // …and the order of a later lap showing that number does not excuse it.
      const later = [...rs, recW(7, 1_400)];
      const laterStored = [...early, ...storedW([later[4]!], [7])];
      expect(checkRun({ scenario: "later lap", records: later, stored: laterStored, faults: 0, series: [W] }).shifts[0]).toMatchObject({
        missing: "4, 6",
      });
    });

    it("an order showing another number than its ticket's is caught", () => {
      const rs = [recW(1, 1_000), recW(2, 1_020)];
      const stored = storedW(rs, [1, 2]);
      stored[1] = { ...stored[1]!, number: 3 };
      const report = checkRun({ scenario: "wrong number", records: rs, stored, faults: 0, series: [W] });
      expect(report.violations.some((v) => v.startsWith("SERIES NUMBER: ") && v.includes("should show W2"))).toBe(true);
    });

    it("SERIES_FULL is a right answer only while every number was open, and must store nothing", () => {
      const rs = [recW(1, 1_000), recW(2, 1_020), recW(3, 1_040)];
      const stored = storedW(rs, [1, 2, 3]);
      const full = rec(null, {
        series: "Window",
        status: 409,
        start: 1_100,
        end: 1_110,
        attempts: [{ start: 1_100, end: 1_110, status: 409, code: "SERIES_FULL" }],
      });
      const ok = checkRun({ scenario: "full", records: [...rs, full], stored, faults: 0, series: [W] });
      expect(ok.violations).toEqual([]);
      expect(ok.acceptance).toBe(1); // a right refusal counts neither way
      expect(ok.lines.some((l) => l.includes("SERIES_FULL answers: 1"))).toBe(true);

      // W2 collected before the request began: the series was not full.
      const free = collectBefore(stored, [[1, 2]]);
      const wrong = checkRun({ scenario: "full while free", records: [...rs, full], stored: free, faults: 0, series: [W] });
      expect(wrong.violations.filter((v) => v.startsWith("SERIES_FULL WHILE FREE: ") && v.includes("W2 free the whole time"))).toHaveLength(1);

      // A refused order that was stored all the same.
      const leaked: StoredOrder = { ...stored[0]!, id: "leak", ticket: 4, number: 1, idempotencyKey: full.key, createdAt: 1_105 };
      const stray = checkRun({
        scenario: "full but stored",
        records: [...rs, full],
        stored: [...collectBefore(stored, [[0, 2]]), leaked],
        faults: 0,
        series: [W],
      });
      expect(stray.violations.some((v) => v.includes("stored order leak") && v.includes("although its client was told 409"))).toBe(true);
    });
  });
});
