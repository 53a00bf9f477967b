/**
 * The day's takings (issue #41) over REST against the real app server and PostgreSQL: orders
 * with options from several shifts, channels and services, one cancelled and one cleared
 * without being collected; GET /stats and the CSV export must show the same sums.
 */
import { beforeAll, describe, expect, inject, it } from "vitest";
import { addDays } from "@/lib/core/business-day";
import { ORDER_CSV_COLUMNS } from "@/lib/core/reports/orders-csv";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { apiClient, expectStatus, type OrderJson } from "../support/http";

const call = apiClient(inject("baseUrl"));
const databaseUrl = inject("databaseUrl");

interface Sum {
  orders: number;
  totalCents: number;
  unpricedOrders: number;
}
interface TakingsJson {
  currency: string | null;
  total: Sum;
  shifts: (Sum & { shift: number })[];
  channels: (Sum & { channel: string })[];
  services: (Sum & { service: string | null })[];
  cancelled: Sum;
}

// The menu's prices: a dish's and its options'.
const NOODLES = 1250;
const LARGE = 200;
const TEA = 300;

let t: TestTenant;
let today: string;
const orders: Record<string, OrderJson> = {};
const base = () => `/api/v1/orgs/${t.slug}`;
const asManager = <T>(method: string, path: string, json?: unknown) => call<T>(method, `${base()}${path}`, { key: t.apiKeys.manager, json });

async function place(name: string, body: unknown): Promise<void> {
  orders[name] = expectStatus(await call<OrderJson>("POST", `${base()}/orders`, { key: t.apiKeys.cashier, json: body }), 201);
}
async function move(name: string, status: string): Promise<void> {
  expectStatus(await call("POST", `${base()}/orders/${orders[name]!.id}/status`, { key: t.apiKeys.kitchen, json: { status } }), 200);
}

beforeAll(async () => {
  const spec = { ...stableDaySpec(uniqueSlug("takings")), floor: { currency: "EUR" } };
  t = (await provisionTenants(databaseUrl, [spec]))[spec.slug]!;
  const spice = { name: "Spice", required: true, options: [{ name: "Mild" }, { name: "Extra spicy" }] };
  const size = { name: "Size", required: true, options: [{ name: "Small" }, { name: "Large", priceCents: LARGE }] };
  const noodles = expectStatus(await asManager<{ id: string }>("POST", "/menu/categories", { name: "Noodles" }), 201);
  const drinks = expectStatus(await asManager<{ id: string }>("POST", "/menu/categories", { name: "Drinks" }), 201);
  const beef = expectStatus(
    await asManager<{ id: string }>("POST", "/menu/items", { categoryId: noodles.id, name: "Beef noodles", priceCents: NOODLES, optionGroups: [size, spice] }),
    201,
  );
  const tea = expectStatus(await asManager<{ id: string }>("POST", "/menu/items", { categoryId: drinks.id, name: "Tea", priceCents: TEA }), 201);
  const bowl = (qty: number, options: string[], note?: string) => ({ menuItemId: beef.id, qty, options, ...(note ? { note } : {}) });
  const teas = (qty: number) => ({ menuItemId: tea.id, qty });

  // Shift 1.
  await place("A", { channel: "counter", service: "takeAway", items: [bowl(2, ["Large", "Extra spicy"], "no coriander"), teas(1)] });
  await place("B", { channel: "kiosk", service: "eatIn", items: [bowl(1, ["Small", "Mild"]), { name: "Extra egg", qty: 1 }] });
  await place("C", { channel: "api", items: [teas(1)] });
  await place("D", { channel: "counter", service: "eatIn", items: [bowl(1, ["Large", "Mild"])] });
  await move("A", "READY");
  await move("A", "COLLECTED");
  await move("D", "CANCELLED");
  // Shift 2: one order made ready but never collected, then cleared off the floor by shift 3.
  expectStatus(await asManager("POST", "/shifts", {}), 201);
  await place("E", { channel: "delivery", service: "takeAway", items: [teas(3)] });
  await place("F", { channel: "kiosk", service: "eatIn", items: [bowl(1, ["Large", "Extra spicy"])] });
  await move("F", "READY");
  expectStatus(await asManager("POST", "/shifts", { openOrders: "clear" }), 201);
  today = orders.A!.businessDay;
});

// What each order comes to at the menu's prices.
const A = 2 * (NOODLES + LARGE) + TEA;
const B = NOODLES; // plus a free-text line without a price
const C = TEA;
const D = NOODLES + LARGE;
const E = 3 * TEA;
const F = NOODLES + LARGE;
const sum = (orders: number, totalCents: number, unpricedOrders = 0): Sum => ({ orders, totalCents, unpricedOrders });

describe("the day's takings", () => {
  it("the lines kept their unit prices with the options in them; F was cleared off the floor still ready", async () => {
    expect(orders.A!.items[0]).toMatchObject({ name: "Beef noodles", qty: 2, priceCents: NOODLES + LARGE });
    const f = expectStatus(await asManager<OrderJson>("GET", `/orders/${orders.F!.id}`), 200);
    expect({ status: f.status, cleared: f.cleared }).toEqual({ status: "READY", cleared: true });
  });

  it("GET /stats sums them per shift, channel and service; the cancelled order apart, the cleared one sold", async () => {
    const body = expectStatus(await asManager<{ takings: TakingsJson; totalOrders: number }>("GET", "/stats"), 200);
    const k = body.takings;
    expect(body.totalOrders).toBe(6);
    expect(k.currency).toBe("EUR");
    expect(k.total).toEqual(sum(5, A + B + C + E + F, 1));
    expect(k.shifts).toEqual([
      { shift: 1, ...sum(3, A + B + C, 1) },
      { shift: 2, ...sum(2, E + F) },
      { shift: 3, ...sum(0, 0) },
    ]);
    expect(k.channels).toEqual([
      { channel: "kiosk", ...sum(2, B + F, 1) },
      { channel: "counter", ...sum(1, A) },
      { channel: "api", ...sum(1, C) },
      { channel: "delivery", ...sum(1, E) },
    ]);
    expect(k.services).toEqual([
      { service: "eatIn", ...sum(2, B + F, 1) },
      { service: "takeAway", ...sum(2, A + E) },
      { service: null, ...sum(1, C) },
    ]);
    expect(k.cancelled).toEqual(sum(1, D));
    // Another day of the same restaurant took nothing.
    const before = expectStatus(await asManager<{ takings: TakingsJson }>("GET", `/stats?day=${addDays(today, -1)}`), 200).takings;
    expect(before).toMatchObject({ currency: "EUR", total: sum(0, 0), channels: [], services: [], cancelled: sum(0, 0) });
  });

  it("the CSV shows each order's items with options, service, currency, total and unit prices, adding up to the same", async () => {
    const res = await asManager<string>("GET", `/orders.csv?from=${today}&to=${today}`);
    expect(res.status).toBe(200);
    const [header, ...lines] = parseCsv(res.body.replace(/^\uFEFF/, ""));
    expect(header).toEqual([...ORDER_CSV_COLUMNS]);
    const rows = lines.map((r) => Object.fromEntries(header!.map((c, i) => [c, r[i]!])));
    const byNumber = (o: OrderJson) => rows.find((r) => r.shift === String(o.shift) && r.number === String(o.number))!;
    expect(byNumber(orders.A!)).toMatchObject({
      items: "2× Beef noodles · Large · Extra spicy (no coriander); 1× Tea",
      service: "takeAway",
      currency: "EUR",
      total: "32.00",
      unpricedLines: "0",
      unitPrices: "14.50; 3.00",
    });
    expect(byNumber(orders.B!)).toMatchObject({
      items: "1× Beef noodles · Small · Mild; 1× Extra egg",
      total: "12.50",
      unpricedLines: "1",
      unitPrices: "12.50; ",
    });
    expect(byNumber(orders.C!)).toMatchObject({ service: "", total: "3.00" });
    expect(byNumber(orders.D!)).toMatchObject({ status: "CANCELLED", total: "14.50" });
    // The sold orders' totals add up to the figures' total, in cents.
    const cents = (s: string) => Number(s.replace(".", ""));
    expect(rows.filter((r) => r.status !== "CANCELLED").reduce((n, r) => n + cents(r.total!), 0)).toBe(A + B + C + E + F);
  });
});

/** RFC 4180 records (CRLF), quoted fields with doubled quotes. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  const re = /("((?:[^"]|"")*)"|[^,"\r\n]*)(,|\r\n)/gy;
  let row: string[] = [];
  let m: RegExpExecArray | null;
  while (re.lastIndex < text.length && (m = re.exec(text)) !== null) {
    row.push(m[2] !== undefined ? m[2].replace(/""/g, '"') : m[1]!);
    if (m[3] === "\r\n") {
      rows.push(row);
      row = [];
    }
  }
  expect(re.lastIndex).toBe(text.length);
  return rows;
}
