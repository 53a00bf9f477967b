/**
 * PUT …/menu/items/{id}/available, the kitchen's one tap, against the real app server
 * (route + PostgreSQL + Redis): who may call it (kitchen and manager keys and sessions),
 * bad bodies, unknown and foreign items, the audit line with who did it, the kiosks'
 * menu:changed, and that it writes `available` alone — a manager's rename at the same
 * moment is kept, and of several equal taps at once exactly one is the change.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { signInOverHttp } from "../support/forms";
import { BoardSocket } from "../support/board-socket";
import { apiClient, expectApiError, expectStatus, type CallOptions } from "../support/http";

const baseUrl = inject("baseUrl");
const databaseUrl = inject("databaseUrl");
const call = apiClient(baseUrl);

interface ItemJson {
  id: string;
  categoryId: string;
  name: string;
  priceCents: number | null;
  available: boolean;
  position: number;
}

const slugs = { main: uniqueSlug("avail-main"), other: uniqueSlug("avail-other") };
let main: TestTenant;
let other: TestTenant;
let categoryId: string;
const db = new pg.Client({ connectionString: databaseUrl });
const sockets: BoardSocket[] = [];

beforeAll(async () => {
  const t = await provisionTenants(
    databaseUrl,
    Object.values(slugs).map((s) => stableDaySpec(s)),
  );
  main = t[slugs.main]!;
  other = t[slugs.other]!;
  await db.connect();
  categoryId = expectStatus(
    await call<{ id: string }>("POST", `/api/v1/orgs/${main.slug}/menu/categories`, { key: main.apiKeys.manager, json: { name: "Mains" } }),
    201,
  ).id;
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await db.end();
});

let dishes = 0;
async function newItem(t: TestTenant = main, category = categoryId): Promise<ItemJson> {
  const json = { categoryId: category, name: `Dish ${++dishes}`, priceCents: 800 };
  return expectStatus(await call<ItemJson>("POST", `/api/v1/orgs/${t.slug}/menu/items`, { key: t.apiKeys.manager, json }), 201);
}

const path = (id: string, t: TestTenant = main) => `/api/v1/orgs/${t.slug}/menu/items/${id}/available`;
const put = (id: string, json: unknown, auth: CallOptions, t: TestTenant = main) => call<ItemJson>("PUT", path(id, t), { ...auth, json });

async function stored(id: string): Promise<{ name: string; priceCents: number | null; available: boolean }> {
  const { rows } = await db.query<{ name: string; priceCents: number | null; available: boolean }>(
    `SELECT name, "priceCents", available FROM "MenuItem" WHERE id = $1`,
    [id],
  );
  return rows[0]!;
}

async function auditOf(t: TestTenant, itemId: string): Promise<{ actor: string; details: Record<string, unknown> }[]> {
  const { rows } = await db.query<{ actor: string; details: Record<string, unknown> }>(
    `SELECT actor, details FROM "AuditEntry" WHERE "tenantId" = $1 AND action = 'menu.available' AND details->>'itemId' = $2 ORDER BY at`,
    [t.id, itemId],
  );
  return rows;
}

async function sessionOf(t: TestTenant, role: "KITCHEN" | "CASHIER" | "MANAGER"): Promise<CallOptions> {
  const code = { KITCHEN: t.staff.kitchen, CASHIER: t.staff.cashier, MANAGER: t.staff.manager }[role];
  const signedIn = await signInOverHttp(baseUrl, t.slug, role, code);
  expect(signedIn.sessionCookie, `sign-in answered ${signedIn.status}`).toBeTruthy();
  return { headers: { cookie: `nextup_session=${signedIn.sessionCookie!}` } };
}

describe("who may mark a dish sold out", () => {
  it("a kitchen key: 200 with the item, stored, audited with who did it; the same again changes and records nothing; back is a second line", async () => {
    const item = await newItem();
    const kitchen = { key: main.apiKeys.kitchen };
    expect(expectStatus(await put(item.id, { available: false }, kitchen), 200)).toEqual({ ...item, available: false });
    expect((await stored(item.id)).available).toBe(false);
    expectStatus(await put(item.id, { available: false }, kitchen), 200);
    expect(await auditOf(main, item.id)).toEqual([
      { actor: expect.stringMatching(/^api-key [0-9a-f]+$/), details: { itemId: item.id, name: item.name, available: false } },
    ]);

    expect(expectStatus(await put(item.id, { available: true }, kitchen), 200).available).toBe(true);
    expect((await auditOf(main, item.id)).map((e) => e.details.available)).toEqual([false, true]);
    // The whole menu (what a POS reads) says the same.
    const menu = expectStatus(await call<{ categories: { items: ItemJson[] }[] }>("GET", `/api/v1/orgs/${main.slug}/menu`, { key: main.apiKeys.cashier }), 200);
    expect(menu.categories.flatMap((c) => c.items).find((i) => i.id === item.id)?.available).toBe(true);
  });

  it("a manager key, and the kitchen's and the manager's sessions (no key): 200, the session's actor in the audit", async () => {
    const item = await newItem();
    expectStatus(await put(item.id, { available: false }, { key: main.apiKeys.manager }), 200);
    expectStatus(await put(item.id, { available: true }, await sessionOf(main, "KITCHEN")), 200);
    expectStatus(await put(item.id, { available: false }, await sessionOf(main, "MANAGER")), 200);
    expect((await stored(item.id)).available).toBe(false);
    const actors = (await auditOf(main, item.id)).map((e) => e.actor);
    expect(actors).toEqual([expect.stringMatching(/^api-key /), expect.stringMatching(/^Kitchen \(staff\)$/), expect.stringMatching(/^Manager \(staff\)$/)]);
  });

  it("a cashier (key or session) 403, no key 401, another restaurant's key 403: the item stays as it was", async () => {
    const item = await newItem();
    expectApiError(await put(item.id, { available: false }, { key: main.apiKeys.cashier }), 403, "FORBIDDEN");
    expectApiError(await put(item.id, { available: false }, await sessionOf(main, "CASHIER")), 403, "FORBIDDEN");
    expectApiError(await put(item.id, { available: false }, {}), 401, "UNAUTHENTICATED");
    expectApiError(await put(item.id, { available: false }, { key: other.apiKeys.kitchen }), 403, "FORBIDDEN");
    expectApiError(await put(item.id, { available: false }, await sessionOf(other, "KITCHEN")), 403, "FORBIDDEN");
    expect((await stored(item.id)).available).toBe(true);
    expect(await auditOf(main, item.id)).toEqual([]);
  });
});

describe("what it refuses", () => {
  it("another restaurant's item, an unknown id and a malformed one are 404 (the foreign item is untouched)", async () => {
    const otherCategory = expectStatus(
      await call<{ id: string }>("POST", `/api/v1/orgs/${other.slug}/menu/categories`, { key: other.apiKeys.manager, json: { name: "Theirs" } }),
      201,
    ).id;
    const foreign = await newItem(other, otherCategory);
    const kitchen = { key: main.apiKeys.kitchen };
    expectApiError(await put(foreign.id, { available: false }, kitchen), 404, "NOT_FOUND");
    expectApiError(await put("6f1c8a52-6a0e-4c1e-9f3b-2d7e5b9a1c04", { available: false }, kitchen), 404, "NOT_FOUND");
    expectApiError(await put("not-an-id", { available: false }, kitchen), 404, "NOT_FOUND");
    expect((await stored(foreign.id)).available).toBe(true);
  });

  it.each([
    ["no body", undefined, "available"],
    ["no available", {}, "available"],
    ["a string", { available: "false" }, "available"],
    ["a number", { available: 0 }, "available"],
    ["another field", { available: false, name: "Renamed" }, "name"],
    ["an array", [false], "(body)"],
  ])("%s is 400 naming the field, and changes nothing", async (_what, json, field) => {
    const item = await newItem();
    const err = expectApiError(await call("PUT", path(item.id), { key: main.apiKeys.kitchen, json }), 400, "BAD_INPUT");
    expect(JSON.stringify(err)).toContain(field);
    expect(await stored(item.id)).toEqual({ name: item.name, priceCents: 800, available: true });
  });

  it("a body that is not JSON is 400", async () => {
    const item = await newItem();
    const res = await call("PUT", path(item.id), { key: main.apiKeys.kitchen, body: "available=false", headers: { "content-type": "application/json" } });
    expectApiError(res, 400, "BAD_INPUT");
    expect((await stored(item.id)).available).toBe(true);
  });
});

describe("the write", () => {
  it("tells the restaurant's open kiosks (menu:changed); a tap that changes nothing tells no one", async () => {
    const item = await newItem();
    const kiosk = await BoardSocket.connect(baseUrl, main.slug, "kiosk");
    sockets.push(kiosk);
    expectStatus(await put(item.id, { available: false }, { key: main.apiKeys.kitchen }), 200);
    await kiosk.waitFor("menu:changed", () => true);
    expectStatus(await put(item.id, { available: false }, { key: main.apiKeys.kitchen }), 200);
    // A later change is heard: had the no-op announced itself, there would be three by then.
    expectStatus(await put(item.id, { available: true }, { key: main.apiKeys.kitchen }), 200);
    await expect.poll(() => kiosk.received.filter((r) => r.event === "menu:changed").length).toBe(2);
  });

  it("keeps a manager's rename and new price made at the same moment, round after round", async () => {
    const item = await newItem();
    for (let round = 1; round <= 15; round++) {
      const available = round % 2 === 0;
      const [renamed, toggled] = await Promise.all([
        call<ItemJson>("PATCH", `/api/v1/orgs/${main.slug}/menu/items/${item.id}`, {
          key: main.apiKeys.manager,
          json: { name: `Soup ${round}`, priceCents: 900 + round },
        }),
        put(item.id, { available }, { key: main.apiKeys.kitchen }),
      ]);
      expectStatus(renamed, 200);
      expectStatus(toggled, 200);
      expect(await stored(item.id), `round ${round}`).toEqual({ name: `Soup ${round}`, priceCents: 900 + round, available });
    }
  });

  it("of several equal taps at once, exactly one is the change (one audit line, one answer each)", async () => {
    const item = await newItem();
    const taps = await Promise.all(Array.from({ length: 6 }, () => put(item.id, { available: false }, { key: main.apiKeys.kitchen })));
    for (const t of taps) expect(expectStatus(t, 200).available).toBe(false);
    expect(await auditOf(main, item.id)).toHaveLength(1);
  });
});
