/**
 * The board's auto-fit layout: the largest numbers that still fit their column as a grid,
 * so a quiet afternoon shows huge numbers and a busy lunch still shows all of them.
 */
import { GLYPH, numberWidth } from "@/app/_lib/number-width";

/** Layout of a number cell, in em of the number's font size: shared by fitGrid and the list's style. */
export const CELL = { ...GLYPH, padX: 0.5, gapX: 0.35, line: 1.2, gapY: 0.2 };

/** The width (em) of a displayed number's text ("K12", "12"): at least two digits', so 1–99 keep one cell size. */
export const textWidth = (display: string): number => numberWidth(display, 2);

/** Before the column is measured (server render): size by count, so a busy lunch still fits. */
export function fallbackSize(count: number, column: "preparing" | "ready"): string {
  const [vw, vh] = count <= 4 ? [9, 15] : count <= 9 ? [6.5, 11] : count <= 16 ? [5, 8.5] : count <= 30 ? [3.8, 6.5] : [2.8, 4.8];
  const scale = column === "ready" ? 1 : 0.72;
  return `min(${(vw * scale).toFixed(2)}vw, ${(vh * scale).toFixed(2)}vh)`;
}

/**
 * The largest font size (px) at which `count` numbers whose text is up to `text` em wide
 * (textWidth) fit a box of `width` × `height` as a grid, never above `max`; and how many
 * columns that grid has.
 */
export function fitGrid(width: number, height: number, count: number, text: number, max: number): { fontSize: number; cols: number } {
  const layout = (f: number) => {
    const itemW = f * (text + CELL.padX);
    const gapX = f * CELL.gapX;
    const cols = Math.max(1, Math.floor((width + gapX) / (itemW + gapX)));
    const rows = Math.ceil(Math.max(count, 1) / cols);
    return { cols, fits: itemW <= width && rows * f * CELL.line + (rows - 1) * f * CELL.gapY <= height };
  };
  let lo = 6;
  let hi = Math.max(lo, max);
  if (!layout(hi).fits) {
    for (let i = 0; i < 18; i++) {
      const mid = (lo + hi) / 2;
      if (layout(mid).fits) lo = mid;
      else hi = mid;
    }
    hi = lo;
  }
  const fontSize = Math.floor(hi);
  return { fontSize, cols: layout(fontSize).cols };
}

/**
 * The count a column is sized for: the next step at or above `count` (steps about 25 % apart),
 * so the numbers keep their size while a few orders come and go and shrink only when the
 * board passes a step (each size change moves every number: a layout shift on a TV).
 */
export function capacityFor(count: number): number {
  let step = 4;
  while (step < count) step = Math.max(step + 2, Math.ceil(step * 1.25));
  return step;
}
