import { describe, expect, it } from "vitest";
import { transform } from "receiptline";
import { charsPerLine, numberScale, testPageLines, ticketLabels, type TicketContent } from "@/lib/core/printing/ticket";
import { escapeReceiptText, testPageBytes, ticketBytes } from "@/lib/adapters/printers/escpos.server";
import { decodeEscPos } from "../support/escpos-decode";

const URL_ = "https://q.example.com/alpha/o/0f9e8d7c-6b5a-4c3d-9e2f-1a0b9c8d7e6f?lang=en";

/** A line as the ticket prints it: no note, not sold out, no price unless given. */
const line = (name: string, quantity: number, over: Partial<TicketContent["items"][number]> = {}): TicketContent["items"][number] => ({
  name,
  quantity,
  note: null,
  soldOut: false,
  price: null,
  ...over,
});

const ticket = (over: Partial<TicketContent> = {}): TicketContent => ({
  restaurant: "Alpha Noodles",
  number: "A-042",
  items: [line("Beef noodles", 2), line("Iced tea", 1)],
  service: null,
  note: "No onions",
  takenAt: "12:04",
  total: "€18.50",
  url: URL_,
  labels: ticketLabels("en"),
  ...over,
});

/** Renders ReceiptLine text with receiptline and reads it back. */
const rendered = (doc: string, charset: "latin" | "gb18030" = "latin") =>
  decodeEscPos(
    Buffer.from(transform(doc, { cpl: 48, encoding: charset === "latin" ? "multilingual" : "gb18030", command: "escpos", cutting: false }), "binary"),
    charset,
  );

describe("charsPerLine and numberScale", () => {
  it("Font A: 48 characters on 80 mm, 32 on 58 mm", () => {
    expect(charsPerLine("80mm")).toBe(48);
    expect(charsPerLine("58mm")).toBe(32);
  });
  it("the largest magnification up to 6 at which the number fits a line", () => {
    expect(numberScale("7", "80mm")).toBe(6);
    expect(numberScale("7", "58mm")).toBe(6);
    expect(numberScale("42", "80mm")).toBe(6);
    expect(numberScale("42", "58mm")).toBe(6);
    expect(numberScale("A-042", "80mm")).toBe(6); // 30 of 48
    expect(numberScale("A-042", "58mm")).toBe(6); // 30 of 32
    expect(numberScale("ABC-9999", "80mm")).toBe(6); // 48 of 48
    expect(numberScale("ABC-9999", "58mm")).toBe(4); // 32 of 32
    expect(numberScale("ABC-99999999", "58mm")).toBe(2); // 24 of 32
    expect(numberScale("号码12", "58mm")).toBe(5); // wide characters count twice: 6 columns
    expect(numberScale("X".repeat(40), "58mm")).toBe(1);
  });
});

describe("ticketLabels and testPageLines", () => {
  it("come in English and Chinese", () => {
    expect(ticketLabels("en")).toEqual({ title: "Your number", scan: "Scan to follow your order", note: "Note", total: "Total", soldOut: "SOLD OUT" });
    expect(ticketLabels("zh-CN")).toEqual({ title: "您的号码", scan: "扫码查看订单进度", note: "备注", total: "合计", soldOut: "已售罄" });
    expect(testPageLines("zh-CN", { paper: "58mm", charset: "gb18030" })).toContain("58 毫米纸");
    expect(testPageLines("en", { paper: "80mm", charset: "latin" })).toContain("80 mm paper");
  });
});

describe("escapeReceiptText", () => {
  const hostile = [
    "|",
    "a | b | c",
    "=====",
    "=",
    "-----",
    "{image:iVBORw0KGgo=}",
    "{code:https://evil.example;option:qrcode,8}",
    "{command:\\x1dVB\\x00}",
    "\\x1dVB\\x00",
    "^^^^^^^huge",
    '"bold" _under_ `inv` ~tilde~',
    "back\\slash \\n \\{ \\|",
    "} {",
  ];
  it("prints each hostile string exactly as typed, with no command of its own", () => {
    for (const s of hostile) {
      const out = rendered(escapeReceiptText(s));
      expect(out.lines.filter(Boolean), s).toEqual([s]);
      expect(out.cuts + out.qr.length + out.images + out.barcodes, s).toBe(0);
      expect(out.scales.every((r) => r.width === 1 && r.height === 1)).toBe(true);
    }
  });
  it("flattens line breaks, tabs and control characters to one line; drops invisible format characters", () => {
    expect(escapeReceiptText("one\ntwo\r\nthree\tfour\u0000five\u2028six")).toBe("one two three four five six");
    expect(escapeReceiptText("a\u202eb\u200bc")).toBe("abc");
    expect(rendered(escapeReceiptText("line\n=====\n{image:x}")).lines.filter(Boolean)).toEqual(["line ===== {image:x}"]);
  });
  it("keeps the text itself, accents and Chinese included", () => {
    expect(rendered(escapeReceiptText("Crème brûlée")).lines.filter(Boolean)).toEqual(["Crème brûlée"]);
    expect(rendered(escapeReceiptText("牛肉面 | 大碗"), "gb18030").lines.filter(Boolean)).toEqual(["牛肉面 | 大碗"]);
  });
});

describe("ticketBytes", () => {
  it("prints the number at the scale that fits, the URL as the printer's own QR code, items, note, time, total and one cut", () => {
    for (const paper of ["80mm", "58mm"] as const) {
      const out = decodeEscPos(ticketBytes(ticket({ number: "ABC-9999" }), { paper, charset: "latin" }), "latin");
      const scale = paper === "80mm" ? 6 : 4;
      expect(out.scales).toContainEqual({ text: "ABC-9999", width: scale, height: scale });
      expect(out.scales).toContainEqual({ text: "Alpha Noodles", width: 2, height: 2 });
      expect(out.qr).toEqual([URL_]);
      expect(out.cuts).toBe(1);
      expect(out.images).toBe(0);
      expect(out.lines).toContain("Your number");
      expect(out.lines).toContain("2 × Beef noodles");
      expect(out.lines).toContain("1 × Iced tea");
      expect(out.lines).toContain("Note: No onions");
      expect(out.lines).toContain("12:04");
      expect(out.lines).toContain("Total €18.50");
      expect(out.lines).toContain("Scan to follow your order");
      // The QR code and its quiet zone fit the paper (576 or 384 dots).
      expect(out.qrModuleSizes).toHaveLength(1);
      expect(out.qrModuleSizes[0]).toBeGreaterThanOrEqual(4);
      expect(out.qrModuleSizes[0]).toBeLessThanOrEqual(8);
    }
  });

  it("leaves out the note and total when there are none", () => {
    const out = decodeEscPos(ticketBytes(ticket({ note: null, total: null }), { paper: "80mm", charset: "latin" }), "latin");
    expect(out.lines.some((l) => l.startsWith("Note"))).toBe(false);
    expect(out.lines.some((l) => l.startsWith("Total"))).toBe(false);
    expect(out.qr).toEqual([URL_]);
  });

  it("latin: accented names through the multilingual code pages", () => {
    const out = decodeEscPos(ticketBytes(ticket({ restaurant: "Café Léa", items: [line("Crème brûlée", 3)] }), { paper: "58mm", charset: "latin" }), "latin");
    expect(out.lines).toContain("3 × Crème brûlée");
    expect(out.scales).toContainEqual({ text: "Café Léa", width: 2, height: 2 });
  });

  it("gb18030: Chinese names, note and labels", () => {
    const t = ticket({
      restaurant: "老王面馆",
      number: "42",
      items: [line("红烧牛肉面", 2), line("冰红茶", 1)],
      note: "不要香菜，少辣",
      total: "¥36.00",
      labels: ticketLabels("zh-CN"),
    });
    const out = decodeEscPos(ticketBytes(t, { paper: "58mm", charset: "gb18030" }), "gb18030");
    expect(out.scales).toContainEqual({ text: "老王面馆", width: 2, height: 2 });
    expect(out.scales).toContainEqual({ text: "42", width: 6, height: 6 });
    expect(out.lines).toContain("您的号码");
    expect(out.lines).toContain("2 × 红烧牛肉面");
    expect(out.lines).toContain("1 × 冰红茶");
    expect(out.lines).toContain("备注: 不要香菜，少辣");
    expect(out.lines).toContain("合计 ¥36.00");
    expect(out.lines).toContain("扫码查看订单进度");
    expect(out.qr).toEqual([URL_]);
    expect(out.cuts).toBe(1);
  });

  it("hostile names, note and restaurant print as text: no extra cut, QR code or image", () => {
    const t = ticket({
      restaurant: "=====",
      items: [
        line("{image:iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABSK+kcQAAAABJRU5ErkJggg==}", 1),
        line("{code:https://evil.example;option:qrcode,8,h}", 1),
        line("=\n=====\n-----", 1),
        line("a | b | c", 4),
        line("{command:\\x1dVB\\x00}", 1),
      ],
      note: "=====\n{code:x;option:qrcode}\n\\x1dV\\x42\\x00",
    });
    const out = decodeEscPos(ticketBytes(t, { paper: "80mm", charset: "latin" }), "latin");
    expect(out.cuts).toBe(1);
    expect(out.qr).toEqual([URL_]);
    expect(out.images).toBe(0);
    expect(out.barcodes).toBe(0);
    // Long names wrap at the column's edge: read the text as one.
    const text = out.lines.join("");
    expect(text).toContain("1 × {code:https://evil.example;option:qrcode,8,h}");
    expect(text).toContain("1 × {image:iVBORw0KGgo");
    expect(out.lines).toContain("1 × = ===== -----");
    expect(out.lines).toContain("4 × a | b | c");
    expect(out.lines).toContain("1 × {command:\\x1dVB\\x00}");
    expect(out.lines).toContain("Note: ===== {code:x;option:qrcode} \\x1dV\\x42\\x00");
    expect(out.scales).toContainEqual({ text: "=====", width: 2, height: 2 });
  });
});

describe("ticketBytes with options, line notes and the service (issue #41)", () => {
  const noodles = ticket({
    service: "TAKE AWAY",
    items: [
      line("Beef noodles · Large · Extra spicy", 2, { note: "no coriander", price: "€29.00" }),
      line("Pork buns", 1, { soldOut: true, price: "€4.50" }),
      line("Iced tea", 1),
    ],
    note: null,
    total: "€33.50",
  });

  for (const paper of ["80mm", "58mm"] as const) {
    it(`${paper}: each dish with its options and price, its note and sold-out flag under it, TAKE AWAY large; every word, none past the paper's edge`, () => {
      const cpl = charsPerLine(paper);
      const out = decodeEscPos(ticketBytes(noodles, { paper, charset: "latin" }), "latin");
      expect(out.scales).toContainEqual({ text: "TAKE AWAY", width: 2, height: 2 });
      // The take-away mark comes right under the number, before the lines.
      const at = (text: string) => out.lines.findIndex((l) => l.includes(text));
      expect(at("TAKE AWAY")).toBeGreaterThan(at("A-042"));
      expect(at("TAKE AWAY")).toBeLessThan(at("Beef noodles"));
      // Wrapped between words: the words of the label are whole, in order, the price on the first row.
      const first = out.lines[at("2 × Beef noodles")]!;
      expect(first).toMatch(/€29\.00$/);
      const dish = out.lines
        .slice(at("2 × Beef noodles"), at("no coriander"))
        .join(" ")
        .replace(/€29\.00/, "")
        .replace(/\s+/g, " ")
        .trim();
      expect(dish).toBe("2 × Beef noodles · Large · Extra spicy");
      expect(at("no coriander")).toBeLessThan(at("Pork buns"));
      expect(out.lines[at("1 × Pork buns")]).toMatch(/€4\.50$/);
      expect(out.lines[at("1 × Pork buns") + 1]).toBe("SOLD OUT");
      expect(out.lines).toContain("1 × Iced tea");
      expect(out.lines).toContain("Total €33.50");
      expect(out.lines.every((l) => l.length <= cpl)).toBe(true);
      expect(out.cuts).toBe(1);
    });
  }

  it("58 mm: a long note under a line wraps between words, every word printed", () => {
    const note = "no coriander, no spring onion, peanut allergy: clean wok";
    const out = decodeEscPos(ticketBytes(ticket({ items: [line("Beef noodles · Large", 1, { note })] }), { paper: "58mm", charset: "latin" }), "latin");
    const from = out.lines.findIndex((l) => l.startsWith("no coriander"));
    const noteLines = out.lines.slice(
      from,
      out.lines.findIndex((l, i) => i > from && l.startsWith("─")),
    );
    expect(noteLines.length).toBeGreaterThan(1);
    expect(noteLines.join(" ")).toBe(note);
    expect(out.lines.every((l) => l.length <= 32)).toBe(true);
  });

  it("gb18030: 外带, options and the note in Chinese; wrapped as such a printer counts (every non-ASCII character two columns)", () => {
    const t = ticket({
      number: "42",
      service: "外带",
      items: [line("牛肉面 · 大碗 · 特辣", 1, { note: "不要香菜", price: "¥20.00", soldOut: true })],
      labels: ticketLabels("zh-CN"),
    });
    for (const [paper, rows] of [
      ["80mm", ["1 × 牛肉面 · 大碗 · 特辣 ¥20.00", "已售罄", "不要香菜"]],
      // 19 columns for the dish on 58 mm: "·" and "¥" take two each there, so it breaks between words.
      ["58mm", ["1 × 牛肉面 · 大碗 · ¥20.00", "特辣", "已售罄", "不要香菜"]],
    ] as const) {
      const out = decodeEscPos(ticketBytes(t, { paper, charset: "gb18030" }), "gb18030");
      expect(out.scales).toContainEqual({ text: "外带", width: 2, height: 2 });
      const from = out.lines.findIndex((l) => l.startsWith("1 ×"));
      expect(out.lines.slice(from, from + rows.length)).toEqual(rows);
    }
  });

  it("an order that states no service and lines without options print as before: no service row, no price column", () => {
    const out = decodeEscPos(ticketBytes(ticket(), { paper: "80mm", charset: "latin" }), "latin");
    expect(out.lines).toContain("2 × Beef noodles");
    expect(out.lines.some((l) => /TAKE AWAY|EAT IN|SOLD OUT/.test(l))).toBe(false);
    expect(out.scales.filter((r) => r.width === 2).map((r) => r.text)).toEqual(["Alpha Noodles"]);
  });
});

describe("testPageBytes", () => {
  it("names the restaurant and printer, prints the lines and a ruler the width of a line, then cuts", () => {
    const lines = testPageLines("zh-CN", { paper: "58mm", charset: "gb18030" });
    const out = decodeEscPos(
      testPageBytes(
        { restaurant: "老王面馆", printerName: "厨房 | Kitchen", at: "2026-08-01 12:00", paper: "58mm", charset: "gb18030", lines },
        { paper: "58mm", charset: "gb18030" },
      ),
      "gb18030",
    );
    expect(out.lines).toContain("厨房 | Kitchen");
    for (const l of lines) expect(out.lines).toContain(l);
    expect(out.lines).toContain("12345678901234567890123456789012");
    expect(out.cuts).toBe(1);
  });
});
