/**
 * Kitchen stations on two app nodes (issue #40): an order split into a Grill and a Bar part
 * is made ready by its last part even when both stations finish at the same moment on
 * different nodes — no lost update, exactly one READY in its history, one `order.ready`
 * webhook and one ready event on the boards. And a restaurant without stations answers
 * exactly as before.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppServer, testKeyPrefix, SHARED_SERVER_ENV, type AppServer } from "../support/app-server";
import { BoardSocket } from "../support/board-socket";
import { createTestDatabase, type TestDatabase } from "../support/db";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { apiClient, expectApiError, expectStatus, type Api, type OrderJson } from "../support/http";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { WebhookReceiver } from "../support/webhook-receiver";
import { timeUntil } from "../support/until";

const ORDERS = 30;

let db: TestDatabase;
let nodes: AppServer[] = [];
let a: Api;
let b: Api;
let t: TestTenant;
let plain: TestTenant;
let receiver: WebhookReceiver;
let grill: { id: string; screenPath: string };
let bar: { id: string };
let drinks: { id: string };
let cola: { id: string };
let burger: { id: string };
const path = (slug: string, rest: string) => `/api/v1/orgs/${slug}/${rest}`;

beforeAll(async () => {
  db = await createTestDatabase("stations");
  const slugs = { t: uniqueSlug("st-grill-bar"), plain: uniqueSlug("st-plain") };
  const made = await provisionTenants(db.url, [stableDaySpec(slugs.t), stableDaySpec(slugs.plain)]);
  t = made[slugs.t]!;
  plain = made[slugs.plain]!;
  // Two nodes of one deployment: one database, one Redis prefix, one session secret.
  const keyPrefix = testKeyPrefix("stations");
  const env = { ...SHARED_SERVER_ENV, WEBHOOKS_ALLOW_PRIVATE: "true", WEBHOOKS_RETRY_BASE_MS: "100", SESSION_SECRET: randomBytes(32).toString("hex") };
  nodes = await Promise.all([0, 1].map(() => startAppServer({ databaseUrl: db.url, keyPrefix, env })));
  a = apiClient(nodes[0]!.url);
  b = apiClient(nodes[1]!.url);
  receiver = await WebhookReceiver.start(() => 204);
  expectStatus(await a("POST", path(t.slug, "webhooks"), { key: t.apiKeys.manager, json: { url: receiver.url, events: ["order.ready"] } }), 201);

  grill = expectStatus(await a<{ id: string; screenPath: string }>("POST", path(t.slug, "stations"), { key: t.apiKeys.manager, json: { name: "Grill" } }), 201);
  bar = expectStatus(await a<{ id: string }>("POST", path(t.slug, "stations"), { key: t.apiKeys.manager, json: { name: "Bar" } }), 201);
  drinks = expectStatus(
    await a<{ id: string }>("POST", path(t.slug, "menu/categories"), { key: t.apiKeys.manager, json: { name: "Drinks", stationId: bar.id } }),
    201,
  );
  const food = expectStatus(await a<{ id: string }>("POST", path(t.slug, "menu/categories"), { key: t.apiKeys.manager, json: { name: "Food" } }), 201);
  cola = expectStatus(
    await a<{ id: string }>("POST", path(t.slug, "menu/items"), { key: t.apiKeys.manager, json: { categoryId: drinks.id, name: "Cola" } }),
    201,
  );
  burger = expectStatus(
    await a<{ id: string }>("POST", path(t.slug, "menu/items"), { key: t.apiKeys.manager, json: { categoryId: food.id, name: "Burger" } }),
    201,
  );
}, 120_000);

afterAll(async () => {
  await receiver?.close();
  await Promise.all(nodes.map((n) => n.stop()));
  await db?.drop();
});

describe("stations on two nodes", () => {
  it("routes each line to its station and splits the order into parts", async () => {
    expect(grill.screenPath).toBe(`/${t.slug}/kitchen?station=${grill.id}`);
    // The new station reaches the other node's cached restaurant (invalidated): it routes there too.
    const order = expectStatus(
      await b<OrderJson>("POST", path(t.slug, "orders"), {
        key: t.apiKeys.cashier,
        json: {
          items: [
            { menuItemId: burger.id, qty: 2 },
            { menuItemId: cola.id, qty: 1 },
            { name: "Extra napkins", qty: 1 },
          ],
        },
      }),
      201,
    );
    expect(order.items.map((l) => [l.name, l.stationId])).toEqual([
      ["Burger", grill.id],
      ["Cola", bar.id],
      ["Extra napkins", grill.id],
    ]);
    expect(order.stations).toEqual([
      { id: grill.id, name: "Grill", done: false, doneAt: null },
      { id: bar.id, name: "Bar", done: false, doneAt: null },
    ]);
    const drinksOnly = expectStatus(
      await a<OrderJson>("POST", path(t.slug, "orders"), { key: t.apiKeys.cashier, json: { items: [{ menuItemId: cola.id, qty: 3 }] } }),
      201,
    );
    expect(drinksOnly.stations.map((p) => p.name)).toEqual(["Bar"]);
  });

  it("refuses a menu entry naming a station the restaurant does not have, naming the field", async () => {
    const other = "00000000-0000-4000-8000-00000000abcd";
    const refused = expectApiError(
      await a("POST", path(t.slug, "menu/items"), { key: t.apiKeys.manager, json: { categoryId: drinks.id, name: "Tea", stationId: other } }),
      400,
      "BAD_INPUT",
    );
    expect(refused.message).toMatch(/^stationId: /);
    expectApiError(await b("PATCH", path(t.slug, `menu/categories/${drinks.id}`), { key: t.apiKeys.manager, json: { stationId: "grill" } }), 400, "BAD_INPUT");
    // Another restaurant's station is not one of this one's.
    const theirs = expectStatus(await a<{ id: string }>("POST", path(plain.slug, "stations"), { key: plain.apiKeys.manager, json: { name: "Theirs" } }), 201);
    expectApiError(await a("PATCH", path(t.slug, `menu/items/${cola.id}`), { key: t.apiKeys.manager, json: { stationId: theirs.id } }), 400, "BAD_INPUT");
    expectStatus(await a("DELETE", path(plain.slug, `stations/${theirs.id}`), { key: plain.apiKeys.manager }), 200);
  });

  it("makes each order ready exactly once when its two stations finish at the same moment on different nodes", async () => {
    const board = await BoardSocket.connect(nodes[0]!.url, t.slug);
    try {
      const orders = await Promise.all(
        Array.from({ length: ORDERS }, (_, i) =>
          (i % 2 ? a : b)<OrderJson>("POST", path(t.slug, "orders"), {
            key: t.apiKeys.cashier,
            json: {
              items: [
                { menuItemId: burger.id, qty: 1 },
                { menuItemId: cola.id, qty: 1 },
              ],
            },
          }).then((r) => expectStatus(r, 201)),
        ),
      );
      // Grill on node A and Bar on node B, each order's two Dones sent together.
      const results = await Promise.all(
        orders.flatMap((o) => [
          a<OrderJson>("POST", path(t.slug, `orders/${o.id}/stations/${grill.id}/done`), { key: t.apiKeys.kitchen }),
          b<OrderJson>("POST", path(t.slug, `orders/${o.id}/stations/${bar.id}/done`), { key: t.apiKeys.kitchen }),
        ]),
      );
      for (const r of results) expectStatus(r, 200);
      for (const o of orders) {
        const now = expectStatus(
          await a<OrderJson & { history: { status: string }[] }>("GET", path(t.slug, `orders/${o.id}`), { key: t.apiKeys.kitchen }),
          200,
        );
        // Neither Done was lost, and the order moved once.
        expect(now.status, o.display).toBe("READY");
        expect(
          now.stations.every((p) => p.done && p.doneAt !== null),
          o.display,
        ).toBe(true);
        expect(
          now.history.filter((h) => h.status === "READY"),
          o.display,
        ).toHaveLength(1);
      }
      const ids = new Set(orders.map((o) => o.id));
      await receiver.until(() => receiver.accepted().filter((r) => ids.has(JSON.parse(r.body).data.id)).length >= ORDERS, "an order.ready per order", 20_000);
      const readyHooks = receiver.accepted().filter((r) => ids.has(JSON.parse(r.body).data.id));
      expect(readyHooks).toHaveLength(ORDERS);
      expect(new Set(readyHooks.map((r) => JSON.parse(r.body).data.id)).size).toBe(ORDERS);
      // The boards heard each number become ready once.
      await timeUntil(async () => board.received.filter((r) => r.event === "order:updated" && r.payload.status === "READY").length >= ORDERS, 10_000);
      const readyEvents = board.received.filter(
        (r) => r.event === "order:updated" && r.payload.status === "READY" && orders.some((o) => o.display === r.payload.display),
      );
      expect(readyEvents).toHaveLength(ORDERS);
    } finally {
      board.close();
    }
  });

  it("keeps a repeated Done harmless, refuses an unknown station, and takes a Ready back on Undo", async () => {
    const o = expectStatus(
      await a<OrderJson>("POST", path(t.slug, "orders"), {
        key: t.apiKeys.cashier,
        json: {
          items: [
            { menuItemId: burger.id, qty: 1 },
            { menuItemId: cola.id, qty: 1 },
          ],
        },
      }),
      201,
    );
    const once = expectStatus(await a<OrderJson>("POST", path(t.slug, `orders/${o.id}/stations/${grill.id}/done`), { key: t.apiKeys.kitchen }), 200);
    const twice = expectStatus(await b<OrderJson>("POST", path(t.slug, `orders/${o.id}/stations/${grill.id}/done`), { key: t.apiKeys.kitchen }), 200);
    expect(twice.stations).toEqual(once.stations);
    expect(twice.status).toBe("PLACED");
    expectApiError(
      await a("POST", path(t.slug, `orders/${o.id}/stations/00000000-0000-4000-8000-000000000000/done`), { key: t.apiKeys.kitchen }),
      404,
      "NOT_FOUND",
    );
    expectApiError(await a("POST", path(t.slug, `orders/${o.id}/stations/not-a-station/done`), { key: t.apiKeys.kitchen }), 404, "NOT_FOUND");
    // A cashier does not bump the kitchen.
    expect((await a("POST", path(t.slug, `orders/${o.id}/stations/${bar.id}/done`), { key: t.apiKeys.cashier })).status).toBe(403);
    const ready = expectStatus(await b<OrderJson>("POST", path(t.slug, `orders/${o.id}/stations/${bar.id}/done`), { key: t.apiKeys.kitchen }), 200);
    expect(ready.status).toBe("READY");
    const back = expectStatus(await a<OrderJson>("DELETE", path(t.slug, `orders/${o.id}/stations/${bar.id}/done`), { key: t.apiKeys.kitchen }), 200);
    expect(back.status).toBe("PLACED");
    expect(back.readyAt).toBeNull();
    expect(back.stations.map((p) => p.done)).toEqual([true, false]);
  });

  it("leaves readiness to the expo when the restaurant chooses it", async () => {
    expectStatus(await a("PUT", path(t.slug, "settings"), { key: t.apiKeys.manager, json: { readyWhen: "expo" } }), 200);
    try {
      const o = expectStatus(
        await b<OrderJson>("POST", path(t.slug, "orders"), { key: t.apiKeys.cashier, json: { items: [{ menuItemId: cola.id, qty: 1 }] } }),
        201,
      );
      const done = expectStatus(await b<OrderJson>("POST", path(t.slug, `orders/${o.id}/stations/${bar.id}/done`), { key: t.apiKeys.kitchen }), 200);
      expect(done.stations[0]!.done).toBe(true);
      expect(done.status).toBe("PLACED");
      const bumped = expectStatus(
        await a<OrderJson>("POST", path(t.slug, `orders/${o.id}/status`), { key: t.apiKeys.kitchen, json: { status: "READY" } }),
        200,
      );
      expect(bumped.status).toBe("READY");
    } finally {
      expectStatus(await a("PUT", path(t.slug, "settings"), { key: t.apiKeys.manager, json: { readyWhen: "parts" } }), 200);
    }
  });
});

describe("a restaurant without stations", () => {
  it("takes, shows and moves orders exactly as before: no stationId, no parts", async () => {
    const o = expectStatus(
      await a<OrderJson>("POST", path(plain.slug, "orders"), {
        key: plain.apiKeys.cashier,
        json: { items: [{ name: "Beef noodles", qty: 2 }], note: "no coriander" },
      }),
      201,
    );
    expect(o.items).toEqual([{ name: "Beef noodles", qty: 2 }]);
    expect(o.stations).toEqual([]);
    expectApiError(await a("POST", path(plain.slug, `orders/${o.id}/stations/${grill.id}/done`), { key: plain.apiKeys.kitchen }), 404, "NOT_FOUND");
    const ready = expectStatus(
      await b<OrderJson>("POST", path(plain.slug, `orders/${o.id}/status`), { key: plain.apiKeys.kitchen, json: { status: "READY" } }),
      200,
    );
    expect(ready).toMatchObject({ status: "READY", stations: [] });
    const settings = expectStatus(await a<{ readyWhen: string }>("GET", path(plain.slug, "settings"), { key: plain.apiKeys.manager }), 200);
    expect(settings.readyWhen).toBe("parts");
  });
});
