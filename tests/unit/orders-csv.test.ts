import { describe, expect, it } from "vitest";
import type { Order } from "@/lib/core/orders";
import { csvField, csvLine, guardFormula, itemsText, ORDER_CSV_COLUMNS, orderCsvHeader, orderCsvLine } from "@/lib/core/reports/orders-csv";

const order = (over: Partial<Order & { readyBy: string | null }> = {}): Order & { readyBy: string | null } => ({
  id: "00000000-0000-4000-8000-000000000001",
  tenantId: "t",
  businessDay: "2026-11-21",
  shift: 2,
  number: 14,
  prefix: "",
  seriesId: null,
  seriesName: null,
  ticket: null,
  status: "COLLECTED",
  items: [
    { name: "Beef noodles", qty: 2 },
    { name: "Tea", qty: 1 },
  ],
  note: null,
  channel: "kiosk",
  idempotencyKey: null,
  idempotencyScope: null,
  requestHash: null,
  createdAt: new Date("2026-11-21T11:02:03.456Z"),
  readyAt: new Date("2026-11-21T11:10:00.000Z"),
  collectedAt: new Date("2026-11-21T11:12:30.000Z"),
  cancelledAt: null,
  clearedAt: null,
  placedBy: "Kiosk",
  service: null,
  stations: [],
  readyBy: null,
  ...over,
});

describe("guardFormula", () => {
  it.each(["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx", "＝1+1", "＋1", "－1", "＠x"])("prefixes %j with an apostrophe", (v) => {
    expect(guardFormula(v)).toBe(`'${v}`);
  });
  it.each(["no onions", "1× Tea", "2026-11-21", "", "a=b", "'quoted"])("leaves %j alone", (v) => {
    expect(guardFormula(v)).toBe(v);
  });
});

describe("csvField (RFC 4180)", () => {
  it("plain text stays unquoted", () => expect(csvField("Beef noodles")).toBe("Beef noodles"));
  it("a comma is quoted", () => expect(csvField("a,b")).toBe('"a,b"'));
  it("quotes are doubled inside quotes", () => expect(csvField('say "hi"')).toBe('"say ""hi"""'));
  it("line breaks (LF, CR, CRLF) are quoted and kept", () => {
    expect(csvField("a\nb")).toBe('"a\nb"');
    expect(csvField("a\rb")).toBe('"a\rb"');
    expect(csvField("a\r\nb")).toBe('"a\r\nb"');
  });
});

describe("csvLine", () => {
  it("joins with commas, ends with CRLF, null is an empty field", () => {
    expect(csvLine(["a", 1, null, "b"])).toBe("a,1,,b\r\n");
  });
  it("guards formulas before quoting: a formula with a comma is quoted with its apostrophe inside", () => {
    expect(csvLine(['=HYPERLINK("http://x","y")'])).toBe(`"'=HYPERLINK(""http://x"",""y"")"\r\n`);
  });
  it("a formula after a line break inside a cell is not at the cell's start: only quoted", () => {
    expect(csvLine(["ok\n=1+1"])).toBe('"ok\n=1+1"\r\n');
  });
});

describe("orders as CSV", () => {
  it("header row names the columns", () => {
    expect(orderCsvHeader()).toBe(`${ORDER_CSV_COLUMNS.join(",")}\r\n`);
    // The columns of before keep their places; the series' three follow them, then who marked it ready.
    expect(ORDER_CSV_COLUMNS).toEqual([
      "businessDay",
      "shift",
      "number",
      "status",
      "channel",
      "createdAt",
      "readyAt",
      "collectedAt",
      "cancelledAt",
      "items",
      "note",
      "series",
      "prefix",
      "display",
      "readyBy",
    ]);
  });

  it("items read '2× Beef noodles; 1× Tea'", () => {
    expect(itemsText(order().items)).toBe("2× Beef noodles; 1× Tea");
    expect(itemsText([])).toBe("");
  });

  it("one order: ISO 8601 UTC timestamps, empty fields for what did not happen", () => {
    expect(orderCsvLine(order())).toBe(
      "2026-11-21,2,14,COLLECTED,kiosk,2026-11-21T11:02:03.456Z,2026-11-21T11:10:00.000Z,2026-11-21T11:12:30.000Z,,2× Beef noodles; 1× Tea,,Default,,14,\r\n",
    );
  });

  it("who marked it ready is the last column: empty when no one is known, guarded like any text", () => {
    expect(orderCsvLine(order({ readyBy: "Li Wei" })).endsWith(",Default,,14,Li Wei\r\n")).toBe(true);
    expect(orderCsvLine(order({ readyBy: "李伟" })).endsWith(",14,李伟\r\n")).toBe(true);
    // A person or key named like a formula, or with a comma, is text in its one cell.
    expect(orderCsvLine(order({ readyBy: "=Wei, Li" })).endsWith(`,14,"'=Wei, Li"\r\n`)).toBe(true);
    // An order as the core knows it, without the export's readyBy: the cell is empty, the line as long.
    const plain: Partial<ReturnType<typeof order>> = order({ readyBy: "Li Wei" });
    delete plain.readyBy;
    expect(orderCsvLine(plain as Order)).toBe(orderCsvLine(order()));
  });

  it("an order of a series: its name as when it was taken, its prefix and what the ticket showed", () => {
    const kiosk = order({ number: 12, prefix: "K", seriesId: "00000000-0000-4000-8000-0000000000aa", seriesName: "Kiosk", ticket: 111, note: "no onions" });
    expect(orderCsvLine(kiosk).endsWith(",2× Beef noodles; 1× Tea,no onions,Kiosk,K,K12,\r\n")).toBe(true);
    // A series a manager named like a formula is guarded like any other text.
    expect(orderCsvLine({ ...kiosk, seriesName: "=Kiosk" }).endsWith(",'=Kiosk,K,K12,\r\n")).toBe(true);
  });

  it("a hostile note and item names: guarded and quoted", () => {
    const line = orderCsvLine(order({ note: '-2+3, "now"\nplease', items: [{ name: "=cmd|' /C calc'!A0", qty: 1 }] }));
    expect(line.endsWith(`,1× =cmd|' /C calc'!A0,"'-2+3, ""now""\nplease",Default,,14,\r\n`)).toBe(true);
  });
});
