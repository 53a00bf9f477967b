/**
 * The manager's reports over REST, against the real app server of the run: shift history,
 * find by number, day figures and the CSV export, with orders taken, moved and shifts
 * started through the API itself. Tenants are this file's own, in UTC with a day-start
 * 12 hours from now, so their business day cannot roll over during the run.
 */
import { beforeAll, describe, expect, inject, it } from "vitest";
import { addDays } from "@/lib/core/business-day";
import { dayStartInstant } from "@/lib/core/reports/day-hours";
import { ORDER_CSV_COLUMNS, orderCsvHeader } from "@/lib/core/reports/orders-csv";
import { nearestRank } from "@/lib/core/reports/percentile";
import { insertSeries, provisionTenants, type TestTenant } from "../support/tenants";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { apiClient, contractFetch, expectApiError, expectStatus, ISO_TIMESTAMP, type OrderJson, type ShiftJson } from "../support/http";

const call = apiClient(inject("baseUrl"));
const databaseUrl = inject("databaseUrl");

const slugs = {
  hist: uniqueSlug("rep-hist"),
  csv: uniqueSlug("rep-csv"),
  many: uniqueSlug("rep-many"),
  other: uniqueSlug("rep-other"),
  series: uniqueSlug("rep-series"),
};
const specs = Object.fromEntries(Object.entries(slugs).map(([k, s]) => [k, stableDaySpec(s)]));
let hist: TestTenant, csv: TestTenant, many: TestTenant, other: TestTenant, series: TestTenant;

const base = (t: TestTenant) => `/api/v1/orgs/${t.slug}`;

interface ShiftsJson {
  businessDay: string;
  shifts: {
    shift: number;
    firstNumber: number;
    startedAt: string;
    startedBy: string | null;
    reason: string | null;
    trigger: string;
    orders: number;
    lastNumber: number | null;
    series: { series: string; prefix: string; orders: number; first: string; last: string }[];
  }[];
}
interface Spread {
  samples: number;
  p50: number | null;
  p90: number | null;
}
interface StatsJson {
  businessDay: string;
  timeZone: string;
  totalOrders: number;
  hours: { hour: string; start: string; end: string; orders: number }[];
  shifts: { shift: number; orders: number; timeToReady: Spread; timeToCollected: Spread }[];
  series: { series: string; default: boolean; prefix: string; orders: number; timeToReady: Spread; timeToCollected: Spread }[];
}
interface FoundJson {
  businessDay: string;
  number: number;
  prefix: string | null;
  display: string;
  orders: OrderJson[];
}

async function place(t: TestTenant, body: unknown = { items: [{ name: "Noodles", qty: 1 }] }): Promise<OrderJson> {
  return expectStatus(await call<OrderJson>("POST", `${base(t)}/orders`, { key: t.apiKeys.cashier, json: body }), 201);
}
async function move(t: TestTenant, id: string, status: string): Promise<OrderJson> {
  return expectStatus(await call<OrderJson>("POST", `${base(t)}/orders/${id}/status`, { key: t.apiKeys.kitchen, json: { status } }), 200);
}
const get = <T>(t: TestTenant, path: string, key = t.apiKeys.manager) => call<T>("GET", `${base(t)}${path}`, { key });

/** A strict RFC 4180 reader: records end with CRLF, quoted fields may hold anything. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  while (i < text.length) {
    let field = "";
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (i >= text.length) throw new Error("unterminated quoted field");
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
          } else {
            i++;
            break;
          }
        } else field += text[i++];
      }
    } else {
      while (i < text.length && text[i] !== "," && text[i] !== "\r" && text[i] !== "\n") {
        if (text[i] === '"') throw new Error(`bare quote in unquoted field at ${i}`);
        field += text[i++];
      }
    }
    row.push(field);
    if (text[i] === ",") i++;
    else if (text.startsWith("\r\n", i)) {
      rows.push(row);
      row = [];
      i += 2;
    } else throw new Error(`expected , or CRLF at ${i}, got ${JSON.stringify(text.slice(i, i + 5))}`);
  }
  if (row.length) throw new Error("last record without CRLF");
  return rows;
}

let today: string;
let histStart: ShiftJson;
const histOrders: OrderJson[] = [];

beforeAll(async () => {
  const made = await provisionTenants(databaseUrl, Object.values(specs));
  hist = made[slugs.hist]!;
  csv = made[slugs.csv]!;
  many = made[slugs.many]!;
  other = made[slugs.other]!;
  series = made[slugs.series]!;
  // Number series (decision 0027), written before the app first reads these tenants.
  await insertSeries(databaseUrl, series.id, { name: "Kiosk", prefix: "K", first: 1, last: 99, channels: ["kiosk"] });
  await insertSeries(databaseUrl, series.id, { name: "Delivery", prefix: "D", first: 1, last: 99, channels: ["delivery"] });
  await insertSeries(databaseUrl, many.id, { name: "Kiosk", prefix: "K", channels: ["kiosk"] });

  // hist: three orders in shift 1, a manual new shift, two orders in shift 2 — numbered 4
  // and 5, as shift 1's 1–3 are still open (decision 0027).
  for (let i = 0; i < 3; i++) histOrders.push(await place(hist));
  histStart = expectStatus(await call<ShiftJson>("POST", `${base(hist)}/shifts`, { key: hist.apiKeys.manager, json: { reason: "evening service" } }), 201);
  for (let i = 0; i < 2; i++) histOrders.push(await place(hist));
  today = histOrders[0]!.businessDay;
});

describe("who may read reports", () => {
  const paths = () => [`/shifts`, `/stats`, `/orders.csv?from=${today}&to=${today}`, `/orders?number=1`];

  it("no key: 401; cashier and kitchen keys: 403; another restaurant's manager key: 403", async () => {
    for (const p of paths()) {
      expectApiError(await call("GET", `${base(hist)}${p}`), 401, "UNAUTHENTICATED");
      expectApiError(await get(hist, p, hist.apiKeys.cashier), 403, "FORBIDDEN");
      expectApiError(await get(hist, p, hist.apiKeys.kitchen), 403, "FORBIDDEN");
      expectApiError(await get(hist, p, other.apiKeys.manager), 403, "FORBIDDEN");
    }
  });

  it("the CSV takes a session cookie instead of a key, but not a forged one", async () => {
    const res = await call("GET", `${base(hist)}/orders.csv?from=${today}&to=${today}`, { headers: { cookie: "nextup_session=forged.token.value" } });
    expectApiError(res, 401, "UNAUTHENTICATED");
  });

  it("without number or day, GET orders still lists the current shift for the kitchen (unchanged)", async () => {
    const res = expectStatus(await get<{ shift: number; orders: OrderJson[] }>(hist, "/orders", hist.apiKeys.kitchen), 200);
    expect(res.shift).toBe(2);
    expect(res.orders.map((o) => o.number)).toEqual([4, 5]);
  });
});

describe("bad input is a 400 naming the field", () => {
  it.each([
    ["/shifts?day=2026-02-30", /^day: /],
    ["/shifts?day=yesterday", /^day: /],
    ["/stats?day=2026-13-01", /^day: /],
    ["/stats?day=", /^day: /],
    ["/orders?number=abc", /^number: /],
    ["/orders?number=0", /^number: /],
    ["/orders?number=-3", /^number: /],
    ["/orders?number=1.5", /^number: /],
    ["/orders?number=1&day=2026-02-30", /^day: /],
    ["/orders?day=2026-01-01", /^number: /],
    ["/orders.csv?from=2026-01-02&to=2026-01-01", /^to: must not be before from/],
    ["/orders.csv?from=2026-01-01&to=2026-04-04", /^to: the range is at most 93 days/],
    ["/orders.csv?to=2026-01-01", /^from: /],
    ["/orders.csv?from=2026-02-30&to=2026-03-01", /^from: /],
    ["/orders.csv", /^from: /],
  ])("%s", async (path, message) => {
    const err = expectApiError(await get(hist, path), 400, "BAD_INPUT");
    expect(err.message).toMatch(message);
  });

  it("a 93-day range is fine", async () => {
    const res = await get<string>(hist, `/orders.csv?from=${addDays(today, -92)}&to=${today}`);
    expect(res.status).toBe(200);
  });
});

describe("GET shifts: the day's shift history", () => {
  it("after a manual new shift: shift 1 (started by the day) and shift 2 (manual), with their orders and last numbers", async () => {
    const body = expectStatus(await get<ShiftsJson>(hist, "/shifts"), 200);
    const dayStart = dayStartInstant(today, { timeZone: specs.hist!.timeZone, dayStartMinutes: Number(specs.hist!.dayStart.slice(0, 2)) * 60 });
    expect(body).toEqual({
      businessDay: today,
      shifts: [
        { shift: 1, firstNumber: 1, startedAt: dayStart.toISOString(), startedBy: null, reason: null, trigger: "day", orders: 3, lastNumber: 3, series: [] },
        {
          shift: 2,
          firstNumber: 1,
          startedAt: histStart.startedAt,
          startedBy: histStart.startedBy,
          reason: "evening service",
          trigger: "manual",
          orders: 2,
          lastNumber: 5,
          series: [],
        },
      ],
    });
    expect(body.shifts[1]!.startedAt).toMatch(ISO_TIMESTAMP);
    // ?day= of today says the same.
    expect(expectStatus(await get<ShiftsJson>(hist, `/shifts?day=${today}`), 200)).toEqual(body);
  });

  it("a past day has shift 1 with no orders; a day not yet begun has no shifts", async () => {
    expect(expectStatus(await get<ShiftsJson>(hist, `/shifts?day=${addDays(today, -1)}`), 200).shifts).toEqual([
      expect.objectContaining({ shift: 1, trigger: "day", orders: 0, lastNumber: null, startedBy: null }),
    ]);
    expect(expectStatus(await get<ShiftsJson>(hist, `/shifts?day=${addDays(today, 1)}`), 200)).toEqual({ businessDay: addDays(today, 1), shifts: [] });
  });

  it("another restaurant's history is its own", async () => {
    const body = expectStatus(await get<ShiftsJson>(other, "/shifts"), 200);
    expect(body.shifts).toEqual([expect.objectContaining({ shift: 1, orders: 0, lastNumber: null })]);
  });
});

describe("GET orders?number=: find an order by number", () => {
  it("a number finds the order of the shift that holds it", async () => {
    const body = expectStatus(await get<FoundJson>(hist, "/orders?number=1"), 200);
    expect(body.businessDay).toBe(today);
    expect([body.number, body.prefix, body.display]).toEqual([1, null, "1"]);
    expect(body.orders.map((o) => [o.shift, o.number, o.id])).toEqual([[1, 1, histOrders[0]!.id]]);
    expect(body.orders[0]).toEqual(histOrders[0]);
    expect(expectStatus(await get<FoundJson>(hist, "/orders?number=4"), 200).orders.map((o) => [o.shift, o.number, o.id])).toEqual([[2, 4, histOrders[3]!.id]]);
  });

  it("a number of shift 1 only; no match is an empty list; another day has none", async () => {
    expect(expectStatus(await get<FoundJson>(hist, `/orders?number=3&day=${today}`), 200).orders.map((o) => [o.shift, o.number])).toEqual([[1, 3]]);
    expect(expectStatus(await get<FoundJson>(hist, "/orders?number=99"), 200).orders).toEqual([]);
    expect(expectStatus(await get<FoundJson>(hist, `/orders?number=1&day=${addDays(today, -1)}`), 200).orders).toEqual([]);
  });

  it("never finds another restaurant's order", async () => {
    expect(expectStatus(await get<FoundJson>(other, "/orders?number=1"), 200).orders).toEqual([]);
  });
});

describe("number series in the reports (decision 0027)", () => {
  // Keys that are not numerals: an object lists those in insertion order.
  const placed: Record<string, OrderJson> = {};
  beforeAll(async () => {
    // 1, K1, D1, then K2 and 2: every number but 2's pair is shown by more than one series.
    placed.n1 = await place(series);
    placed.K1 = await place(series, { items: [{ name: "Kiosk tea", qty: 1 }], series: "Kiosk", channel: "kiosk" });
    placed.D1 = await place(series, { items: [{ name: "Delivery rice", qty: 1 }], series: "Delivery", channel: "delivery" });
    placed.K2 = await place(series, { series: "kiosk", channel: "kiosk" });
    placed.n2 = await place(series);
    expect(Object.entries(placed).map(([k, o]) => [k, o.display, o.series])).toEqual([
      ["n1", "1", "Default"],
      ["K1", "K1", "Kiosk"],
      ["D1", "D1", "Delivery"],
      ["K2", "K2", "Kiosk"],
      ["n2", "2", "Default"],
    ]);
  });

  it("?number=K1 (or k1) finds the kiosk's order alone", async () => {
    for (const asked of ["K1", "k1"]) {
      const body = expectStatus(await get<FoundJson>(series, `/orders?number=${asked}`), 200);
      expect([body.number, body.prefix, body.display]).toEqual([1, "K", "K1"]);
      expect(body.orders).toEqual([placed.K1]);
    }
    expect(expectStatus(await get<FoundJson>(series, "/orders?number=D1"), 200).orders.map((o) => o.id)).toEqual([placed.D1!.id]);
  });

  it("?number=1 without letters is every series' 1: the list names each by its display", async () => {
    const body = expectStatus(await get<FoundJson>(series, "/orders?number=1"), 200);
    expect([body.number, body.prefix, body.display]).toEqual([1, null, "1"]);
    expect(body.orders.map((o) => [o.display, o.series, o.id])).toEqual([
      ["1", "Default", placed.n1!.id],
      ["D1", "Delivery", placed.D1!.id],
      ["K1", "Kiosk", placed.K1!.id],
    ]);
  });

  it("letters of no series, or a number not given, find nothing; letters alone or after the number are a 400", async () => {
    expect(expectStatus(await get<FoundJson>(series, "/orders?number=X1"), 200)).toMatchObject({ prefix: "X", display: "X1", orders: [] });
    expect(expectStatus(await get<FoundJson>(series, "/orders?number=D2"), 200).orders).toEqual([]);
    for (const bad of ["K", "1K", "K-1", "ABCD1", "K%201"]) {
      const err = expectApiError(await get(series, `/orders?number=${bad}`), 400, "BAD_INPUT");
      expect(err.message, bad).toMatch(/^number: must be an order number as shown, e\.g\. 12 or K12/);
    }
  });

  it("shifts: the default series' lastNumber, and each other series' first and last as shown", async () => {
    const body = expectStatus(await get<ShiftsJson>(series, "/shifts"), 200);
    expect(body.shifts).toEqual([
      expect.objectContaining({
        shift: 1,
        orders: 5,
        lastNumber: 2,
        series: [
          { series: "Delivery", prefix: "D", orders: 1, first: "D1", last: "D1" },
          { series: "Kiosk", prefix: "K", orders: 2, first: "K1", last: "K2" },
        ],
      }),
    ]);
  });

  it("the CSV has series, prefix and display after the note, then who marked it ready; 1, D1 and K1 by number, then letters", async () => {
    const res = await get<string>(series, `/orders.csv?from=${today}&to=${today}`);
    expect(res.status).toBe(200);
    const [header, ...lines] = parseCsv(res.body);
    expect(header!.slice(10, 15)).toEqual(["note", "series", "prefix", "display", "readyBy"]);
    // None is ready yet: readyBy is empty on each line (tests/integration/order-history.test.ts fills it).
    expect(lines.every((r) => r.length === header!.length && r[14] === "")).toBe(true);
    expect(lines.map((r) => [r[2], r[11], r[12], r[13], r[9]])).toEqual([
      ["1", "Default", "", "1", "1× Noodles"],
      ["1", "Delivery", "D", "D1", "1× Delivery rice"],
      ["1", "Kiosk", "K", "K1", "1× Kiosk tea"],
      ["2", "Default", "", "2", "1× Noodles"],
      ["2", "Kiosk", "K", "K2", ""], // taken as a bare number
    ]);
  });

  it("the whole day per series: the default first, then each series' orders and times (decision 0027)", async () => {
    const k1 = await move(series, placed.K1!.id, "READY");
    const body = expectStatus(await get<StatsJson>(series, "/stats"), 200);
    const none = { samples: 0, p50: null, p90: null };
    const k1Ready = (Date.parse(k1.readyAt!) - Date.parse(k1.createdAt)) / 1000;
    expect(body.series).toEqual([
      { series: "Default", default: true, prefix: "", orders: 2, timeToReady: none, timeToCollected: none },
      { series: "Delivery", default: false, prefix: "D", orders: 1, timeToReady: none, timeToCollected: none },
      { series: "Kiosk", default: false, prefix: "K", orders: 2, timeToReady: { samples: 1, p50: k1Ready, p90: k1Ready }, timeToCollected: none },
    ]);
    // A restaurant of one series has just the default.
    expect(expectStatus(await get<StatsJson>(hist, "/stats"), 200).series.map((x) => [x.series, x.orders])).toEqual([["Default", 5]]);
  });
});

describe("GET stats: the day's figures", () => {
  it("orders per local hour from the day start, and p50/p90 time to ready and collected per shift (nearest rank)", async () => {
    // Shift 1: all three READY, two of them COLLECTED. Shift 2: nothing finished.
    const moved: OrderJson[] = [];
    for (const o of histOrders.slice(0, 3)) moved.push(await move(hist, o.id, "READY"));
    const collected = [await move(hist, histOrders[0]!.id, "COLLECTED"), await move(hist, histOrders[1]!.id, "COLLECTED")];
    const ms = (a: string, b: string) => Date.parse(b) - Date.parse(a);
    const readyMs = moved.map((o) => ms(o.createdAt, o.readyAt!));
    const collectedMs = collected.map((o) => ms(o.createdAt, o.collectedAt!));
    const s = (v: number | null) => (v === null ? null : v / 1000);

    const body = expectStatus(await get<StatsJson>(hist, "/stats"), 200);
    expect(body.businessDay).toBe(today);
    expect(body.timeZone).toBe("UTC");
    expect(body.hours).toHaveLength(24);
    expect(body.hours[0]!.hour).toBe(specs.hist!.dayStart);
    expect(body.hours[0]!.start).toBe(
      dayStartInstant(today, { timeZone: "UTC", dayStartMinutes: Number(specs.hist!.dayStart.slice(0, 2)) * 60 }).toISOString(),
    );
    expect(body.totalOrders).toBe(5);
    expect(body.hours.reduce((a, h) => a + h.orders, 0)).toBe(5);
    // Every order was taken within the last minutes: in the hour holding their createdAt.
    for (const o of histOrders) {
      const slot = body.hours.find((h) => h.start <= o.createdAt && o.createdAt < h.end);
      expect(slot?.orders).toBeGreaterThan(0);
    }
    expect(body.shifts).toEqual([
      {
        shift: 1,
        orders: 3,
        timeToReady: { samples: 3, p50: s(nearestRank(readyMs, 50)), p90: s(nearestRank(readyMs, 90)) },
        timeToCollected: { samples: 2, p50: s(nearestRank(collectedMs, 50)), p90: s(nearestRank(collectedMs, 90)) },
      },
      { shift: 2, orders: 2, timeToReady: { samples: 0, p50: null, p90: null }, timeToCollected: { samples: 0, p50: null, p90: null } },
    ]);
  });

  it("a day without orders: every hour at zero, shift 1 without data", async () => {
    const body = expectStatus(await get<StatsJson>(hist, `/stats?day=${addDays(today, -1)}`), 200);
    expect(body.totalOrders).toBe(0);
    expect(body.hours.every((h) => h.orders === 0)).toBe(true);
    expect(body.shifts).toEqual([
      { shift: 1, orders: 0, timeToReady: { samples: 0, p50: null, p90: null }, timeToCollected: { samples: 0, p50: null, p90: null } },
    ]);
  });
});

describe("GET orders.csv", () => {
  const notes = ["=1+1", "+SUM(A1:A9)", "-2+3", "@cmd", "＝1+1", "a, b", 'say "hi"', "line1\nline2", "plain"];

  it("RFC 4180 with the formula guard: one line per order by day, shift and number, ISO timestamps", async () => {
    const placed: OrderJson[] = [];
    for (const note of notes.slice(0, 5))
      placed.push(
        await place(csv, {
          items: [
            { name: "Beef noodles", qty: 2 },
            { name: "Tea", qty: 1 },
          ],
          note,
        }),
      );
    expectStatus(await call("POST", `${base(csv)}/shifts`, { key: csv.apiKeys.manager, json: {} }), 201);
    for (const note of notes.slice(5)) placed.push(await place(csv, { items: [{ name: '=HYPERLINK("x", "y")', qty: 1 }], note }));
    await move(csv, placed[0]!.id, "READY");

    const res = await contractFetch(new URL(`${base(csv)}/orders.csv?from=${addDays(today, -3)}&to=${today}`, inject("baseUrl")), {
      headers: { authorization: `Bearer ${csv.apiKeys.manager}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${csv.slug}-orders-${addDays(today, -3)}-to-${today}.csv"`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    // A UTF-8 byte-order mark first (for Excel), then the CSV.
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes.slice(3));
    // The column list itself is pinned once, in tests/unit/orders-csv.test.ts.
    expect(text.startsWith(orderCsvHeader())).toBe(true);
    // Raw quoting, as a spreadsheet reads it; the note is followed by the series' columns (the default series: no prefix).
    expect(text).toContain(",'=1+1,Default,,");
    expect(text).toContain(",'+SUM(A1:A9),Default,,");
    expect(text).toContain(",'-2+3,Default,,");
    expect(text).toContain(",'@cmd,Default,,");
    expect(text).toContain(",'＝1+1,Default,,"); // full-width, as a Chinese input method types it (notes are trimmed, so no leading tab via the API)
    expect(text).toContain(`,"a, b",Default,,`);
    expect(text).toContain(`,"say ""hi""",Default,,`);
    expect(text).toContain(`,"line1\nline2",Default,,`);
    expect(text).toContain(`,"1× =HYPERLINK(""x"", ""y"")",`);

    const rows = parseCsv(text);
    const [header, ...lines] = rows;
    expect(header).toEqual([...ORDER_CSV_COLUMNS]);
    expect(lines.map((r) => [r[1], r[2]])).toEqual([
      ["1", "1"],
      ["1", "2"],
      ["1", "3"],
      ["1", "4"],
      ["1", "5"],
      // Shift 2 restarts at 1, past shift 1's 1–5 still open (decision 0027).
      ["2", "6"],
      ["2", "7"],
      ["2", "8"],
      ["2", "9"],
    ]);
    expect(lines.map((r) => r[10])).toEqual(notes.map((n, i) => (i < 5 ? `'${n}` : n)));
    const first = lines[0]!;
    expect(first[0]).toBe(today);
    expect(first[3]).toBe("READY");
    expect(first[4]).toBe("api");
    expect(first[5]).toBe(placed[0]!.createdAt);
    expect(first[6]).toMatch(ISO_TIMESTAMP);
    expect(first[7]).toBe("");
    expect(first[9]).toBe("2× Beef noodles; 1× Tea");
  });

  it("a range without orders is the header alone; the file name of one day has no 'to'", async () => {
    const day = addDays(today, -10);
    const res = await contractFetch(new URL(`${base(csv)}/orders.csv?from=${day}&to=${day}`, inject("baseUrl")), {
      headers: { authorization: `Bearer ${csv.apiKeys.manager}` },
    });
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${csv.slug}-orders-${day}.csv"`);
    expect(parseCsv(await res.text())).toEqual([expect.arrayContaining(["businessDay", "note"])]);
  });

  it("pages through more orders than one read (500): every order once, in order, though two series show each number", async () => {
    const n = 520;
    let next = 0;
    const numbers: { number: number; prefix: string }[] = [];
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < n) {
          // Every other order in the kiosk's series: 12 and K12 both, so a page may end between them (decision 0027).
          const body = ++next % 2 ? { items: [{ name: "Dumplings", qty: 1 }] } : { items: [{ name: "Dumplings", qty: 1 }], series: "Kiosk", channel: "kiosk" };
          const o = await place(many, body);
          numbers.push({ number: o.number, prefix: o.prefix });
        }
      }),
    );
    const res = await get<string>(many, `/orders.csv?from=${today}&to=${today}`);
    expect(res.status).toBe(200);
    const lines = parseCsv(res.body).slice(1); // fetch's text() drops the byte-order mark
    // The numbers the orders were given, not 1…n: a loaded machine may open the counter's breaker, and numbers from PostgreSQL skip the rest of Redis's block.
    const byNumber = (a: { number: number; prefix: string }, b: { number: number; prefix: string }) => a.number - b.number || a.prefix.localeCompare(b.prefix);
    expect(lines.map((r) => `${r[12]}${r[2]}`)).toEqual(numbers.sort(byNumber).map((o) => `${o.prefix}${o.number}`));
    expect(lines.map((r) => r[13])).toEqual(numbers.map((o) => `${o.prefix}${o.number}`));
    expect(lines).toHaveLength(n);
  });

  it("another restaurant's export holds none of these orders", async () => {
    const res = await get<string>(other, `/orders.csv?from=${today}&to=${today}`);
    expect(parseCsv(res.body)).toEqual([expect.arrayContaining(["businessDay", "note"])]);
  });
});
