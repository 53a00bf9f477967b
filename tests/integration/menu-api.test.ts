/**
 * The menu's REST API against the real app server (route handlers + PostgreSQL + Redis):
 * CRUD of categories and items, every bad input named, roles and tenants, duplicates,
 * deleting a category with items, the audit trail, and orders with menu items — an
 * unknown, foreign or sold-out item is refused without spending a number.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { apiClient, expectApiError, expectStatus, UUID, type OrderJson } from "../support/http";

const baseUrl = inject("baseUrl");
const databaseUrl = inject("databaseUrl");
const call = apiClient(baseUrl);

interface CategoryJson {
  id: string;
  name: string;
  position: number;
}
interface ItemJson {
  id: string;
  categoryId: string;
  name: string;
  priceCents: number | null;
  available: boolean;
  position: number;
}
interface MenuJson {
  categories: (CategoryJson & { items: ItemJson[] })[];
}

const base = (slug: string) => `/api/v1/orgs/${slug}/menu`;
const slugs = { main: uniqueSlug("menu-main"), other: uniqueSlug("menu-other"), orders: uniqueSlug("menu-orders") };
let main: TestTenant;
let other: TestTenant;
let shop: TestTenant;
const db = new pg.Client({ connectionString: databaseUrl });

beforeAll(async () => {
  const t = await provisionTenants(
    databaseUrl,
    Object.values(slugs).map((s) => stableDaySpec(s)),
  );
  main = t[slugs.main]!;
  other = t[slugs.other]!;
  shop = t[slugs.orders]!;
  await db.connect();
});
afterAll(async () => {
  await db.end();
});

const mgr = (t: TestTenant) => t.apiKeys.manager;

async function createCategory(t: TestTenant, body: unknown): Promise<CategoryJson> {
  return expectStatus(await call<CategoryJson>("POST", `${base(t.slug)}/categories`, { key: mgr(t), json: body }), 201);
}
async function createItem(t: TestTenant, body: unknown): Promise<ItemJson> {
  return expectStatus(await call<ItemJson>("POST", `${base(t.slug)}/items`, { key: mgr(t), json: body }), 201);
}
async function menuAudit(t: TestTenant): Promise<Record<string, unknown>[]> {
  const { rows } = await db.query<{ details: Record<string, unknown> }>(
    `SELECT details FROM "AuditEntry" WHERE "tenantId" = $1 AND action = 'menu.update' ORDER BY at`,
    [t.id],
  );
  return rows.map((r) => r.details);
}

describe("categories", () => {
  it("are created (trimmed, last by default), listed in order, renamed, moved and deleted", async () => {
    const noodles = await createCategory(main, { name: "  Noodles " });
    expect(noodles).toEqual({ id: expect.stringMatching(UUID), name: "Noodles", position: 0, stationId: null, optionGroups: [] });
    const drinks = await createCategory(main, { name: "Drinks" });
    expect(drinks.position).toBe(1);
    const first = await createCategory(main, { name: "Specials", position: 0 });

    const list = expectStatus(await call<{ categories: CategoryJson[] }>("GET", `${base(main.slug)}/categories`, { key: mgr(main) }), 200);
    // Equal positions list by name: Noodles before Specials.
    expect(list.categories.map((c) => c.name)).toEqual(["Noodles", "Specials", "Drinks"]);

    const renamed = expectStatus(
      await call<CategoryJson>("PATCH", `${base(main.slug)}/categories/${drinks.id}`, { key: mgr(main), json: { name: "Cold drinks", position: 5 } }),
      200,
    );
    expect(renamed).toEqual({ id: drinks.id, name: "Cold drinks", position: 5, stationId: null, optionGroups: [] });

    expect((await call("DELETE", `${base(main.slug)}/categories/${first.id}`, { key: mgr(main) })).status).toBe(204);
    const after = expectStatus(await call<{ categories: CategoryJson[] }>("GET", `${base(main.slug)}/categories`, { key: mgr(main) }), 200);
    expect(after.categories.map((c) => c.name)).toEqual(["Noodles", "Cold drinks"]);

    const audit = await menuAudit(main);
    expect(audit).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ change: "category.create", categoryId: noodles.id, name: "Noodles" }),
        expect.objectContaining({
          change: "category.update",
          categoryId: drinks.id,
          from: { name: "Drinks", position: 1 },
          to: { name: "Cold drinks", position: 5 },
        }),
        expect.objectContaining({ change: "category.delete", categoryId: first.id, name: "Specials" }),
      ]),
    );
  });

  it.each([
    ["an empty name", { name: "  " }, "name"],
    ["a name over 80 characters", { name: "x".repeat(81) }, "name"],
    ["an unknown field", { name: "Soup", colour: "red" }, "colour"],
    ["a position that is not whole", { name: "Soup", position: 1.5 }, "position"],
    ["a name that is not text", { name: 42 }, "name"],
  ])("refuses %s with 400 naming the field, and stores nothing", async (_what, body, field) => {
    const before = expectStatus(await call<{ categories: CategoryJson[] }>("GET", `${base(main.slug)}/categories`, { key: mgr(main) }), 200);
    const err = expectApiError(await call("POST", `${base(main.slug)}/categories`, { key: mgr(main), json: body }), 400, "BAD_INPUT");
    expect(JSON.stringify(err)).toContain(field);
    const after = expectStatus(await call<{ categories: CategoryJson[] }>("GET", `${base(main.slug)}/categories`, { key: mgr(main) }), 200);
    expect(after.categories).toEqual(before.categories);
  });

  it("refuses a duplicate name (ignoring case) with 409 naming the field", async () => {
    await createCategory(main, { name: "Rice" });
    const err = expectApiError(await call("POST", `${base(main.slug)}/categories`, { key: mgr(main), json: { name: "rice " } }), 409, "CONFLICT");
    expect(err.message).toMatch(/^name:/);
    const soup = await createCategory(main, { name: "Soup" });
    expectApiError(await call("PATCH", `${base(main.slug)}/categories/${soup.id}`, { key: mgr(main), json: { name: "RICE" } }), 409, "CONFLICT");
  });

  it("a category with items is deleted only with ?cascade=true, and then its items go too", async () => {
    const cat = await createCategory(main, { name: "Desserts" });
    const cake = await createItem(main, { categoryId: cat.id, name: "Cake" });
    const err = expectApiError(await call("DELETE", `${base(main.slug)}/categories/${cat.id}`, { key: mgr(main) }), 409, "CONFLICT");
    expect(err.message).toContain("Desserts");
    expect((await call("GET", `${base(main.slug)}/items?categoryId=${cat.id}`, { key: mgr(main) })).status).toBe(200);
    expectApiError(await call("DELETE", `${base(main.slug)}/categories/${cat.id}?cascade=maybe`, { key: mgr(main) }), 400, "BAD_INPUT");

    expect((await call("DELETE", `${base(main.slug)}/categories/${cat.id}?cascade=true`, { key: mgr(main) })).status).toBe(204);
    expectApiError(await call("PATCH", `${base(main.slug)}/items/${cake.id}`, { key: mgr(main), json: { name: "Pie" } }), 404, "NOT_FOUND");
    expect(await menuAudit(main)).toEqual(
      expect.arrayContaining([expect.objectContaining({ change: "category.delete", categoryId: cat.id, itemsDeleted: 1 })]),
    );
  });

  it("an empty patch and a bad id are refused", async () => {
    const cat = await createCategory(main, { name: "Sides" });
    expectApiError(await call("PATCH", `${base(main.slug)}/categories/${cat.id}`, { key: mgr(main), json: {} }), 400, "BAD_INPUT");
    expectApiError(await call("PATCH", `${base(main.slug)}/categories/not-an-id`, { key: mgr(main), json: { name: "X" } }), 404, "NOT_FOUND");
    expectApiError(await call("DELETE", `${base(main.slug)}/categories/00000000-0000-4000-8000-000000000000`, { key: mgr(main) }), 404, "NOT_FOUND");
  });
});

describe("items", () => {
  let cat: CategoryJson;
  let cat2: CategoryJson;
  beforeAll(async () => {
    cat = await createCategory(main, { name: "Mains" });
    cat2 = await createCategory(main, { name: "Mains 2" });
  });

  it("are created, listed in order, changed, moved between categories and deleted", async () => {
    const beef = await createItem(main, { categoryId: cat.id, name: " Beef noodles ", priceCents: 1250 });
    expect(beef).toEqual({
      id: expect.stringMatching(UUID),
      categoryId: cat.id,
      name: "Beef noodles",
      priceCents: 1250,
      available: true,
      position: 0,
      stationId: null,
      optionGroups: [],
    });
    const tofu = await createItem(main, { categoryId: cat.id, name: "Mapo tofu", available: false });
    expect(tofu).toMatchObject({ priceCents: null, available: false, position: 1 });

    const list = expectStatus(await call<{ items: ItemJson[] }>("GET", `${base(main.slug)}/items?categoryId=${cat.id}`, { key: mgr(main) }), 200);
    expect(list.items.map((i) => i.name)).toEqual(["Beef noodles", "Mapo tofu"]);

    const changed = expectStatus(
      await call<ItemJson>("PATCH", `${base(main.slug)}/items/${tofu.id}`, {
        key: mgr(main),
        json: { available: true, priceCents: null, position: 0, name: "Mapo tofu 麻婆豆腐" },
      }),
      200,
    );
    expect(changed).toMatchObject({ available: true, priceCents: null, position: 0, name: "Mapo tofu 麻婆豆腐" });

    const moved = expectStatus(await call<ItemJson>("PATCH", `${base(main.slug)}/items/${beef.id}`, { key: mgr(main), json: { categoryId: cat2.id } }), 200);
    expect(moved).toMatchObject({ categoryId: cat2.id, position: 0 });

    const menu = expectStatus(await call<MenuJson>("GET", base(main.slug), { key: main.apiKeys.cashier }), 200);
    const mains = menu.categories.find((c) => c.id === cat.id)!;
    expect(mains.items.map((i) => i.name)).toEqual(["Mapo tofu 麻婆豆腐"]);
    expect(menu.categories.find((c) => c.id === cat2.id)!.items.map((i) => i.id)).toEqual([beef.id]);

    expect((await call("DELETE", `${base(main.slug)}/items/${beef.id}`, { key: mgr(main) })).status).toBe(204);
    expectApiError(await call("DELETE", `${base(main.slug)}/items/${beef.id}`, { key: mgr(main) }), 404, "NOT_FOUND");

    expect(await menuAudit(main)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ change: "item.create", itemId: beef.id, name: "Beef noodles", priceCents: 1250 }),
        expect.objectContaining({
          change: "item.update",
          itemId: tofu.id,
          from: expect.objectContaining({ available: false }),
          to: expect.objectContaining({ available: true }),
        }),
        expect.objectContaining({ change: "item.delete", itemId: beef.id, name: "Beef noodles" }),
      ]),
    );
  });

  it.each([
    ["an empty name", { name: "" }, "name"],
    ["a name over 80 characters", { name: "y".repeat(81) }, "name"],
    ["a negative price", { name: "Soup", priceCents: -5 }, "priceCents"],
    ["a price in decimals", { name: "Soup", priceCents: 12.5 }, "priceCents"],
    ["a price as text", { name: "Soup", priceCents: "12" }, "priceCents"],
    ["available as text", { name: "Soup", available: "yes" }, "available"],
    ["an unknown field", { name: "Soup", spicy: true }, "spicy"],
  ])("refuse %s with 400 naming the field", async (_what, body, field) => {
    const err = expectApiError(await call("POST", `${base(main.slug)}/items`, { key: mgr(main), json: { categoryId: cat.id, ...body } }), 400, "BAD_INPUT");
    expect(JSON.stringify(err)).toContain(field);
    const list = expectStatus(await call<{ items: ItemJson[] }>("GET", `${base(main.slug)}/items?categoryId=${cat.id}`, { key: mgr(main) }), 200);
    expect(list.items.map((i) => i.name)).not.toContain("Soup");
  });

  it("refuse a bad or unknown category id", async () => {
    expectApiError(await call("POST", `${base(main.slug)}/items`, { key: mgr(main), json: { categoryId: "abc", name: "Soup" } }), 400, "BAD_INPUT");
    expectApiError(
      await call("POST", `${base(main.slug)}/items`, { key: mgr(main), json: { categoryId: "00000000-0000-4000-8000-000000000000", name: "Soup" } }),
      404,
      "NOT_FOUND",
    );
    expectApiError(await call("GET", `${base(main.slug)}/items?categoryId=nope`, { key: mgr(main) }), 404, "NOT_FOUND");
  });

  it("names are unique per category (409), the same name in another category is fine", async () => {
    await createItem(main, { categoryId: cat.id, name: "Spring rolls" });
    const err = expectApiError(
      await call("POST", `${base(main.slug)}/items`, { key: mgr(main), json: { categoryId: cat.id, name: "SPRING ROLLS" } }),
      409,
      "CONFLICT",
    );
    expect(err.message).toMatch(/^name:/);
    const other = await createItem(main, { categoryId: cat2.id, name: "Spring rolls" });
    expectApiError(await call("PATCH", `${base(main.slug)}/items/${other.id}`, { key: mgr(main), json: { categoryId: cat.id } }), 409, "CONFLICT");
  });
});

describe("who may", () => {
  let cat: CategoryJson;
  let item: ItemJson;
  beforeAll(async () => {
    cat = await createCategory(main, { name: "Guarded" });
    item = await createItem(main, { categoryId: cat.id, name: "Secret sauce" });
  });

  const writes = () =>
    [
      ["POST", `${base(main.slug)}/categories`, { name: "Hacked" }],
      ["PATCH", `${base(main.slug)}/categories/${cat.id}`, { name: "Hacked" }],
      ["DELETE", `${base(main.slug)}/categories/${cat.id}?cascade=true`, undefined],
      ["POST", `${base(main.slug)}/items`, { categoryId: cat.id, name: "Hacked" }],
      ["PATCH", `${base(main.slug)}/items/${item.id}`, { name: "Hacked" }],
      ["DELETE", `${base(main.slug)}/items/${item.id}`, undefined],
      ["GET", `${base(main.slug)}/categories`, undefined],
      ["GET", `${base(main.slug)}/items`, undefined],
    ] as const;

  it("cashier and kitchen keys may not edit (403), no key is 401, another restaurant's key is 403", async () => {
    for (const [method, path, json] of writes()) {
      for (const key of [main.apiKeys.cashier, main.apiKeys.kitchen, other.apiKeys.manager]) {
        expectApiError(await call(method, path, { key, json }), 403, "FORBIDDEN");
      }
      expectApiError(await call(method, path, { json }), 401, "UNAUTHENTICATED");
    }
    // Nothing changed.
    const menu = expectStatus(await call<MenuJson>("GET", base(main.slug), { key: mgr(main) }), 200);
    expect(menu.categories.find((c) => c.id === cat.id)).toMatchObject({ name: "Guarded", items: [{ id: item.id, name: "Secret sauce" }] });
  });

  it("the menu is readable by cashier and manager keys, not kitchen, not anonymously", async () => {
    expectStatus(await call("GET", base(main.slug), { key: main.apiKeys.cashier }), 200);
    expectStatus(await call("GET", base(main.slug), { key: mgr(main) }), 200);
    expectApiError(await call("GET", base(main.slug), { key: main.apiKeys.kitchen }), 403, "FORBIDDEN");
    expectApiError(await call("GET", base(main.slug)), 401, "UNAUTHENTICATED");
  });

  it("another restaurant's ids are 404 with the caller's own manager key, and its menu never shows them", async () => {
    for (const [method, path, json] of [
      ["PATCH", `${base(other.slug)}/categories/${cat.id}`, { name: "Mine now" }],
      ["DELETE", `${base(other.slug)}/categories/${cat.id}?cascade=true`, undefined],
      ["PATCH", `${base(other.slug)}/items/${item.id}`, { name: "Mine now" }],
      ["DELETE", `${base(other.slug)}/items/${item.id}`, undefined],
      ["POST", `${base(other.slug)}/items`, { categoryId: cat.id, name: "Mine now" }],
    ] as const) {
      expectApiError(await call(method, path, { key: mgr(other), json }), 404, "NOT_FOUND");
    }
    const theirs = expectStatus(await call<MenuJson>("GET", base(other.slug), { key: mgr(other) }), 200);
    expect(JSON.stringify(theirs)).not.toContain(item.id);
  });
});

describe("orders with menu items", () => {
  const ordersPath = `/api/v1/orgs/${slugs.orders}/orders`;
  const place = (json: unknown) => call<OrderJson>("POST", ordersPath, { key: shop.apiKeys.cashier, json });

  it("copy the item's name and price at order time; renaming it later changes no order", async () => {
    const cat = await createCategory(shop, { name: "Noodles" });
    const beef = await createItem(shop, { categoryId: cat.id, name: "Beef noodles", priceCents: 1250 });
    const order = expectStatus(
      await place({
        items: [
          { menuItemId: beef.id, qty: 2 },
          { name: "Extra egg", qty: 1 },
        ],
      }),
      201,
    );
    expect(order.items).toEqual([
      { name: "Beef noodles", qty: 2, menuItemId: beef.id, priceCents: 1250 },
      { name: "Extra egg", qty: 1 },
    ]);
    expectStatus(await call("PATCH", `${base(shop.slug)}/items/${beef.id}`, { key: mgr(shop), json: { name: "Braised beef noodles" } }), 200);
    const again = expectStatus(await call<OrderJson>("GET", `${ordersPath}/${order.id}`, { key: shop.apiKeys.cashier }), 200);
    expect(again.items[0]!.name).toBe("Beef noodles");
  });

  it("a sold-out, unknown or other restaurant's item is refused and spends no number", async () => {
    const cat = await createCategory(shop, { name: "Buns" });
    const buns = await createItem(shop, { categoryId: cat.id, name: "Pork buns", available: false });
    const tea = await createItem(shop, { categoryId: cat.id, name: "Tea" });
    const foreignCat = await createCategory(other, { name: "Theirs" });
    const foreign = await createItem(other, { categoryId: foreignCat.id, name: "Their soup" });

    const before = expectStatus(await place({ items: [{ menuItemId: tea.id, qty: 1 }] }), 201).number;

    const soldOut = expectApiError(
      await place({
        items: [
          { menuItemId: tea.id, qty: 1 },
          { menuItemId: buns.id, qty: 1 },
        ],
      }),
      409,
      "CONFLICT",
    );
    expect(soldOut.message).toContain("Pork buns");
    const unknown = expectApiError(await place({ items: [{ menuItemId: "00000000-0000-4000-8000-000000000000", qty: 1 }] }), 400, "BAD_INPUT");
    expect(unknown.message).toContain("items.0.menuItemId");
    expectApiError(await place({ items: [{ menuItemId: foreign.id, qty: 1 }] }), 400, "BAD_INPUT");
    expectApiError(await place({ items: [{ menuItemId: "not-a-uuid", qty: 1 }] }), 400, "BAD_INPUT");
    expectApiError(await place({ items: [{ name: "Tea", menuItemId: tea.id, qty: 1 }] }), 400, "BAD_INPUT");
    // With an Idempotency-Key too: the claim is released and no number drawn.
    expectApiError(
      await call("POST", ordersPath, {
        key: shop.apiKeys.cashier,
        json: { items: [{ menuItemId: buns.id, qty: 1 }] },
        headers: { "idempotency-key": "menu-sold-out-1" },
      }),
      409,
      "CONFLICT",
    );

    const next = expectStatus(await place({ items: [{ menuItemId: tea.id, qty: 1 }] }), 201).number;
    expect(next).toBe(before + 1);

    // Back on sale: the same request is taken.
    expectStatus(await call("PATCH", `${base(shop.slug)}/items/${buns.id}`, { key: mgr(shop), json: { available: true } }), 200);
    const ok = expectStatus(
      await call<OrderJson>("POST", ordersPath, {
        key: shop.apiKeys.cashier,
        json: { items: [{ menuItemId: buns.id, qty: 1 }] },
        headers: { "idempotency-key": "menu-sold-out-1" },
      }),
      201,
    );
    expect(ok).toMatchObject({ number: before + 2, items: [{ name: "Pork buns", qty: 1 }] });
  });
});
