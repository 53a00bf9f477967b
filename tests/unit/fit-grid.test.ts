import { describe, expect, it } from "vitest";
import { capacityFor, CELL, fitGrid, textWidth } from "@/app/[tenant]/board/fit-grid";

describe("the board's fitted grid", () => {
  it("sizes a column for steps of counts, so a few orders more or less keep the numbers' size", () => {
    const steps = [...new Set(Array.from({ length: 120 }, (_, i) => capacityFor(i + 1)))];
    expect(steps.slice(0, 8)).toEqual([4, 6, 8, 10, 13, 17, 22, 28]);
    for (let n = 1; n <= 120; n++) expect(capacityFor(n)).toBeGreaterThanOrEqual(n);
    // Never more than ~30 % (or 2) above the count: the numbers stay as large as they can be.
    for (let n = 4; n <= 120; n++) expect(capacityFor(n)).toBeLessThanOrEqual(Math.max(n + 2, Math.ceil(n * 1.3)));
    const size = (n: number) => fitGrid(900, 700, capacityFor(n), 1.4, 400).fontSize;
    expect(new Set([23, 24, 25, 26, 27, 28].map(size)).size).toBe(1);
  });

  it("fits the count it is given in the box", () => {
    const { fontSize, cols } = fitGrid(900, 700, 40, 1.4, 400);
    const rows = Math.ceil(40 / cols);
    expect(rows * fontSize * 1.2 + (rows - 1) * fontSize * 0.2).toBeLessThanOrEqual(700);
    expect(fitGrid(900, 700, 41, 1.4, 400).fontSize).toBeLessThanOrEqual(fontSize);
  });

  it("makes room for a series' prefix: a cell is as wide as its letters and digits (decision 0027)", () => {
    // 1–99 keep the size they always had.
    expect(textWidth("7")).toBe(textWidth("42"));
    expect(textWidth("K12")).toBeCloseTo(CELL.letter + 2 * CELL.digit);
    expect(textWidth("WM1")).toBeCloseTo(2 * CELL.wideLetter + CELL.digit);
    expect(textWidth("K123")).toBeGreaterThan(textWidth("123"));
    // Four characters at TV size: six ready numbers in a 1920×1080 board's ready column are still over 100 px tall.
    const { fontSize, cols } = fitGrid(1100, 850, capacityFor(6), textWidth("KD12"), 850 * 0.45);
    expect(cols * fontSize * (textWidth("KD12") + CELL.padX)).toBeLessThanOrEqual(1100);
    expect(fontSize).toBeGreaterThan(100);
  });
});
