/**
 * Issue #41 over REST against the real app server (route handlers + PostgreSQL + Redis):
 * option groups on dishes and categories, orders with options, line notes and a service,
 * a wrong choice refused without spending a number, the restaurant's service default, the
 * channels that take a sold-out dish, and an order stored by the release before reading as before.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { apiClient, expectApiError, expectStatus, type OrderJson } from "../support/http";

const baseUrl = inject("baseUrl");
const databaseUrl = inject("databaseUrl");
const call = apiClient(baseUrl);

interface OptionGroupJson {
  id: string;
  name: string;
  required: boolean;
  min: number;
  max: number;
  options: { id: string; name: string; priceCents: number }[];
}
interface CategoryJson {
  id: string;
  name: string;
  optionGroups: OptionGroupJson[];
}
interface ItemJson {
  id: string;
  name: string;
  available: boolean;
  optionGroups: OptionGroupJson[];
}
type LineJson = OrderJson["items"][number] & {
  options?: { group: string; name: string; priceCents: number }[];
  note?: string;
  soldOut?: true;
};
type Order41 = Omit<OrderJson, "items"> & { items: LineJson[]; service: "eatIn" | "takeAway" | null };

const slugs = { shop: uniqueSlug("opt-shop"), other: uniqueSlug("opt-other") };
let shop: TestTenant;
let other: TestTenant;
const db = new pg.Client({ connectionString: databaseUrl });

const menu = (t: TestTenant) => `/api/v1/orgs/${t.slug}/menu`;
const orders = (t: TestTenant) => `/api/v1/orgs/${t.slug}/orders`;
const settings = (t: TestTenant) => `/api/v1/orgs/${t.slug}/settings`;
/** An order at the noodle shop, as its POS sends it. */
const place = (json: unknown, headers?: Record<string, string>) =>
  call<Order41>("POST", orders(shop), { key: shop.apiKeys.cashier, json, ...(headers ? { headers } : {}) });
const lastNumber = async (t: TestTenant): Promise<number> =>
  (await db.query<{ n: number }>(`SELECT max(number) AS n FROM "Order" WHERE "tenantId" = $1`, [t.id])).rows[0]!.n;

let noodles: CategoryJson;
let beef: ItemJson;
let buns: ItemJson;

beforeAll(async () => {
  const t = await provisionTenants(
    databaseUrl,
    Object.values(slugs).map((s) => stableDaySpec(s)),
  );
  shop = t[slugs.shop]!;
  other = t[slugs.other]!;
  await db.connect();
  noodles = expectStatus(
    await call<CategoryJson>("POST", `${menu(shop)}/categories`, {
      key: shop.apiKeys.manager,
      json: { name: "Noodles", optionGroups: [{ name: "Spice", required: true, options: [{ name: "Mild" }, { name: "Extra spicy" }] }] },
    }),
    201,
  );
  beef = expectStatus(
    await call<ItemJson>("POST", `${menu(shop)}/items`, {
      key: shop.apiKeys.manager,
      json: {
        categoryId: noodles.id,
        name: "Beef noodles",
        priceCents: 1250,
        optionGroups: [
          {
            name: "Size",
            required: true,
            min: 1,
            max: 1,
            options: [
              { name: "Small", priceCents: 0 },
              { name: "Large", priceCents: 200 },
            ],
          },
          {
            name: "Extras",
            options: [
              { name: "Egg", priceCents: 150 },
              { name: "Extra noodles", priceCents: 250 },
            ],
          },
        ],
      },
    }),
    201,
  );
  const dumplings = expectStatus(await call<CategoryJson>("POST", `${menu(shop)}/categories`, { key: shop.apiKeys.manager, json: { name: "Dumplings" } }), 201);
  buns = expectStatus(
    await call<ItemJson>("POST", `${menu(shop)}/items`, {
      key: shop.apiKeys.manager,
      json: { categoryId: dumplings.id, name: "Pork buns", priceCents: 600, available: false },
    }),
    201,
  );
});
afterAll(async () => {
  await db.end();
});

describe("option groups on the menu", () => {
  it("are stored with ids on the category and the item, and the whole menu shows them", async () => {
    expect(noodles.optionGroups).toEqual([
      {
        id: expect.any(String),
        name: "Spice",
        required: true,
        min: 1,
        max: 1,
        options: [
          { id: expect.any(String), name: "Mild", priceCents: 0 },
          { id: expect.any(String), name: "Extra spicy", priceCents: 0 },
        ],
      },
    ]);
    expect(beef.optionGroups.map((g) => [g.name, g.required, g.min, g.max])).toEqual([
      ["Size", true, 1, 1],
      ["Extras", false, 0, 2],
    ]);
    const whole = expectStatus(await call<{ categories: (CategoryJson & { items: ItemJson[] })[] }>("GET", menu(shop), { key: shop.apiKeys.cashier }), 200);
    const cat = whole.categories.find((c) => c.id === noodles.id)!;
    expect(cat.optionGroups).toEqual(noodles.optionGroups);
    expect(cat.items.find((i) => i.id === beef.id)!.optionGroups).toEqual(beef.optionGroups);
  });

  it("keep their ids when sent back with an edit; a PATCH replaces the list and is audited", async () => {
    const tea = expectStatus(
      await call<ItemJson>("POST", `${menu(shop)}/items`, {
        key: shop.apiKeys.manager,
        json: { categoryId: noodles.id, name: "Tea", optionGroups: [{ name: "Temp", options: [{ name: "Hot" }] }] },
      }),
      201,
    );
    const [temp] = tea.optionGroups;
    const edited = expectStatus(
      await call<ItemJson>("PATCH", `${menu(shop)}/items/${tea.id}`, {
        key: shop.apiKeys.manager,
        json: { optionGroups: [{ ...temp!, options: [...temp!.options, { name: "Iced", priceCents: 50 }] }] },
      }),
      200,
    );
    expect(edited.optionGroups[0]!.id).toBe(temp!.id);
    expect(edited.optionGroups[0]!.options.map((o) => [o.id === temp!.options[0]!.id, o.name, o.priceCents])).toEqual([
      [true, "Hot", 0],
      [false, "Iced", 50],
    ]);
    const { rows } = await db.query<{ details: { change: string; from: unknown; to: unknown } }>(
      `SELECT details FROM "AuditEntry" WHERE "tenantId" = $1 AND details->>'itemId' = $2 AND details->>'change' = 'item.update'`,
      [shop.id, tea.id],
    );
    expect(rows).toHaveLength(1);
    expect(Object.keys(rows[0]!.details.to as object)).toEqual(["optionGroups"]);
    expectStatus(await call("DELETE", `${menu(shop)}/items/${tea.id}`, { key: shop.apiKeys.manager }), 204);
  });

  it("refuse a bad group with 400 naming the field, and change nothing", async () => {
    const bad = expectApiError(
      await call("PATCH", `${menu(shop)}/items/${beef.id}`, {
        key: shop.apiKeys.manager,
        json: { optionGroups: [{ name: "Size", required: true, max: 3, options: [{ name: "S" }, { name: "L" }] }] },
      }),
      400,
      "BAD_INPUT",
    );
    expect(bad.details).toEqual({ fields: [{ path: "optionGroups.0.max", message: "max must not be more than the group's options" }] });
    expectApiError(
      await call("POST", `${menu(shop)}/categories`, { key: shop.apiKeys.manager, json: { name: "Rice", optionGroups: [{ name: "Size", options: "S" }] } }),
      400,
      "BAD_INPUT",
    );
    const item = expectStatus(await call<{ items: ItemJson[] }>("GET", `${menu(shop)}/items?categoryId=${noodles.id}`, { key: shop.apiKeys.manager }), 200);
    expect(item.items.find((i) => i.id === beef.id)!.optionGroups).toEqual(beef.optionGroups);
  });
});

describe("an order with options, line notes and a service", () => {
  it("stores the options in menu order, a unit price that includes them, each line's note and the service", async () => {
    const order = expectStatus(
      await place({
        items: [
          { menuItemId: beef.id, qty: 2, options: ["Extra spicy", "Large", "Extras: Egg"], note: "no coriander" },
          { name: "Chilli oil", qty: 1, note: "on the side" },
        ],
        note: "pay at the counter",
        service: "takeAway",
      }),
      201,
    );
    expect(order.service).toBe("takeAway");
    expect(order.note).toBe("pay at the counter");
    expect(order.items).toEqual([
      {
        name: "Beef noodles",
        qty: 2,
        menuItemId: beef.id,
        priceCents: 1250 + 200 + 150,
        options: [
          { group: "Spice", name: "Extra spicy", priceCents: 0 },
          { group: "Size", name: "Large", priceCents: 200 },
          { group: "Extras", name: "Egg", priceCents: 150 },
        ],
        note: "no coriander",
      },
      { name: "Chilli oil", qty: 1, note: "on the side" },
    ]);
    const read = expectStatus(await call<Order41>("GET", `${orders(shop)}/${order.id}`, { key: shop.apiKeys.cashier }), 200);
    expect(read.items).toEqual(order.items);
    expect(read.service).toBe("takeAway");
  });

  it("takes options by id too", async () => {
    const large = beef.optionGroups[0]!.options[1]!;
    const mild = noodles.optionGroups[0]!.options[0]!;
    const order = expectStatus(await place({ items: [{ menuItemId: beef.id, qty: 1, options: [large.id, mild.id] }] }), 201);
    expect(order.items[0]!.options!.map((o) => o.name)).toEqual(["Mild", "Large"]);
    expect(order.items[0]!.priceCents).toBe(1450);
  });

  it("refuses a missing, unknown or surplus choice with 400 naming the line, before a number is spent", async () => {
    const before = await lastNumber(shop);
    const cases: [unknown, string, string][] = [
      [
        {
          items: [
            { name: "Tea", qty: 1 },
            { menuItemId: beef.id, qty: 1, options: ["Large"] },
          ],
        },
        "items.1.options",
        "choose a Spice",
      ],
      [{ items: [{ menuItemId: beef.id, qty: 1, options: ["Large", "Mild", "Coriander"] }] }, "items.0.options.2", '"Coriander" is not an option of this dish'],
      [{ items: [{ menuItemId: beef.id, qty: 1, options: ["Large", "Small", "Mild"] }] }, "items.0.options", "choose only one Size"],
      [{ items: [{ name: "Tea", qty: 1, options: ["Large"] }] }, "items.0.options", "Options need a menuItemId (a free-text line has none)"],
      [{ items: [{ menuItemId: beef.id, qty: 1, options: ["Large", "Mild"] }], service: "delivery" }, "service", 'service must be "eatIn" or "takeAway"'],
    ];
    for (const [json, path, message] of cases) {
      const e = expectApiError(await place(json), 400, "BAD_INPUT");
      expect(e.details).toEqual({ fields: [{ path, message }] });
    }
    // With an Idempotency-Key too: refused, the key's claim released, nothing drawn.
    expectApiError(await place({ items: [{ menuItemId: beef.id, qty: 1 }] }, { "idempotency-key": "opts-1" }), 400, "BAD_INPUT");
    expect(await lastNumber(shop)).toBe(before);
    const ok = expectStatus(await place({ items: [{ menuItemId: beef.id, qty: 1, options: ["Small", "Mild"] }] }, { "idempotency-key": "opts-1" }), 201);
    expect(ok.number).toBe(before + 1);
    // A retry must carry the same options: other options with the same key are another order.
    const replay = expectStatus(await place({ items: [{ menuItemId: beef.id, qty: 1, options: ["Small", "Mild"] }] }, { "idempotency-key": "opts-1" }), 201);
    expect(replay.id).toBe(ok.id);
    expectApiError(await place({ items: [{ menuItemId: beef.id, qty: 1, options: ["Large", "Mild"] }] }, { "idempotency-key": "opts-1" }), 409, "CONFLICT");
  });

  it("takes the restaurant's default service while it asks, and none while it does not", async () => {
    const plain = expectStatus(await place({ items: [{ name: "Tea", qty: 1 }] }), 201);
    expect(plain.service).toBeNull();
    const s = expectStatus(
      await call<{ askService: string; defaultService: string }>("PUT", settings(shop), {
        key: shop.apiKeys.manager,
        json: { askService: "ask", defaultService: "takeAway" },
      }),
      200,
    );
    expect(s).toMatchObject({ askService: "ask", defaultService: "takeAway" });
    expect(expectStatus(await place({ items: [{ name: "Tea", qty: 1 }] }), 201).service).toBe("takeAway");
    expect(expectStatus(await place({ items: [{ name: "Tea", qty: 1 }], service: "eatIn" }), 201).service).toBe("eatIn");
    expectApiError(await call("PUT", settings(shop), { key: shop.apiKeys.manager, json: { askService: "sometimes" } }), 400, "BAD_INPUT");
    expectStatus(await call("PUT", settings(shop), { key: shop.apiKeys.manager, json: { askService: "off", defaultService: "eatIn" } }), 200);
  });
});

describe("a sold-out dish", () => {
  it("is refused from every channel until the restaurant accepts one; then that channel's order flags the line", async () => {
    for (const channel of ["delivery", "api", "kiosk"]) {
      expectApiError(await place({ items: [{ menuItemId: buns.id, qty: 1 }], channel }), 409, "CONFLICT");
    }
    const before = await lastNumber(shop);
    const kiosk = expectApiError(
      await call("PUT", settings(shop), { key: shop.apiKeys.manager, json: { soldOutAcceptedFrom: ["delivery", "kiosk"] } }),
      400,
      "BAD_INPUT",
    );
    expect(kiosk.message).toContain("soldOutAcceptedFrom.1");
    const saved = expectStatus(
      await call<{ soldOutAcceptedFrom: string[] }>("PUT", settings(shop), {
        key: shop.apiKeys.manager,
        json: { soldOutAcceptedFrom: ["delivery", "pos", "delivery"] },
      }),
      200,
    );
    expect(saved.soldOutAcceptedFrom).toEqual(["pos", "delivery"]);

    const taken = expectStatus(
      await place({
        items: [
          { menuItemId: buns.id, qty: 2 },
          { name: "Tea", qty: 1 },
        ],
        channel: "delivery",
      }),
      201,
    );
    expect(taken.number).toBe(before + 1);
    expect(taken.items).toEqual([
      { name: "Pork buns", qty: 2, menuItemId: buns.id, priceCents: 600, soldOut: true },
      { name: "Tea", qty: 1 },
    ]);
    expectApiError(await place({ items: [{ menuItemId: buns.id, qty: 1 }], channel: "api" }), 409, "CONFLICT");
    expectApiError(await place({ items: [{ menuItemId: buns.id, qty: 1 }], channel: "kiosk" }), 409, "CONFLICT");

    const { rows } = await db.query<{ details: { changes: Record<string, { from: unknown; to: unknown }> } }>(
      `SELECT details FROM "AuditEntry" WHERE "tenantId" = $1 AND action = 'settings.update' AND details::text LIKE '%soldOutAcceptedFrom%'`,
      [shop.id],
    );
    expect(rows.map((r) => r.details.changes.soldOutAcceptedFrom)).toEqual([{ from: [], to: ["pos", "delivery"] }]);
    expectStatus(await call("PUT", settings(shop), { key: shop.apiKeys.manager, json: { soldOutAcceptedFrom: [] } }), 200);
    expectApiError(await place({ items: [{ menuItemId: buns.id, qty: 1 }], channel: "delivery" }), 409, "CONFLICT");
  });

  it("of another restaurant's setting changes nothing here", async () => {
    expectStatus(await call("PUT", settings(other), { key: other.apiKeys.manager, json: { soldOutAcceptedFrom: ["delivery"] } }), 200);
    expectApiError(await place({ items: [{ menuItemId: buns.id, qty: 1 }], channel: "delivery" }), 409, "CONFLICT");
  });
});

describe("an order stored by the release before issue #41", () => {
  it("reads as before: no service, lines without options, notes or flags", async () => {
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO "Order" (id, "tenantId", "businessDay", shift, number, items, channel)
       VALUES (gen_random_uuid(), $1, CURRENT_DATE, 1, 90001, '[{"name":"Beef noodles","qty":1,"priceCents":1250}]', 'kiosk') RETURNING id`,
      [shop.id],
    );
    const old = expectStatus(await call<Order41>("GET", `${orders(shop)}/${rows[0]!.id}`, { key: shop.apiKeys.cashier }), 200);
    expect(old.service).toBeNull();
    expect(old.items).toEqual([{ name: "Beef noodles", qty: 1, priceCents: 1250 }]);
    await db.query(`UPDATE "Order" SET status = 'CANCELLED', "cancelledAt" = now() WHERE id = $1`, [rows[0]!.id]);
  });
});
