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
    // The columns of before keep their places; the series' three follow them, then who marked it ready, then what it came to.
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
      "service",
      "currency",
      "total",
      "unpricedLines",
      "unitPrices",
    ]);
  });

  it("items read '2× Beef noodles; 1× Tea'", () => {
    expect(itemsText(order().items)).toBe("2× Beef noodles; 1× Tea");
    expect(itemsText([])).toBe("");
  });

  it("one order: ISO 8601 UTC timestamps, empty fields for what did not happen", () => {
    expect(orderCsvLine(order(), "EUR")).toBe(
      "2026-11-21,2,14,COLLECTED,kiosk,2026-11-21T11:02:03.456Z,2026-11-21T11:10:00.000Z,2026-11-21T11:12:30.000Z,,2× Beef noodles; 1× Tea,,Default,,14,,,EUR,,2,; \r\n",
    );
  });

  it("who marked it ready follows the series' columns: empty when no one is known, guarded like any text", () => {
    const readyBy = (o: Order & { readyBy?: string | null }) => parseLine(orderCsvLine(o, "EUR"))[ORDER_CSV_COLUMNS.indexOf("readyBy")];
    expect(readyBy(order({ readyBy: "Li Wei" }))).toBe("Li Wei");
    expect(readyBy(order({ readyBy: "李伟" }))).toBe("李伟");
    // A person or key named like a formula, or with a comma, is text in its one cell.
    expect(orderCsvLine(order({ readyBy: "=Wei, Li" }), "EUR")).toContain(`,14,"'=Wei, Li",`);
    // An order as the core knows it, without the export's readyBy: the cell is empty, the line as long.
    const plain: Partial<ReturnType<typeof order>> = order({ readyBy: "Li Wei" });
    delete plain.readyBy;
    expect(orderCsvLine(plain as Order, "EUR")).toBe(orderCsvLine(order(), "EUR"));
  });

  it("an order of a series: its name as when it was taken, its prefix and what the ticket showed", () => {
    const kiosk = order({ number: 12, prefix: "K", seriesId: "00000000-0000-4000-8000-0000000000aa", seriesName: "Kiosk", ticket: 111, note: "no onions" });
    expect(orderCsvLine(kiosk, null)).toContain(",2× Beef noodles; 1× Tea,no onions,Kiosk,K,K12,,");
    // A series a manager named like a formula is guarded like any other text.
    expect(orderCsvLine({ ...kiosk, seriesName: "=Kiosk" }, null)).toContain(",'=Kiosk,K,K12,,");
  });

  it("a hostile note and item names: guarded and quoted", () => {
    const line = orderCsvLine(order({ note: '-2+3, "now"\nplease', items: [{ name: "=cmd|' /C calc'!A0", qty: 1 }] }), null);
    expect(line).toContain(`,1× =cmd|' /C calc'!A0,"'-2+3, ""now""\nplease",Default,,14,,`);
  });
});

describe("orders as CSV: service, prices and total (issue #41)", () => {
  const noodles = {
    name: "Beef noodles",
    qty: 2,
    menuItemId: "00000000-0000-4000-8000-0000000000b1",
    priceCents: 1450,
    options: [
      { group: "Size", name: "Large", priceCents: 200 },
      { group: "Spice", name: "Extra spicy", priceCents: 0 },
    ],
    note: "no coriander",
  };
  const tea = { name: "Tea", qty: 1, menuItemId: "00000000-0000-4000-8000-0000000000b2", priceCents: 300 };
  const cells = (o: Order, currency: string | null) => {
    const row = parseLine(orderCsvLine(o, currency));
    return Object.fromEntries(ORDER_CSV_COLUMNS.map((c, i) => [c, row[i]]));
  };

  it("items name each line's options and note; the total is in major units with the restaurant's currency", () => {
    const c = cells(order({ items: [noodles, tea], service: "takeAway" }), "EUR");
    expect(c.items).toBe("2× Beef noodles · Large · Extra spicy (no coriander); 1× Tea");
    expect(c).toMatchObject({ service: "takeAway", currency: "EUR", total: "32.00", unpricedLines: "0", unitPrices: "14.50; 3.00" });
  });

  it("a line without a price counts 0 and is counted, so the total is seen to be partial", () => {
    const c = cells(order({ items: [{ name: "Extra egg", qty: 3 }, tea], service: "eatIn" }), "CNY");
    expect(c).toMatchObject({ service: "eatIn", currency: "CNY", total: "3.00", unpricedLines: "1", unitPrices: "; 3.00" });
  });

  it("no priced line: no total; no currency set: an empty currency; no service stated: an empty service", () => {
    expect(cells(order(), null)).toMatchObject({ service: "", currency: "", total: "", unpricedLines: "2" });
    expect(cells(order({ items: [] }), "EUR")).toMatchObject({ total: "", unpricedLines: "0", unitPrices: "" });
  });

  it("an order of a release before options reads as before in the columns it had", () => {
    const old = order({ items: [{ name: "Beef noodles", qty: 2, priceCents: 1250 }] });
    const before = orderCsvLine(old, "EUR").split(",").slice(0, 15).join(",");
    expect(before).toBe(
      "2026-11-21,2,14,COLLECTED,kiosk,2026-11-21T11:02:03.456Z,2026-11-21T11:10:00.000Z,2026-11-21T11:12:30.000Z,,2× Beef noodles,,Default,,14,",
    );
    expect(cells(old, "EUR")).toMatchObject({ total: "25.00", unitPrices: "12.50" });
  });

  it("a hostile line note stays inside the items cell, which starts with a quantity", () => {
    const c = cells(order({ items: [{ ...tea, note: '=1+1, "x"' }] }), "EUR");
    expect(c.items).toBe('1× Tea (=1+1, "x")');
  });
});

/** One CSV record split into its fields (RFC 4180 quoting undone). */
function parseLine(line: string): string[] {
  expect(line.endsWith("\r\n")).toBe(true);
  const fields: string[] = [];
  const re = /("((?:[^"]|"")*)"|[^,"]*)(,|\r\n$)/gy;
  let m: RegExpExecArray | null;
  while ((m = re.exec(line)) !== null) {
    fields.push(m[2] !== undefined ? m[2].replace(/""/g, '"') : m[1]!);
    if (m[3] === "\r\n") break;
  }
  return fields;
}
