/**
 * A ticket, a station's chit and a test page as ESC/POS bytes, laid out in ReceiptLine markup and rendered by
 * receiptline. Every text people typed is escaped first (a dish named "=====" or "{image:…}"
 * must print as itself, not cut the paper). The QR code is the printer's own (GS ( k), not
 * a raster image: sharper, and a fraction of the bytes.
 */
import * as receiptline from "receiptline";
import type { Charset, PaperWidth } from "@/lib/core/printing/printers";
import { charsPerLine, dotsPerLine, numberScale, textColumns, type PrintLine, type TestPageContent, type TicketContent } from "@/lib/core/printing/ticket";
import { wrapWords, type ChitContent } from "@/lib/core/printing/chit";

/** receiptline's encoding for each of our character sets. */
const ENCODING: Record<Charset, "multilingual" | "gb18030"> = { latin: "multilingual", gb18030: "gb18030" };

/** Characters with a meaning in ReceiptLine text (its README, "Special characters in text"). */
const SPECIAL = /[\\|{}\-=~_"`^]/g;

/**
 * `s` as ReceiptLine text that prints exactly as typed, on one line: line breaks, tabs and
 * other control characters become spaces, invisible format characters go, and each special
 * character becomes a hexadecimal escape (\x7c for "|"), which receiptline only turns back
 * into the character after parsing the line.
 */
export function escapeReceiptText(s: string): string {
  return s
    .replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, " ")
    .replace(/\p{Cf}/gu, "")
    .replace(/ {2,}/g, " ")
    .trim()
    .replace(SPECIAL, (c) => `\\x${c.charCodeAt(0).toString(16)}`);
}

/** Bytes as a ReceiptLine `command` property value: each one a hexadecimal escape. */
const rawCommand = (bytes: Uint8Array): string => `{command:${Array.from(bytes, (b) => `\\x${b.toString(16).padStart(2, "0")}`).join("")}}`;

/** receiptline's size marks: none for 1x, else "^^^" (2x) … "^^^^^^^" (6x). */
const scaleMarks = (scale: number): string => (scale <= 1 ? "" : "^".repeat(Math.min(scale, 6) + 1));

const GS = 0x1d;
/** GS ( k, QR Code (cn 49): fn 65 model, 67 module size, 69 error correction, 80 store, 81 print. */
const QR = { model: 0x41, size: 0x43, level: 0x45, store: 0x50, print: 0x51 } as const;
const QR_MODEL_2 = 0x32;
const QR_LEVEL_M = 0x31;
const qrFunction = (fn: number, params: readonly number[]): number[] => {
  const n = params.length + 2;
  return [GS, 0x28, 0x6b, n & 0xff, n >> 8, 0x31, fn, ...params];
};

/** The largest module size (4..8 dots) at which the QR code of `data` and its quiet zone fit the paper. */
export function qrModuleSize(data: string, paper: PaperWidth): number {
  const modules = receiptline.qrcode.generate({ data, type: "qrcode", cell: 1, level: "m" }).length + 8;
  for (let size = 8; size > 4; size--) if (modules * size <= dotsPerLine(paper)) return size;
  return 4;
}

/** The printer's own QR code of `data` (model 2, level M), centered by the line around it. */
export function qrCommand(data: string, paper: PaperWidth): Uint8Array {
  const payload = Buffer.from(data, "utf8");
  return Uint8Array.from([
    ...qrFunction(QR.model, [QR_MODEL_2, 0x00]),
    ...qrFunction(QR.size, [qrModuleSize(data, paper)]),
    ...qrFunction(QR.level, [QR_LEVEL_M]),
    ...qrFunction(QR.store, [0x30, ...payload]),
    ...qrFunction(QR.print, [0x30]),
  ]);
}

function render(doc: string[], p: { paper: PaperWidth; charset: Charset }): Buffer {
  const out = receiptline.transform(doc.join("\n"), { cpl: charsPerLine(p.paper), encoding: ENCODING[p.charset], command: "escpos", cutting: true });
  return Buffer.from(out, "binary");
}

/** An order's service under its number: twice the size, inverted, so no one plates what is to be packed. */
const serviceRow = (service: string | null): string[] => (service ? [`^^^\`${escapeReceiptText(service)}\``] : []);

/**
 * Order lines as a table: "2 ×", the dish with its options and, when any line has one, its
 * price on the right; under the dish its sold-out flag (inverted) and its note (bold). Names
 * and notes are wrapped between words to the dish's column (receiptline would break inside
 * them), every word printed. `tall`: double height, as a chit prints them for the cooks.
 */
function lineRows(
  lines: readonly (PrintLine & { price?: string | null })[],
  soldOut: string,
  p: { paper: PaperWidth; charset: Charset },
  tall = false,
): string[] {
  const e = escapeReceiptText;
  const big = tall ? "^^" : "";
  // "×" is a wide character in GB18030 fonts: room for two columns.
  const qtyWidth = Math.max(0, ...lines.map((l) => String(l.quantity).length + 3));
  const priceWidth = Math.max(0, ...lines.map((l) => textColumns(l.price ?? "", p.charset)));
  // One space between columns (border:space).
  const nameWidth = Math.max(4, charsPerLine(p.paper) - qtyWidth - 1 - (priceWidth > 0 ? priceWidth + 1 : 0));
  const wrap = (text: string) => wrapWords(text, nameWidth, p.charset);
  const under = (text: string) => (priceWidth > 0 ? `~|${text} |~` : `~|${text}`);
  const rows = [priceWidth > 0 ? `{width:${qtyWidth},*,${priceWidth}}` : `{width:${qtyWidth},*}`];
  for (const line of lines) {
    const [first = "", ...rest] = wrap(line.name);
    const price = priceWidth > 0 ? ` | ${big}${e(line.price ?? "")}` : "";
    rows.push(`${big}${line.quantity} ×|${big}${e(first)}${price}`, ...rest.map((r) => under(`${big}${e(r)}`)));
    if (line.soldOut) rows.push(under(`${big}\`${e(soldOut)}\``));
    if (line.note) rows.push(...wrap(line.note).map((n) => under(`${big}"${e(n)}"`)));
  }
  rows.push("{width:auto}");
  return rows;
}

/** A customer's ticket: restaurant, number (as large as it fits), eat in or take away, items with their prices, note, time, total, QR of the customer's page, cut. */
export function ticketBytes(t: TicketContent, p: { paper: PaperWidth; charset: Charset }): Buffer {
  const e = escapeReceiptText;
  const doc = [
    "{width:auto; border:space; text:wrap; align:center}",
    `^^^${e(t.restaurant)}`,
    "",
    e(t.labels.title),
    `${scaleMarks(numberScale(t.number, p.paper))}${e(t.number)}`,
    ...serviceRow(t.service),
    "---",
  ];
  if (t.items.length > 0) doc.push(...lineRows(t.items, t.labels.soldOut, p), "---");
  const note = t.note === null ? "" : e(t.note);
  if (note) doc.push(`"${e(t.labels.note)}:" ${note} |`);
  doc.push(e(t.takenAt));
  if (t.total !== null) doc.push(`"${e(t.labels.total)}" | "${e(t.total)}"`);
  doc.push("", rawCommand(qrCommand(t.url, p.paper)), e(t.labels.scan));
  return render(doc, p);
}

/**
 * A station's kitchen chit: the station, the number as large as it fits, eat in or take
 * away, the channel and time, the station's lines in double height with their options,
 * sold-out flags and notes, the whole note (wrapped), cut. No QR code.
 */
export function chitBytes(c: ChitContent, p: { paper: PaperWidth; charset: Charset }): Buffer {
  const e = escapeReceiptText;
  const doc = [
    "{width:auto; border:space; text:wrap; align:center}",
    `^^^${e(c.station)}`,
    `${scaleMarks(numberScale(c.number, p.paper))}${e(c.number)}`,
    ...serviceRow(c.service),
    `${e(c.channel)} ${e(c.takenAt)}`,
    "---",
  ];
  if (c.items.length > 0) doc.push(...lineRows(c.items, c.labels.soldOut, p, true), "---");
  if (c.note !== null && c.note.trim()) {
    // Wrapped between words here (receiptline breaks inside them), every word printed: a cut note could drop an allergy.
    const label = `${c.labels.note}:`;
    const [first = "", ...rest] = wrapWords(`${label} ${c.note}`, charsPerLine(p.paper), p.charset);
    const head = first.startsWith(label) ? `"${e(label)}" ${e(first.slice(label.length))}` : e(first);
    doc.push(`${head} |`, ...rest.map((l) => `${e(l)} |`), "---");
  }
  return render(doc, p);
}

/** A printer's test page: who and what it is set up as, localized lines, and a ruler the width of a line (it wraps if the paper setting is too wide). */
export function testPageBytes(t: TestPageContent, p: { paper: PaperWidth; charset: Charset }): Buffer {
  const e = escapeReceiptText;
  const cpl = charsPerLine(p.paper);
  const ruler = "1234567890".repeat(Math.ceil(cpl / 10)).slice(0, cpl);
  const doc = [
    "{width:auto; border:space; text:wrap; align:center}",
    `^^^${e(t.restaurant)}`,
    e(t.printerName),
    e(t.at),
    "---",
    ...t.lines.map(e),
    "---",
    ruler,
  ];
  return render(doc, p);
}
