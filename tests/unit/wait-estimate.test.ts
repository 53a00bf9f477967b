import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { estimateWait, expectedReady, summarizeWaits, weightedQuantile, MIN_SAMPLES, type ReadySample } from "@/lib/core/wait-estimate";
import { movableClock, wallTime } from "../support/clock";

const MIN = 60_000;

/** `count` orders made ready evenly over the last `overMin` minutes, each taking `takes(i)` minutes. */
function history(now: number, count: number, overMin: number, takes: (i: number) => number): ReadySample[] {
  return Array.from({ length: count }, (_, i) => {
    const readyAt = now - (overMin * MIN * (i + 0.5)) / count;
    return { placedAt: readyAt - takes(i) * MIN, readyAt };
  });
}

describe("the wait estimate (decision 0052)", () => {
  const clock = movableClock(wallTime("Europe/Berlin", "12:00"));
  const now = () => clock.now().getTime();

  it("cold start: fewer than ten orders made ready in the last hour give no estimate, never a default", () => {
    expect(summarizeWaits([], now())).toBeNull();
    expect(
      summarizeWaits(
        history(now(), MIN_SAMPLES - 1, 30, () => 5),
        now(),
      ),
    ).toBeNull();
    // Ten made ready, but one of them 61 minutes ago: out of the window.
    const old = history(now(), MIN_SAMPLES, 30, () => 5);
    old[0] = { placedAt: now() - 66 * MIN, readyAt: now() - 61 * MIN };
    expect(summarizeWaits(old, now())).toBeNull();
    expect(estimateWait(null, { placedAt: now(), ahead: 0 }, now())).toBeNull();
    expect(
      summarizeWaits(
        history(now(), MIN_SAMPLES, 30, () => 5),
        now(),
      ),
    ).not.toBeNull();
  });

  it("a steady kitchen: an order just placed with nothing ahead is told its p50–p80", () => {
    // Times 4..8 minutes, 2 orders each: p50 6, p80 7 (nearest rank, nearly equal weights over 10 minutes).
    const s = summarizeWaits(
      history(now(), 10, 10, (i) => 4 + Math.floor(i / 2)),
      now(),
    )!;
    expect(s.samples).toBe(10);
    expect(s.p50Ms).toBe(6 * MIN);
    expect(s.p80Ms).toBe(7 * MIN);
    expect(estimateWait(s, { placedAt: now(), ahead: 0 }, now())).toEqual({ low: 6, high: 7, late: false });
  });

  it("counts down softly as the order ages, then says any minute, then late — never a negative countdown", () => {
    const s = summarizeWaits(
      history(now(), 12, 30, () => 6),
      now(),
    )!;
    const placedAt = now();
    const at = (min: number) => estimateWait(s, { placedAt, ahead: 0 }, placedAt + min * MIN)!;
    expect(at(0)).toEqual({ low: 6, high: 6, late: false });
    expect(at(2.5)).toEqual({ low: 3, high: 4, late: false });
    expect(at(5.5)).toEqual({ low: 0, high: 1, late: false });
    expect(at(6)).toEqual({ low: 0, high: 0, late: true });
    expect(at(45)).toEqual({ low: 0, high: 0, late: true });
  });

  it("a counter that makes orders ready at once (drinks): a new order is told any minute, not late, for its first minute", () => {
    const s = summarizeWaits(
      history(now(), 12, 30, () => 0),
      now(),
    )!;
    expect(s.p80Ms).toBe(0);
    expect(estimateWait(s, { placedAt: now(), ahead: 0 }, now())).toEqual({ low: 0, high: 1, late: false });
    expect(estimateWait(s, { placedAt: now(), ahead: 0 }, now() + 59_000)).toEqual({ low: 0, high: 1, late: false });
    expect(estimateWait(s, { placedAt: now(), ahead: 0 }, now() + MIN)).toEqual({ low: 0, high: 0, late: true });
  });

  it("a rush: many orders ahead push the estimate past the usual times, by the throughput", () => {
    // 30 made ready in the last 30 minutes (one a minute), each in 5 minutes.
    const s = summarizeWaits(
      history(now(), 30, 30, () => 5),
      now(),
    )!;
    const perMin = s.perMs * MIN;
    expect(perMin).toBeGreaterThan(0.9);
    expect(perMin).toBeLessThan(1.3);
    const quiet = estimateWait(s, { placedAt: now(), ahead: 0 }, now())!;
    const rush = estimateWait(s, { placedAt: now(), ahead: 12 }, now())!;
    expect(quiet).toEqual({ low: 5, high: 5, late: false });
    // 12 ahead at about one a minute (Little's law); the high bound one more, at a throughput one standard error (1/√30) lower.
    expect(rush.low).toBeGreaterThanOrEqual(10);
    expect(rush.low).toBeLessThanOrEqual(13);
    expect(rush.high).toBeGreaterThan(rush.low + 2);
    expect(rush.high).toBeLessThanOrEqual(Math.ceil(13 / perMin / (1 - 1 / Math.sqrt(30))));
  });

  it("a quiet hour: an idle stretch is not a slow kitchen, one order ahead is not told a long wait", () => {
    // Twelve made ready 28–52 minutes ago, each in 6–8 minutes; nothing since (no orders came).
    const quiet = Array.from({ length: 12 }, (_, i) => {
      const placedAt = now() - (58 - 2 * i) * MIN;
      return { placedAt, readyAt: placedAt + (6 + (i % 3)) * MIN };
    });
    const s = summarizeWaits(quiet, now())!;
    // Throughput while busy (30 minutes, 12 orders), not over the idle half hour as well.
    expect(s.perMs * MIN).toBeGreaterThan(0.35);
    const alone = estimateWait(s, { placedAt: now(), ahead: 0 }, now())!;
    const behindOne = estimateWait(s, { placedAt: now(), ahead: 1 }, now())!;
    expect(alone).toEqual({ low: 7, high: 8, late: false });
    expect(behindOne.low).toBe(alone.low);
    expect(behindOne.high).toBeGreaterThanOrEqual(alone.high);
    expect(behindOne.high).toBeLessThanOrEqual(9);
  });

  it("a slow kitchen: its long recent times are what it is told, and recent orders weigh more than older ones", () => {
    const slow = summarizeWaits(
      history(now(), 10, 20, () => 25),
      now(),
    )!;
    expect(estimateWait(slow, { placedAt: now(), ahead: 0 }, now())).toEqual({ low: 25, high: 25, late: false });
    // The last 20 minutes took 20 minutes each; the 40 before them 5 each: the recent ones weigh more.
    const turned = [...history(now(), 10, 20, () => 20), ...history(now() - 20 * MIN, 10, 40, () => 5)];
    const s = summarizeWaits(turned, now())!;
    expect(s.p50Ms).toBe(20 * MIN);
    // Unweighted the p50 would be 5 minutes (10 of each, nearest rank): the half-life moved it.
    expect(
      weightedQuantile(
        turned.map((x) => ({ value: x.readyAt - x.placedAt, weight: 1 })),
        0.5,
      ),
    ).toBe(5 * MIN);
  });

  it("an order further back is never told a shorter wait, nor a late one before the orders ahead of it (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ ago: fc.integer({ min: 0, max: 59 * MIN }), takes: fc.integer({ min: 0, max: 40 * MIN }) }), { minLength: 10, maxLength: 60 }),
        fc.integer({ min: 0, max: 60 * MIN }),
        fc.integer({ min: 0, max: 30 * MIN }),
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 0, max: 30 * MIN }),
        (samples, frontAge, behindBy, frontAhead, moreAhead, later) => {
          const t = now();
          const s = summarizeWaits(
            samples.map(({ ago, takes }) => ({ readyAt: t - ago, placedAt: t - ago - takes })),
            t,
          );
          if (!s) return;
          const at = t + later;
          const front = { placedAt: t - frontAge, ahead: frontAhead };
          // Behind it: placed no earlier, and the front order plus the ones ahead of it ahead of it.
          const behind = { placedAt: front.placedAt + behindBy, ahead: frontAhead + moreAhead };
          const a = estimateWait(s, front, at)!;
          const b = estimateWait(s, behind, at)!;
          expect(a.low).toBeLessThanOrEqual(a.high);
          expect(b.low).toBeLessThanOrEqual(b.high);
          expect(Math.min(a.low, b.low)).toBeGreaterThanOrEqual(0);
          if (b.late) expect(a.late).toBe(true);
          if (!a.late) {
            expect(b.late).toBe(false);
            expect(b.low).toBeGreaterThanOrEqual(a.low);
            expect(b.high).toBeGreaterThanOrEqual(a.high);
          }
          const ra = expectedReady(s, front, at);
          const rb = expectedReady(s, behind, at);
          expect(rb.lowAt).toBeGreaterThanOrEqual(ra.lowAt);
          expect(rb.highAt).toBeGreaterThanOrEqual(ra.highAt);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("monotonic in queue position, by example: the same placement time, more ahead, never less", () => {
    const s = summarizeWaits(
      history(now(), 20, 40, (i) => 3 + (i % 6)),
      now(),
    )!;
    const lows = Array.from({ length: 15 }, (_, ahead) => estimateWait(s, { placedAt: now(), ahead }, now())!);
    for (let i = 1; i < lows.length; i++) {
      expect(lows[i]!.low).toBeGreaterThanOrEqual(lows[i - 1]!.low);
      expect(lows[i]!.high).toBeGreaterThanOrEqual(lows[i - 1]!.high);
    }
    expect(lows[14]!.high).toBeGreaterThan(lows[0]!.high);
  });

  it("the estimate follows the fake clock: the same order read a minute later is told a minute less", () => {
    const s = summarizeWaits(
      history(now(), 15, 30, () => 10),
      now(),
    )!;
    const placedAt = now();
    const first = estimateWait(s, { placedAt, ahead: 0 }, clock.now().getTime())!;
    clock.tick(MIN);
    const second = estimateWait(s, { placedAt, ahead: 0 }, clock.now().getTime())!;
    expect(first).toEqual({ low: 10, high: 10, late: false });
    expect(second).toEqual({ low: 9, high: 9, late: false });
  });
});
