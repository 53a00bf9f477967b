/**
 * How wide a displayed number ("K12", "12") is, in em of its font size, so a screen can
 * size it to fit before any font has loaded: the board's tiles, the customer's "your
 * number". The widths are the widest glyphs of the heaviest system sans a screen may pick
 * (DejaVu Sans Bold, Debian's: digits 0.70, W 1.10, M 1.00, every other capital at most
 * 0.85; Roboto and Arial are narrower), so a number never overflows the room made for it.
 */
export const GLYPH = { digit: 0.7, letter: 0.86, wideLetter: 1.1 };

/** The width (em) of `display`, at least `minDigits` digits' (1–99 keep one size on the board). */
export function numberWidth(display: string, minDigits = 0): number {
  let em = 0;
  for (const c of display) em += c >= "0" && c <= "9" ? GLYPH.digit : c === "W" || c === "M" ? GLYPH.wideLetter : GLYPH.letter;
  return Math.max(minDigits * GLYPH.digit, em);
}
