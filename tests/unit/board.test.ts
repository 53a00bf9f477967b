import { describe, expect, it } from "vitest";
import { applyToBoard, boardView, earlierThan, expireReady, newlyReady } from "@/lib/core/board";
import type { BoardOrder } from "@/lib/core/orders";
import { aheadKeys, applyAhead } from "@/lib/core/queue-position";

const DAY = "2026-11-22";
const T0 = Date.parse("2026-11-22T12:00:00Z");
const at = (min: number) => new Date(T0 + min * 60_000).toISOString();

function order(
  shift: number,
  number: number,
  status: BoardOrder["status"],
  createdMin: number,
  readyMin: number | null = null,
  extra: Partial<BoardOrder> = {},
): BoardOrder {
  return {
    key: `${DAY}/${shift}/${number}`,
    number,
    prefix: "",
    display: String(number),
    shift,
    status,
    businessDay: DAY,
    createdAt: at(createdMin),
    readyAt: readyMin === null ? null : at(readyMin),
    cleared: false,
    service: null,
    ...extra,
  };
}

const base = { businessDay: DAY, shift: 2, readyClearMinutes: 10 };

describe("the board", () => {
  it("keeps open orders of earlier shifts (a reset hides nobody's order)", () => {
    const view = boardView(base, [order(1, 3, "PLACED", 0), order(1, 2, "READY", 1, 5), order(2, 1, "PLACED", 6)], T0 + 6 * 60_000);
    expect(view.preparing.map((o) => [o.shift, o.number])).toEqual([
      [1, 3],
      [2, 1],
    ]);
    expect(view.ready.map((o) => [o.shift, o.number])).toEqual([[1, 2]]);
    expect(earlierThan(view.preparing[0]!, view)).toBe("shift");
    expect(earlierThan(view.preparing[1]!, view)).toBeNull();
  });

  it("leaves out cleared orders, and keeps open orders of an earlier day (a new day or a changed time zone hides nobody's order), marked", () => {
    const yesterday = order(3, 4, "PLACED", -600, null, { businessDay: "2026-11-21", key: "2026-11-21/3/4" });
    const view = boardView(base, [order(1, 3, "PLACED", 0, null, { cleared: true }), yesterday, order(2, 4, "PLACED", 1)], T0);
    expect(view.preparing.map((o) => o.key)).toEqual(["2026-11-21/3/4", `${DAY}/2/4`]);
    // Shift 3 of yesterday is earlier than today's shift 2.
    expect(earlierThan(yesterday, view)).toBe("day");
  });

  it("shows the most recent ready number first and drops ready numbers after readyClearMinutes", () => {
    const view = boardView(base, [order(2, 1, "READY", 0, 1), order(2, 2, "READY", 0, 3)], T0 + 5 * 60_000);
    expect(view.ready.map((o) => o.number)).toEqual([2, 1]);
    expect(expireReady(view, T0 + 11.5 * 60_000).ready.map((o) => o.number)).toEqual([2]);
    expect(expireReady(view, T0 + 13 * 60_000).ready).toEqual([]);
    // Unchanged boards are returned as they are (no re-render).
    expect(expireReady(view, T0 + 5 * 60_000)).toBe(view);
  });

  it("moves an order between columns on an event and tells which numbers just became ready", () => {
    const before = boardView(base, [order(2, 1, "PLACED", 0), order(2, 2, "PLACED", 1)], T0 + 2 * 60_000);
    const after = applyToBoard(before, order(2, 2, "READY", 1, 2), T0 + 2 * 60_000);
    expect(after.preparing.map((o) => o.number)).toEqual([1]);
    expect(after.ready.map((o) => o.number)).toEqual([2]);
    expect(newlyReady(before, after).map((o) => o.number)).toEqual([2]);
    const collected = applyToBoard(after, order(2, 2, "COLLECTED", 1, 2), T0 + 3 * 60_000);
    expect(collected.ready).toEqual([]);
    expect(newlyReady(after, collected)).toEqual([]);
  });
});

describe("orders ahead of a customer", () => {
  const mine = order(2, 5, "PLACED", 10);
  it("counts orders still being prepared that were taken before it, whatever their shift", () => {
    const all = [order(1, 9, "PLACED", 1), order(2, 3, "PLACED", 8), order(2, 4, "READY", 9, 11), mine, order(2, 6, "PLACED", 12)];
    expect(aheadKeys(all, mine).sort()).toEqual([`${DAY}/1/9`, `${DAY}/2/3`]);
  });

  it("goes down and back up with live events", () => {
    let ahead: ReadonlySet<string> = new Set([`${DAY}/2/3`, `${DAY}/2/4`]);
    ahead = applyAhead(ahead, order(2, 3, "READY", 8, 11), mine);
    expect([...ahead]).toEqual([`${DAY}/2/4`]);
    // Undo in the kitchen: back to preparing, so ahead again.
    ahead = applyAhead(ahead, order(2, 3, "PLACED", 8), mine);
    expect(ahead.size).toBe(2);
    // A later order never counts; an unchanged set is the same object.
    expect(applyAhead(ahead, order(2, 6, "PLACED", 12), mine)).toBe(ahead);
    expect(applyAhead(ahead, order(2, 4, "PLACED", 9, null, { cleared: true }), mine).has(`${DAY}/2/4`)).toBe(false);
  });
});
