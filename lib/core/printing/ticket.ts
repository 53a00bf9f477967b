/**
 * What a printed ticket and a printer's test page say, as plain data in the restaurant's
 * language (the ESC/POS adapter lays it out), and the sizes that depend on the paper: the
 * characters per line and how large the number can print. Pure.
 */
import type { Locale } from "../locales";
import type { Service } from "../orders";
import type { Charset, PaperWidth } from "./printers";

export interface TicketLabels {
  title: string;
  scan: string;
  note: string;
  total: string;
  soldOut: string;
}

/** One order line on paper (a ticket's or a chit's). */
export interface PrintLine {
  /** The dish with its options, as lineLabel writes it: "Beef noodles · Large · Extra spicy". */
  name: string;
  quantity: number;
  /** The line's own note ("no coriander"); null: none. */
  note: string | null;
  /** Taken although sold out: the kitchen must see it. */
  soldOut: boolean;
}

export interface TicketContent {
  restaurant: string;
  /** The displayed number, e.g. "A-042" or "42". */
  number: string;
  /** Each with what the line comes to (its options included), formatted; null when it has no price. */
  items: (PrintLine & { price: string | null })[];
  /** "TAKE AWAY" or "EAT IN" in the restaurant's language; null when the order does not say. */
  service: string | null;
  note: string | null;
  /** Already formatted local time. */
  takenAt: string;
  /** Already formatted, or null when nothing is priced. */
  total: string | null;
  /** The customer's page (printed as a QR code). */
  url: string;
  labels: TicketLabels;
}

export interface TestPageContent {
  restaurant: string;
  printerName: string;
  at: string;
  paper: PaperWidth;
  charset: Charset;
  /** Localized lines (testPageLines). */
  lines: string[];
}

const LABELS: Record<Locale, TicketLabels> = {
  en: { title: "Your number", scan: "Scan to follow your order", note: "Note", total: "Total", soldOut: "SOLD OUT" },
  "zh-CN": { title: "您的号码", scan: "扫码查看订单进度", note: "备注", total: "合计", soldOut: "已售罄" },
};

/** The words of a ticket in `locale`. */
export const ticketLabels = (locale: Locale): TicketLabels => LABELS[locale];

const SERVICE_WORDS: Record<Locale, Record<Service, string>> = {
  en: { eatIn: "EAT IN", takeAway: "TAKE AWAY" },
  "zh-CN": { eatIn: "堂食", takeAway: "外带" },
};

/** An order's service as a ticket and a chit print it; null when the order does not say. */
export const serviceWord = (service: Service | null, locale: Locale): string | null => (service ? SERVICE_WORDS[locale][service] : null);

const PAPER_WORDS: Record<Locale, Record<PaperWidth, string>> = {
  en: { "80mm": "80 mm paper", "58mm": "58 mm paper" },
  "zh-CN": { "80mm": "80 毫米纸", "58mm": "58 毫米纸" },
};

/**
 * The lines of a test page in `locale`: what it is, the paper and character set the printer
 * is set up with, and a sample in that character set (Chinese for gb18030, accents for latin)
 * so a wrong setting shows as garbled text.
 */
export function testPageLines(locale: Locale, p: { paper: PaperWidth; charset: Charset }): string[] {
  const sample = p.charset === "gb18030" ? "中文：您的号码 A-042" : "Café, crème brûlée, 5 €";
  return locale === "zh-CN"
    ? ["测试页", "能看到这一页，说明打印正常。", PAPER_WORDS[locale][p.paper], `字符集：${p.charset}`, sample]
    : ["Test page", "If you can read this, printing works.", PAPER_WORDS[locale][p.paper], `Characters: ${p.charset}`, sample];
}

/** Characters per line of Font A (12 dots wide at 203 dpi). */
export function charsPerLine(paper: PaperWidth): number {
  return paper === "80mm" ? 48 : 32;
}

/** Printable width in dots (8 dots per mm, 203 dpi). */
export const dotsPerLine = (paper: PaperWidth): number => charsPerLine(paper) * 12;

/** receiptline's largest magnification. */
export const MAX_SCALE = 6;

/**
 * Columns `text` takes in Font A: 2 for East Asian wide and fullwidth characters, 0 for
 * combining marks, else 1 (as receiptline and the printer measure it). A GB18030 printer
 * prints every character outside ASCII two columns wide ("·", "¥" too), as receiptline counts them.
 */
export function textColumns(text: string, charset?: Charset): number {
  if (charset === "gb18030") return Array.from(text).reduce((n, c) => n + (c.codePointAt(0)! < 0x80 || c === "\u00a0" ? 1 : 2), 0);
  let n = 0;
  for (const c of text.normalize()) {
    if (/\p{M}/u.test(c)) continue;
    n +=
      /[\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6\u{20000}-\u{3FFFD}]/u.test(
        c,
      )
        ? 2
        : 1;
  }
  return n;
}

/** The largest character magnification (1..6, receiptline's maximum) at which `text` fits one line of `paper`. */
export function numberScale(text: string, paper: PaperWidth): number {
  const columns = Math.max(1, textColumns(text));
  return Math.max(1, Math.min(MAX_SCALE, Math.floor(charsPerLine(paper) / columns)));
}
