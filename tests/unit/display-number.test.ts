import { describe, expect, it } from "vitest";
import { displayNumber, withDisplay } from "@/lib/core/display-number";

describe("what screens show of a number (decision 0027)", () => {
  it("is the prefix and the number", () => {
    expect(displayNumber("K", 12)).toBe("K12");
    expect(displayNumber("", 12)).toBe("12");
  });

  it("keeps an order's display; gives one to an order from a node of the release before series, whose number had no prefix", () => {
    const shown = { key: "2026-11-25/1/K12/3", number: 12, prefix: "K", display: "K12" };
    expect(withDisplay(shown)).toBe(shown);
    expect(withDisplay({ key: "2026-11-25/1/12", number: 12 })).toEqual({ key: "2026-11-25/1/12", number: 12, prefix: "", display: "12" });
  });
});
