/**
 * Kitchen stations over REST (issue #40) against the running app, PostgreSQL and Redis:
 * managers only; the first station is the default and knows its screen's path; the list
 * counts each station's open work; rename, a default that moves (one default after), a
 * chit printer of the restaurant's own; the default refused removal while others exist,
 * another one removed and the menu entries that named it left without a station; bad
 * bodies and duplicate names named; readyWhen in the settings.
 */
import pg from "pg";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { apiClient, expectApiError, expectManagerOnly, expectStatus, UUID, type OrderJson } from "../support/http";

const baseUrl = inject("baseUrl");
const databaseUrl = inject("databaseUrl");
const call = apiClient(baseUrl);

const org = (slug: string, rest: string) => `/api/v1/orgs/${slug}/${rest}`;
const NO_SUCH_ID = `${"1".repeat(8)}-1111-4111-8111-${"1".repeat(12)}`;

interface StationJson {
  id: string;
  name: string;
  default: boolean;
  printerId: string | null;
  position: number;
  screenPath: string;
}
type Listed = StationJson & { open: number };
type Order = OrderJson & { stations: { id: string; name: string; done: boolean; doneAt: string | null }[] };
interface MenuJson {
  categories: { id: string; name: string; stationId: string | null; items: { id: string; name: string; stationId: string | null }[] }[];
}

const slugs = { main: uniqueSlug("st-main"), other: uniqueSlug("st-other"), bad: uniqueSlug("st-bad"), settings: uniqueSlug("st-set") };
let t: Record<keyof typeof slugs, TestTenant>;

beforeAll(async () => {
  const made = await provisionTenants(
    databaseUrl,
    Object.values(slugs).map((s) => stableDaySpec(s)),
  );
  t = Object.fromEntries(Object.entries(slugs).map(([k, s]) => [k, made[s]!])) as typeof t;
});

/** A printer row of a restaurant, written straight to the database (the shared server allows no printer network). */
async function insertPrinter(tenantId: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO "Printer" (id, "tenantId", name, host) VALUES (gen_random_uuid(), $1, $2, 'printer.local') RETURNING id`,
      [tenantId, name],
    );
    return rows[0]!.id;
  } finally {
    await client.end();
  }
}

const manager = (tenant: TestTenant) => ({ key: tenant.apiKeys.manager });
const list = async (tenant: TestTenant) => expectStatus(await call<{ stations: Listed[] }>("GET", org(tenant.slug, "stations"), manager(tenant)), 200).stations;
const create = (tenant: TestTenant, json: unknown) => call<StationJson>("POST", org(tenant.slug, "stations"), { ...manager(tenant), json });
const patch = (tenant: TestTenant, id: string, json: unknown) => call<StationJson>("PATCH", org(tenant.slug, `stations/${id}`), { ...manager(tenant), json });
const remove = (tenant: TestTenant, id: string) => call<StationJson>("DELETE", org(tenant.slug, `stations/${id}`), manager(tenant));
const audit = async (tenant: TestTenant) =>
  expectStatus(await call<{ entries: { action: string }[] }>("GET", org(tenant.slug, "audit"), manager(tenant)), 200).entries.map((e) => e.action);
const fieldsOf = (err: { details?: unknown }): string[] => ((err.details as { fields?: { path: string }[] })?.fields ?? []).map((f) => f.path);
const post = async <T>(tenant: TestTenant, path: string, json: unknown) =>
  expectStatus(await call<T>("POST", org(tenant.slug, path), { ...manager(tenant), json }), 201);

describe("who may call the stations endpoints", () => {
  const endpoints: [string, (s: string) => string, unknown?][] = [
    ["GET", (s) => org(s, "stations")],
    ["POST", (s) => org(s, "stations"), { name: "Grill" }],
    ["PATCH", (s) => org(s, `stations/${NO_SUCH_ID}`), { name: "Bar" }],
    ["DELETE", (s) => org(s, `stations/${NO_SUCH_ID}`)],
  ];
  it.each(endpoints)("%s: no key 401, a cashier's or kitchen key 403, another restaurant's manager key 403", async (method, path, json) => {
    await expectManagerOnly(call, method, path(t.main.slug), json, {
      cashier: t.main.apiKeys.cashier,
      kitchen: t.main.apiKeys.kitchen,
      otherManager: t.other.apiKeys.manager,
    });
    expect(await list(t.main)).toEqual([]);
    expect(await audit(t.main)).toEqual([]);
  });
});

describe("stations", () => {
  it("creates (the first is the default), lists with open work, renames, moves the default, sets a printer, removes", async () => {
    const grill = expectStatus(await create(t.main, { name: "Grill" }), 201);
    expect(grill).toEqual({
      id: expect.stringMatching(UUID),
      name: "Grill",
      default: true,
      printerId: null,
      position: 0,
      screenPath: `/${t.main.slug}/kitchen?station=${grill.id}`,
    });
    const bar = expectStatus(await create(t.main, { name: "Bar" }), 201);
    expect(bar).toMatchObject({ name: "Bar", default: false, position: 1, screenPath: `/${t.main.slug}/kitchen?station=${bar.id}` });
    // The same name in other letters' case is the same station.
    const twice = expectApiError(await create(t.main, { name: " grill " }), 409, "CONFLICT");
    expect(twice.message).toContain("already exists");
    expect(fieldsOf(twice)).toEqual(["name"]);

    // Drinks are made at the bar (by category), the burger at the grill (its own), fries at the default (the grill).
    const drinks = await post<{ id: string }>(t.main, "menu/categories", { name: "Drinks", stationId: bar.id });
    const mains = await post<{ id: string }>(t.main, "menu/categories", { name: "Mains" });
    const tea = await post<{ id: string }>(t.main, "menu/items", { categoryId: drinks.id, name: "Tea" });
    const burger = await post<{ id: string }>(t.main, "menu/items", { categoryId: mains.id, name: "Burger", stationId: grill.id });
    const fries = await post<{ id: string }>(t.main, "menu/items", { categoryId: mains.id, name: "Fries" });
    const order = async (ids: string[]) =>
      expectStatus(
        await call<Order>("POST", org(t.main.slug, "orders"), {
          key: t.main.apiKeys.cashier,
          json: { items: ids.map((menuItemId) => ({ menuItemId, qty: 1 })) },
        }),
        201,
      );
    const both = await order([tea.id, burger.id]);
    expect(both.stations.map((p) => [p.name, p.done])).toEqual([
      ["Grill", false],
      ["Bar", false],
    ]);
    expect((await order([fries.id])).stations.map((p) => p.name)).toEqual(["Grill"]);
    expect((await list(t.main)).map((s) => [s.name, s.open])).toEqual([
      ["Grill", 2],
      ["Bar", 1],
    ]);
    // The bar's part done: its count goes down, the grill's stays.
    expectStatus(await call("POST", org(t.main.slug, `orders/${both.id}/stations/${bar.id}/done`), { key: t.main.apiKeys.kitchen }), 200);
    expect((await list(t.main)).map((s) => [s.name, s.open])).toEqual([
      ["Grill", 2],
      ["Bar", 0],
    ]);

    expect(expectStatus(await patch(t.main, bar.id, { name: "Drinks bar" }), 200)).toEqual({ ...bar, name: "Drinks bar" });
    expect(expectStatus(await patch(t.main, bar.id, { default: true }), 200)).toMatchObject({ name: "Drinks bar", default: true });
    const after = await list(t.main);
    expect(after.filter((s) => s.default).map((s) => s.id)).toEqual([bar.id]);
    expect(after.map((s) => s.name)).toEqual(["Grill", "Drinks bar"]);

    // A printer of the restaurant's own, then none; another restaurant's is refused naming the field.
    const ours = await insertPrinter(t.main.id, "Pass");
    const theirs = await insertPrinter(t.other.id, "Their pass");
    expect(expectStatus(await patch(t.main, grill.id, { printerId: ours }), 200).printerId).toBe(ours);
    const foreign = expectApiError(await patch(t.main, grill.id, { printerId: theirs }), 400, "BAD_INPUT");
    expect(foreign.message).toContain("printerId");
    expect(fieldsOf(foreign)).toEqual(["printerId"]);
    expect(fieldsOf(expectApiError(await create(t.main, { name: "Wok", printerId: theirs }), 400, "BAD_INPUT"))).toEqual(["printerId"]);
    expect((await list(t.main)).find((s) => s.id === grill.id)?.printerId).toBe(ours);
    expect(expectStatus(await patch(t.main, grill.id, { printerId: null }), 200).printerId).toBeNull();

    // The default goes last: 409 while another station is there.
    const refused = expectApiError(await remove(t.main, bar.id), 409, "CONFLICT");
    expect(refused.message).toContain("make another station the default first");
    expect((await list(t.main)).map((s) => s.name)).toEqual(["Grill", "Drinks bar"]);

    // The grill removed: the burger, which named it, has no station of its own now.
    expect(expectStatus(await remove(t.main, grill.id), 200)).toMatchObject({ id: grill.id, name: "Grill" });
    expect((await list(t.main)).map((s) => [s.name, s.default])).toEqual([["Drinks bar", true]]);
    const menu = expectStatus(await call<MenuJson>("GET", org(t.main.slug, "menu"), manager(t.main)), 200);
    const entries = menu.categories.flatMap((c) => [[c.name, c.stationId], ...c.items.map((i) => [i.name, i.stationId])]);
    expect(entries).toEqual([
      ["Drinks", bar.id],
      ["Tea", null],
      ["Mains", null],
      ["Burger", null],
      ["Fries", null],
    ]);
    expectApiError(await remove(t.main, grill.id), 404, "NOT_FOUND");
    // The last station, the default, may go: no line is left without a screen.
    expectStatus(await remove(t.main, bar.id), 200);
    expect(await list(t.main)).toEqual([]);

    const stationActions = (await audit(t.main)).filter((a) => a.startsWith("station."));
    expect(stationActions).toEqual([
      "station.delete",
      "station.delete",
      "station.update",
      "station.update",
      "station.update",
      "station.update",
      "station.create",
      "station.create",
    ]);
  });

  it("an unknown id, or another restaurant's station, is 404", async () => {
    const theirs = expectStatus(await create(t.other, { name: "Steamer" }), 201);
    for (const id of [NO_SUCH_ID, "not-a-uuid", theirs.id]) {
      expectApiError(await patch(t.bad, id, { name: "X" }), 404, "NOT_FOUND");
      expectApiError(await remove(t.bad, id), 404, "NOT_FOUND");
    }
    expect((await list(t.other)).map((s) => s.name)).toEqual(["Steamer"]);
  });

  it("refuses each bad body with 400 naming the field, and changes nothing", async () => {
    const wok = expectStatus(await create(t.bad, { name: "Wok" }), 201);
    const entries = await audit(t.bad);
    const bad: [unknown, string][] = [
      [{}, "name"],
      [{ name: "" }, "name"],
      [{ name: "x".repeat(41) }, "name"],
      [{ name: 7 }, "name"],
      [{ name: "Bar", default: "yes" }, "default"],
      [{ name: "Bar", printerId: "front" }, "printerId"],
      [{ name: "Bar", colour: "red" }, "colour"],
    ];
    for (const [json, field] of bad) {
      const err = expectApiError(await create(t.bad, json), 400, "BAD_INPUT");
      expect(err.message, JSON.stringify(json)).toContain(field);
    }
    const patches: [unknown, string][] = [
      [{ name: "" }, "name"],
      [{ default: false }, "default"],
      [{ printerId: 12 }, "printerId"],
      [{ position: 3 }, "position"],
    ];
    for (const [json, field] of patches) {
      const err = expectApiError(await patch(t.bad, wok.id, json), 400, "BAD_INPUT");
      expect(err.message, JSON.stringify(json)).toContain(field);
    }
    expectApiError(await patch(t.bad, wok.id, {}), 400, "BAD_INPUT");
    expectApiError(
      await call("POST", org(t.bad.slug, "stations"), { ...manager(t.bad), body: "{", headers: { "content-type": "application/json" } }),
      400,
      "BAD_INPUT",
    );
    expect(await list(t.bad)).toEqual([{ ...wok, open: 0 }]);
    expect(await audit(t.bad)).toEqual(entries);
  });
});

describe("readyWhen in the settings", () => {
  it("reads parts, saves expo, refuses anything else naming the field", async () => {
    const get = async () => expectStatus(await call<{ readyWhen: string }>("GET", org(t.settings.slug, "settings"), manager(t.settings)), 200).readyWhen;
    const put = (json: unknown) => call<{ readyWhen: string }>("PUT", org(t.settings.slug, "settings"), { ...manager(t.settings), json });
    expect(await get()).toBe("parts");
    expect(expectStatus(await put({ readyWhen: "expo" }), 200).readyWhen).toBe("expo");
    expect(await get()).toBe("expo");
    for (const readyWhen of ["later", "", null, 1]) {
      const err = expectApiError(await put({ readyWhen }), 400, "BAD_INPUT");
      expect(err.message).toContain("readyWhen");
    }
    expect(await get()).toBe("expo");
    expect(expectStatus(await put({ readyWhen: "parts" }), 200).readyWhen).toBe("parts");
  });
});
