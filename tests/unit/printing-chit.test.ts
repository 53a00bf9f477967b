import { describe, expect, it } from "vitest";
import { chitContent, chitsFor, wrapWords, type ChitContent } from "@/lib/core/printing/chit";
import { chitBytes } from "@/lib/adapters/printers/escpos.server";
import type { PrintTarget, WaitingJob } from "@/lib/core/ports";
import { decodeEscPos } from "../support/escpos-decode";

const GRILL = "11111111-1111-4111-8111-111111111111";
const BAR = "22222222-2222-4222-8222-222222222222";

const target = (over: Partial<PrintTarget> = {}): PrintTarget => ({
  id: "p1",
  name: "Bar printer",
  host: "127.0.0.1",
  port: 9100,
  paper: "80mm",
  charset: "latin",
  channels: [],
  series: [],
  createdAt: new Date(0),
  tenantId: "t1",
  restaurant: "Alpha Noodles",
  timeZone: "America/New_York",
  currency: "USD",
  language: "en",
  giveUpMinutes: 10,
  ...over,
});

const ALLERGY =
  "SEVERE PEANUT ALLERGY: no peanuts, no peanut oil, clean the wok and the board first; the guest carries an EpiPen, ask the manager if unsure about any sauce";

const job = (over: Partial<WaitingJob> = {}): WaitingJob => ({
  id: "j1",
  kind: "chit",
  stationId: BAR,
  state: "claimed",
  attempts: 0,
  createdAt: new Date("2030-05-01T23:42:00Z"),
  url: null,
  order: {
    number: 12,
    prefix: "D",
    items: [
      { name: "Ribeye", qty: 2, priceCents: 2400, stationId: GRILL },
      { name: "Lemonade", qty: 3, priceCents: 400, stationId: BAR },
      { name: "Iced tea", qty: 1, stationId: BAR },
    ],
    note: ALLERGY,
    createdAt: new Date("2030-05-01T23:42:00Z"),
    channel: "delivery",
    stations: [
      { id: GRILL, name: "Grill", doneAt: null, doneBy: null },
      { id: BAR, name: "Bar", doneAt: null, doneBy: null },
    ],
  },
  ...over,
});

describe("chitsFor", () => {
  it("one chit per part whose station has a printer, in the parts' order", () => {
    const stations = [
      { id: GRILL, printerId: null },
      { id: BAR, printerId: "p-bar" },
    ];
    expect(chitsFor(stations, [{ id: GRILL }, { id: BAR }])).toEqual([{ printerId: "p-bar", stationId: BAR }]);
    expect(chitsFor(stations, [{ id: GRILL }])).toEqual([]);
    expect(
      chitsFor(
        [
          { id: GRILL, printerId: "p1" },
          { id: BAR, printerId: "p1" },
        ],
        [{ id: GRILL }, { id: BAR }],
      ),
    ).toEqual([
      { printerId: "p1", stationId: GRILL },
      { printerId: "p1", stationId: BAR },
    ]);
    expect(chitsFor([], [])).toEqual([]);
  });
});

describe("chitContent", () => {
  it("only the station's lines, the whole note, the channel and the time in the restaurant's zone, no prices", () => {
    const c = chitContent(target(), job())!;
    expect(c).toEqual({
      station: "Bar",
      number: "D12",
      items: [
        { name: "Lemonade", quantity: 3 },
        { name: "Iced tea", quantity: 1 },
      ],
      note: ALLERGY,
      channel: "Delivery",
      // 23:42 UTC is 19:42 in New York (EDT) on 1 May.
      takenAt: "01/05, 19:42",
      labels: { note: "Note" },
    } satisfies ChitContent);
  });

  it("in Chinese where the restaurant reads Chinese; the Grill's chit has the Grill's lines", () => {
    const c = chitContent(target({ language: "zh-CN", timeZone: "Asia/Shanghai" }), job({ stationId: GRILL }))!;
    expect(c.station).toBe("Grill");
    expect(c.items).toEqual([{ name: "Ribeye", quantity: 2 }]);
    expect(c.channel).toBe("外卖");
    expect(c.labels.note).toBe("备注");
    expect(c.takenAt).toContain("07:42");
  });

  it("nothing to print when the order is gone or has no part of that station", () => {
    expect(chitContent(target(), job({ order: null }))).toBeNull();
    expect(chitContent(target(), job({ stationId: "33333333-3333-4333-8333-333333333333" }))).toBeNull();
  });
});

describe("chitBytes", () => {
  const chit = (over: Partial<ChitContent> = {}): ChitContent => ({ ...chitContent(target(), job())!, ...over });

  it("the station, the number at its largest, the lines tall, channel and time, the note in full, one cut, no QR code", () => {
    for (const paper of ["80mm", "58mm"] as const) {
      const out = decodeEscPos(chitBytes(chit(), { paper, charset: "latin" }), "latin");
      expect(out.scales).toContainEqual({ text: "Bar", width: 2, height: 2 });
      expect(out.scales).toContainEqual({ text: "D12", width: 6, height: 6 });
      expect(out.scales).toContainEqual({ text: "Lemonade", width: 1, height: 2 });
      expect(out.lines).toContain("3 × Lemonade");
      expect(out.lines).toContain("1 × Iced tea");
      expect(out.lines.join("\n")).not.toContain("Ribeye");
      expect(out.lines).toContain("Delivery 01/05, 19:42");
      expect(out.qr).toEqual([]);
      expect(out.qrModuleSizes).toEqual([]);
      expect(out.images).toBe(0);
      expect(out.cuts).toBe(1);
      // The note wraps over several lines, every word of it printed.
      const noteLines = out.lines.filter((l) => l.length > 0).slice(out.lines.findIndex((l) => l.startsWith("Note:")));
      expect(noteLines.length).toBeGreaterThan(2);
      expect(noteLines.join(" ").replace(/\s+/g, " ")).toContain(`Note: ${ALLERGY}`);
      expect(out.lines.every((l) => l.length <= (paper === "80mm" ? 48 : 32))).toBe(true);
    }
  });

  it("a note of one long word is wrapped, not cut; no note, no note line", () => {
    const word = "x".repeat(120);
    const out = decodeEscPos(chitBytes(chit({ note: word }), { paper: "58mm", charset: "latin" }), "latin");
    expect(out.lines.join("").replace(/\s+/g, "")).toContain(`Note:${word}`);
    const none = decodeEscPos(chitBytes(chit({ note: null }), { paper: "58mm", charset: "latin" }), "latin");
    expect(none.lines.some((l) => l.startsWith("Note"))).toBe(false);
  });

  it("gb18030: Chinese station, lines and note", () => {
    const c = chit({ station: "烧烤", items: [{ name: "羊肉串", quantity: 10 }], note: "不要辣，花生过敏", channel: "外卖", labels: { note: "备注" } });
    const out = decodeEscPos(chitBytes(c, { paper: "58mm", charset: "gb18030" }), "gb18030");
    expect(out.scales).toContainEqual({ text: "烧烤", width: 2, height: 2 });
    expect(out.lines).toContain("10 × 羊肉串");
    expect(out.lines).toContain("备注: 不要辣，花生过敏");
    expect(out.qr).toEqual([]);
  });

  it("a chit of a part without lines (a number-only order) still prints its number", () => {
    const out = decodeEscPos(chitBytes(chit({ items: [], note: null }), { paper: "80mm", charset: "latin" }), "latin");
    expect(out.scales).toContainEqual({ text: "D12", width: 6, height: 6 });
    expect(out.lines.some((l) => l.includes("×"))).toBe(false);
  });
});

describe("wrapWords", () => {
  it("breaks between words within the width, wide characters counting two, an overlong word inside", () => {
    expect(wrapWords("no peanuts at all please", 10)).toEqual(["no peanuts", "at all", "please"]);
    expect(wrapWords("花生过敏 不要辣", 8)).toEqual(["花生过敏", "不要辣"]);
    expect(wrapWords("abcdefghij", 4)).toEqual(["abcd", "efgh", "ij"]);
    expect(wrapWords("  a\n\tb  ", 10)).toEqual(["a b"]);
    expect(wrapWords("", 10)).toEqual([]);
  });
});
