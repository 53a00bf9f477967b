import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { isCleanLine, isCleanText, lineText, multilineText } from "@/lib/core/text";

describe("text people type", () => {
  it("refuses NUL, escape, bell, DEL and C1 controls, and lone surrogates", () => {
    for (const bad of ["a\u0000b", "\u001b[31m", "bell\u0007", "del\u007f", "c1\u0085", "half \ud800", "\udc00 half"]) {
      expect(isCleanLine(bad), JSON.stringify(bad)).toBe(false);
      expect(isCleanText(bad), JSON.stringify(bad)).toBe(false);
    }
  });
  it("keeps line breaks and tabs only where text may span lines", () => {
    expect(isCleanText("no onions\r\nextra spicy\tplease")).toBe(true);
    expect(isCleanLine("no onions\nextra spicy")).toBe(false);
  });
  it("accepts any text without controls: Chinese, emoji (surrogate pairs), accents", () => {
    for (const ok of ["牛肉面", "Crème brûlée", "🍜 x2", "='quoted'"]) expect(isCleanLine(ok)).toBe(true);
    fc.assert(fc.property(fc.string({ unit: "grapheme" }), (s) => isCleanLine(s) === !/[\u0000-\u001F\u007F-\u009F]|(?![\u200C\u200D])\p{Cf}/u.test(s)));
  });
  it("refuses bidi overrides and isolates and other invisible format characters, but keeps the joiners emoji and scripts need", () => {
    for (const bad of ["Dumplings\u202E sgnilpmuD", "\u2066note\u2069", "rtl\u200Fmark", "zero\u200Bwidth", "\uFEFFbom", "soft\u00ADhyphen"]) {
      expect(isCleanLine(bad), JSON.stringify(bad)).toBe(false);
      expect(isCleanText(bad), JSON.stringify(bad)).toBe(false);
    }
    for (const ok of ["👨‍🍳 special", "می‌خواهم"]) expect(isCleanLine(ok), ok).toBe(true);
  });
  it("names the field in the message and trims", () => {
    expect(lineText("Item name").safeParse("Te\u0000a").error?.issues[0]?.message).toBe(
      "Item name contains a control character, an invisible formatting character or broken text",
    );
    expect(multilineText("Note").parse("  two\nlines  ")).toBe("two\nlines");
  });
});
