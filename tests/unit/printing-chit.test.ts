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
    service: null,
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
        { name: "Lemonade", quantity: 3, note: null, soldOut: false },
        { name: "Iced tea", quantity: 1, note: null, soldOut: false },
      ],
      service: null,
      note: ALLERGY,
      channel: "Delivery",
      // 23:42 UTC is 19:42 in New York (EDT) on 1 May.
      takenAt: "01/05, 19:42",
      labels: { note: "Note", soldOut: "SOLD OUT" },
    } satisfies ChitContent);
  });

  it("in Chinese where the restaurant reads Chinese; the Grill's chit has the Grill's lines", () => {
    const c = chitContent(target({ language: "zh-CN", timeZone: "Asia/Shanghai" }), job({ stationId: GRILL }))!;
    expect(c.station).toBe("Grill");
    expect(c.items).toEqual([{ name: "Ribeye", quantity: 2, note: null, soldOut: false }]);
    expect(c.channel).toBe("外卖");
    expect(c.labels).toEqual({ note: "备注", soldOut: "已售罄" });
    expect(c.takenAt).toContain("07:42");
  });

  it("a line with options prints as lineLabel writes it, with its note and sold-out flag; the service in the restaurant's words", () => {
    const order = job().order!;
    const noodles = {
      ...order,
      service: "takeAway" as const,
      items: [
        {
          name: "Beef noodles",
          qty: 2,
          priceCents: 1450,
          stationId: BAR,
          options: [
            { group: "Size", name: "Large", priceCents: 200 },
            { group: "Spice", name: "Extra spicy", priceCents: 0 },
          ],
          note: "no coriander",
          soldOut: true as const,
        },
      ],
    };
    expect(chitContent(target(), job({ order: noodles }))).toMatchObject({
      items: [{ name: "Beef noodles · Large · Extra spicy", quantity: 2, note: "no coriander", soldOut: true }],
      service: "TAKE AWAY",
    });
    expect(chitContent(target({ language: "zh-CN" }), job({ order: { ...noodles, service: "eatIn" } }))!.service).toBe("堂食");
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
    const c = chit({
      station: "烧烤",
      items: [{ name: "羊肉串", quantity: 10, note: null, soldOut: false }],
      note: "不要辣，花生过敏",
      channel: "外卖",
      labels: { note: "备注", soldOut: "已售罄" },
    });
    const out = decodeEscPos(chitBytes(c, { paper: "58mm", charset: "gb18030" }), "gb18030");
    expect(out.scales).toContainEqual({ text: "烧烤", width: 2, height: 2 });
    expect(out.lines).toContain("10 × 羊肉串");
    expect(out.lines).toContain("备注: 不要辣，花生过敏");
    expect(out.qr).toEqual([]);
  });

  for (const paper of ["80mm", "58mm"] as const) {
    it(`${paper}: TAKE AWAY under the number, each dish tall with its options, its sold-out flag and note under it, wrapped whole`, () => {
      const cpl = paper === "80mm" ? 48 : 32;
      const c = chit({
        service: "TAKE AWAY",
        items: [
          { name: "Beef noodles · Large · Extra spicy", quantity: 2, note: "no coriander, peanut allergy", soldOut: false },
          { name: "Pork buns", quantity: 1, note: null, soldOut: true },
        ],
        note: null,
      });
      const out = decodeEscPos(chitBytes(c, { paper, charset: "latin" }), "latin");
      expect(out.scales).toContainEqual({ text: "TAKE AWAY", width: 2, height: 2 });
      const at = (text: string) => out.lines.findIndex((l) => l.includes(text));
      expect(at("TAKE AWAY")).toBeGreaterThan(at("D12"));
      expect(at("TAKE AWAY")).toBeLessThan(at("Beef"));
      const dish = out.lines.slice(at("2 × Beef"), at("no coriander")).join(" ");
      expect(dish.replace(/\s+/g, " ")).toBe("2 × Beef noodles · Large · Extra spicy");
      expect(out.lines.slice(at("no coriander"), at("1 × Pork buns")).join(" ")).toBe("no coriander, peanut allergy");
      expect(out.lines[at("1 × Pork buns") + 1]).toBe("SOLD OUT");
      // Double height, as the chit's lines always are; no prices on a cook's chit.
      expect(out.scales).toContainEqual({ text: "Pork buns", width: 1, height: 2 });
      expect(out.lines.join(" ")).not.toMatch(/\$|€/);
      expect(out.lines.every((l) => l.length <= cpl)).toBe(true);
    });
  }

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
    // The "·" between options ends a line, never starts one.
    expect(wrapWords("Beef noodles · Large · Extra spicy", 20)).toEqual(["Beef noodles ·", "Large · Extra spicy"]);
    expect(wrapWords("牛肉面 · 大碗 · 特辣", 8)).toEqual(["牛肉面 ·", "大碗 ·", "特辣"]);
  });
});
