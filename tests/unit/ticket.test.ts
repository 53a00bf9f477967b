import { describe, expect, it } from "vitest";
import { clampItems, hasMarks, itemLines, keepSpot, moveSpot, ticketChannel, ticketMarks, wideNote, WIDE_NOTE, type TicketSpot } from "@/lib/core/ticket";

const grid = (index: number): TicketSpot => ({ area: "grid", index });
const side = (index: number): TicketSpot => ({ area: "side", index });

describe("a ticket of fixed height", () => {
  it("shows what fits and says how many more, on the last line", () => {
    expect(clampItems(["a", "b", "c"], 3)).toEqual({ shown: ["a", "b", "c"], more: 0, moreInline: false });
    expect(clampItems(["a", "b", "c", "d"], 3)).toEqual({ shown: ["a", "b"], more: 2, moreInline: false });
    // One line (a note and a channel badge took the others): the first dish and "+2 more" share it.
    expect(clampItems(["a", "b", "c"], 1)).toEqual({ shown: ["a"], more: 2, moreInline: true });
    expect(clampItems(["a"], 0)).toEqual({ shown: ["a"], more: 0, moreInline: false });
  });

  it("counts the lines each item takes: a dish whose options wrap, or with a note under it, takes two or more", () => {
    // 3 lines: a two-line dish and a one-line dish fit exactly.
    expect(clampItems(["a", "b"], 3, [2, 1])).toEqual({ shown: ["a", "b"], more: 0, moreInline: false });
    // One more item: a line goes to "+N more", so only the two-line dish stays.
    expect(clampItems(["a", "b", "c"], 3, [2, 1, 1])).toEqual({ shown: ["a"], more: 2, moreInline: false });
    expect(clampItems(["a", "b", "c", "d"], 6, [1, 3, 1, 1])).toEqual({ shown: ["a", "b", "c", "d"], more: 0, moreInline: false });
    expect(clampItems(["a", "b", "c", "d"], 5, [1, 3, 1, 1])).toEqual({ shown: ["a", "b"], more: 2, moreInline: false });
    // The first dish is always shown, even taller than the room: "+N more" then goes under it, never squeezing its words.
    expect(clampItems(["a", "b"], 3, [4, 1])).toEqual({ shown: ["a"], more: 1, moreInline: false });
    expect(clampItems(["a", "b"], 3, [3, 1])).toEqual({ shown: ["a"], more: 1, moreInline: false });
    // One line for items and a one-line dish: they share it, as ever.
    expect(clampItems(["a", "b"], 1, [1, 2])).toEqual({ shown: ["a"], more: 1, moreInline: true });
    expect(clampItems(["a"], 3, [5])).toEqual({ shown: ["a"], more: 0, moreInline: false });
    // Missing or nonsense costs count as one line.
    expect(clampItems(["a", "b", "c"], 3, [0])).toEqual({ shown: ["a", "b", "c"], more: 0, moreInline: false });
  });

  it("gives the badge row and the note a line each, never less than one line to items", () => {
    expect(itemLines(3, { badges: false, noteLines: 0 })).toBe(3);
    expect(itemLines(3, { badges: true, noteLines: 1 })).toBe(1);
    expect(itemLines(5, { badges: true, noteLines: 1 })).toBe(3);
    expect(itemLines(1, { badges: true, noteLines: 1 })).toBe(1);
  });

  it("sets a ticket with a long note two columns wide; a Chinese character counts as two letters", () => {
    expect(wideNote(null)).toBe(false);
    expect(wideNote("No peanuts, allergy")).toBe(false);
    expect(wideNote("x".repeat(WIDE_NOTE))).toBe(false);
    expect(wideNote("x".repeat(WIDE_NOTE + 1))).toBe(true);
    expect(wideNote("花".repeat(WIDE_NOTE / 2))).toBe(false);
    expect(wideNote("花".repeat(WIDE_NOTE / 2 + 1))).toBe(true);
  });

  it("names the channel unless it is the kiosk; an unknown one by its own word", () => {
    expect(ticketChannel("kiosk")).toBeNull();
    expect(ticketChannel("")).toBeNull();
    expect(ticketChannel("delivery")).toEqual({ kind: "delivery", word: "delivery" });
    expect(ticketChannel(" POS ")).toEqual({ kind: "pos", word: "pos" });
    expect(ticketChannel("ubereats")).toEqual({ kind: "other", word: "ubereats" });
  });
});

describe("arrow keys over the tickets", () => {
  // 12 tickets in 5 columns (rows 0–4, 5–9, 10–11) and 3 in the pickup column.
  const counts = { grid: 12, side: 3 };
  const move = (at: TicketSpot | null, key: "left" | "right" | "up" | "down") => moveSpot(counts, 5, at, key);

  it("selects the first ticket with nothing selected, and nothing when there are no tickets", () => {
    expect(move(null, "down")).toEqual(grid(0));
    expect(moveSpot({ grid: 0, side: 2 }, 5, null, "left")).toEqual(side(0));
    expect(moveSpot({ grid: 0, side: 0 }, 5, null, "right")).toBeNull();
  });

  it("walks ←/→ in reading order, from the grid into the pickup column and back, stopping at the ends", () => {
    expect(move(grid(4), "right")).toEqual(grid(5));
    expect(move(grid(11), "right")).toEqual(side(0));
    expect(move(side(0), "left")).toEqual(grid(11));
    expect(move(grid(0), "left")).toEqual(grid(0));
    expect(move(side(2), "right")).toEqual(side(2));
  });

  it("moves ↑/↓ a row in the grid; into a shorter last row it lands on that row's last ticket", () => {
    expect(move(grid(1), "down")).toEqual(grid(6));
    expect(move(grid(6), "up")).toEqual(grid(1));
    expect(move(grid(2), "up")).toEqual(grid(2));
    expect(move(grid(8), "down")).toEqual(grid(11));
    expect(move(grid(11), "down")).toEqual(grid(11));
  });

  it("moves ↑/↓ one row in the pickup column, without climbing into the grid", () => {
    expect(move(side(0), "down")).toEqual(side(1));
    expect(move(side(2), "down")).toEqual(side(2));
    expect(move(side(0), "up")).toEqual(side(0));
  });
});

describe("the selection as the screen changes", () => {
  const ids = { grid: ["a", "b", "c"], side: ["r"] };

  it("follows its ticket while it stays in its pile", () => {
    expect(keepSpot({ grid: ["x", "a", "b", "c"], side: [] }, { area: "grid", index: 0, id: "a" })).toEqual({ area: "grid", index: 1, id: "a" });
  });

  it("passes to the ticket now in its place when its ticket left (bumped), or the last one", () => {
    expect(keepSpot(ids, { area: "grid", index: 1, id: "gone" })).toEqual({ area: "grid", index: 1, id: "b" });
    expect(keepSpot(ids, { area: "grid", index: 7, id: "gone" })).toEqual({ area: "grid", index: 2, id: "c" });
    expect(keepSpot({ grid: [], side: ["r"] }, { area: "grid", index: 0, id: "gone" })).toBeNull();
    expect(keepSpot(ids, null)).toBeNull();
  });
});

describe("what marks a ticket", () => {
  const today = { shift: 2, businessDay: "2026-11-25" };

  it("marks an earlier shift of today, and a channel other than the kiosk", () => {
    expect(ticketMarks({ shift: 1, channel: "kiosk", businessDay: "2026-11-25" }, today)).toEqual({
      earlierDay: false,
      earlierShift: true,
      channel: null,
      takeAway: false,
    });
    expect(ticketMarks({ shift: 2, channel: "delivery" }, today)).toEqual({
      earlierDay: false,
      earlierShift: false,
      channel: { kind: "delivery", word: "delivery" },
      takeAway: false,
    });
    expect(hasMarks(ticketMarks({ shift: 2, channel: "kiosk", businessDay: "2026-11-25" }, today))).toBe(false);
  });

  it("marks an order of an earlier business day as such, not as an earlier shift (its shift is of that day)", () => {
    expect(ticketMarks({ shift: 3, channel: "kiosk", businessDay: "2026-11-24" }, today)).toEqual({
      earlierDay: true,
      earlierShift: false,
      channel: null,
      takeAway: false,
    });
    expect(ticketMarks({ shift: 1, channel: "kiosk", businessDay: "2025-12-31" }, today).earlierDay).toBe(true);
  });

  it("marks a take-away order (it is packed); eating in, or no service stated (an order before issue #41), marks nothing", () => {
    const kiosk = { shift: 2, channel: "kiosk", businessDay: "2026-11-25" };
    expect(ticketMarks({ ...kiosk, service: "takeAway" }, today).takeAway).toBe(true);
    expect(hasMarks(ticketMarks({ ...kiosk, service: "takeAway" }, today))).toBe(true);
    for (const service of ["eatIn", null, undefined] as const) expect(hasMarks(ticketMarks({ ...kiosk, service }, today)), String(service)).toBe(false);
  });
});
