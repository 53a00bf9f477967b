/**
 * The kiosk's place-order action with a dish's options, a line's note and eat in or take
 * away (issue #41), as its form sends them, against the run's app server, PostgreSQL and
 * Redis: the same order path as REST, refusals in the screen's language and no number spent.
 */
import { beforeAll, describe, expect, inject, it } from "vitest";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { signInOverHttp } from "../support/forms";
import { apiClient, expectStatus, type OrderJson } from "../support/http";
import { kioskAction } from "../support/kiosk-action";
import { provisionTenants, type TestTenant } from "../support/tenants";

const baseUrl = inject("baseUrl");
const call = apiClient(baseUrl);

let t: TestTenant;
let cookie: string;
let beef: { id: string; optionGroups: { name: string; options: { id: string; name: string }[] }[] };
const option = (group: string, name: string) => beef.optionGroups.find((g) => g.name === group)!.options.find((o) => o.name === name)!.id;

beforeAll(async () => {
  const slug = uniqueSlug("kiosk-opt");
  t = (await provisionTenants(inject("databaseUrl"), [{ ...stableDaySpec(slug), floor: { askService: "ask" } }]))[slug]!;
  const key = t.apiKeys.manager;
  const category = expectStatus(await call<{ id: string }>("POST", `/api/v1/orgs/${slug}/menu/categories`, { key, json: { name: "Noodles" } }), 201);
  const json = {
    categoryId: category.id,
    name: "Beef noodles",
    priceCents: 1250,
    optionGroups: [
      { name: "Size", required: true, options: [{ name: "Small" }, { name: "Large", priceCents: 200 }] },
      { name: "Spice", required: true, options: [{ name: "Mild" }, { name: "Extra spicy" }] },
    ],
  };
  beef = expectStatus(await call<typeof beef>("POST", `/api/v1/orgs/${slug}/menu/items`, { key, json }), 201);
  cookie = `nextup_session=${(await signInOverHttp(baseUrl, slug, "CASHIER", t.staff.cashier)).sessionCookie!}`;
});

const place = (fields: Record<string, string>, lang = "en") =>
  kioskAction(baseUrl, t.slug, "placeOrder", { tenant: t.slug, idempotencyKey: crypto.randomUUID(), ...fields }, cookie, `?lang=${lang}`);
const openOrders = async () =>
  expectStatus(await call<{ orders: OrderJson[] }>("GET", `/api/v1/orgs/${t.slug}/orders?status=PLACED`, { key: t.apiKeys.manager }), 200).orders;

describe("the kiosk's order with options, notes and the service", () => {
  it("refuses an order without eat in or take away while the restaurant asks, spending no number; a bare number needs none", async () => {
    const line = { menuItemId: beef.id, menuQty: "1", menuOptions: JSON.stringify([option("Size", "Small"), option("Spice", "Mild")]) };
    expect((await place(line)).result).toEqual({
      ok: false,
      code: "BAD_INPUT",
      error: "Eat in or take away? Choose one, then take the order. No number was used.",
      field: "service",
    });
    expect((await place(line, "zh-CN")).result).toMatchObject({ ok: false, error: "堂食还是外带？请先选择一项，再下单。未占用号码。" });
    expect(await openOrders()).toEqual([]);
    const bare = await place({ intent: "numberOnly" });
    expect(bare.result).toMatchObject({ ok: true, data: { number: 1 } });
  });

  it("refuses options the dish does not take in words a cashier reads, and unreadable ones naming the line", async () => {
    const missing = await place({ menuItemId: beef.id, menuQty: "1", menuOptions: JSON.stringify([option("Size", "Large")]), service: "eatIn" });
    expect(missing.result).toMatchObject({
      ok: false,
      code: "BAD_INPUT",
      error: "A dish still needs a choice (a size, say): tap Edit on the marked line and choose. No number was used.",
    });
    const garbled = await place({ menuItemId: beef.id, menuQty: "1", menuOptions: "[not json", service: "eatIn" });
    expect(garbled.result).toMatchObject({ ok: false, code: "BAD_INPUT", error: "Line 1: its options could not be read. Tap Edit on it and choose again." });
    expect((await openOrders()).map((o) => o.number)).toEqual([1]);
  });

  it("takes Beef noodles · Large · Extra spicy, no coriander, to take away, and a typed line with its note", async () => {
    const placed = await place({
      menuItemId: beef.id,
      menuQty: "2",
      menuOptions: JSON.stringify([option("Spice", "Extra spicy"), option("Size", "Large")]),
      menuNote: "no coriander",
      itemName: "Spring rolls",
      itemQty: "1",
      itemNote: "cut in half",
      service: "takeAway",
    });
    expect(placed.result?.ok).toBe(true);
    const id = (placed.result as { data: { orderId: string } }).data.orderId;
    const order = expectStatus(await call<OrderJson & { service: string }>("GET", `/api/v1/orgs/${t.slug}/orders/${id}`, { key: t.apiKeys.manager }), 200);
    expect(order.service).toBe("takeAway");
    expect(order.items).toEqual([
      {
        name: "Beef noodles",
        qty: 2,
        menuItemId: beef.id,
        priceCents: 1450,
        options: [
          { group: "Size", name: "Large", priceCents: 200 },
          { group: "Spice", name: "Extra spicy", priceCents: 0 },
        ],
        note: "no coriander",
      },
      { name: "Spring rolls", qty: 1, note: "cut in half" },
    ]);
  });
});
