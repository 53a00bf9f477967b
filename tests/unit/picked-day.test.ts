import { describe, expect, it } from "vitest";
import { formatPickedDay } from "@/app/_lib/format";

describe("formatPickedDay (decision 0056)", () => {
  it("writes a day in the page's language with its month in words, never as 11/28", () => {
    expect(formatPickedDay("2026-11-28", "zh-CN")).toBe("2026年11月28日周六");
    expect(formatPickedDay("2026-11-28", "en")).toMatch(/^Sat,? 28 Nov 2026$/);
  });

  it("leaves what is not a day as it came", () => {
    expect(formatPickedDay("someday", "en")).toBe("someday");
  });
});
