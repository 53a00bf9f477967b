import { describe, expect, it } from "vitest";
import { daysToJump, jumpLapsSeries, RESTORE_JUMP_MARGIN, restoreJump, restoreWindowSeconds } from "@/lib/core/restore-jump";

describe("the jump after a restore (decision 0046)", () => {
  it("measures the missing window from the backup to the restore, between a minute and a day", () => {
    const backup = new Date("2026-12-01T19:00:00Z");
    expect(restoreWindowSeconds(backup, new Date("2026-12-01T20:30:00Z"))).toBe(5_400);
    expect(restoreWindowSeconds(backup, new Date("2026-12-01T19:00:10Z"))).toBe(60);
    // A restore machine whose clock is behind the backup's still counts a minute.
    expect(restoreWindowSeconds(backup, new Date("2026-12-01T18:00:00Z"))).toBe(60);
    expect(restoreWindowSeconds(backup, new Date("2026-12-04T19:00:00Z"))).toBe(86_400);
  });

  it("jumps the margin of two Redis blocks plus the busiest window", () => {
    expect(RESTORE_JUMP_MARGIN).toBe(80);
    expect(restoreJump(0)).toBe(80);
    expect(restoreJump(61)).toBe(141);
  });

  it("jumps the restaurant's current business day and the one before", () => {
    const rule = { timeZone: "Asia/Shanghai", dayStartMinutes: 240 };
    // 02:00 in Shanghai, before the 04:00 day start: still 2026-12-01's business day.
    expect(daysToJump(new Date("2026-12-01T18:00:00Z"), rule)).toEqual(["2026-11-30", "2026-12-01"]);
    expect(daysToJump(new Date("2026-12-01T21:00:00Z"), rule)).toEqual(["2026-12-01", "2026-12-02"]);
  });

  it("says when a series comes round within the jump", () => {
    expect(jumpLapsSeries({ first: 1, last: null }, 10_000)).toBe(false);
    expect(jumpLapsSeries({ first: 1, last: 99 }, 98)).toBe(false);
    expect(jumpLapsSeries({ first: 1, last: 99 }, 99)).toBe(true);
    expect(jumpLapsSeries({ first: 300, last: 599 }, 141)).toBe(false);
  });
});
