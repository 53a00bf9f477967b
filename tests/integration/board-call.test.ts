/**
 * "Call again" over real HTTP and real sockets: the kitchen's call reaches every board of
 * the restaurant as order:called (and no board of another), only a ready order can be
 * called, and only with a kitchen or manager key of that restaurant.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { BoardSocket } from "../support/board-socket";
import { apiClient, expectApiError, expectStatus, type OrderJson } from "../support/http";

const baseUrl = inject("baseUrl");
const databaseUrl = inject("databaseUrl");
const call = apiClient(baseUrl);

let a: TestTenant;
let b: TestTenant;
const sockets: BoardSocket[] = [];

const ordersPath = (t: TestTenant) => `/api/v1/orgs/${t.slug}/orders`;
const callPath = (t: TestTenant, id: string) => `/api/v1/orgs/${t.slug}/orders/${id}/call`;

async function place(t: TestTenant): Promise<OrderJson> {
  return expectStatus(await call<OrderJson>("POST", ordersPath(t), { key: t.apiKeys.cashier, json: { items: [{ name: "Dumplings", qty: 1 }] } }), 201);
}

async function ready(t: TestTenant): Promise<OrderJson> {
  const o = await place(t);
  return expectStatus(await call<OrderJson>("POST", `${ordersPath(t)}/${o.id}/status`, { key: t.apiKeys.kitchen, json: { status: "READY" } }), 200);
}

async function board(t: TestTenant, label: string): Promise<BoardSocket> {
  const s = await BoardSocket.connect(baseUrl, t.slug, label);
  sockets.push(s);
  return s;
}

const keyOf = (o: OrderJson) => `${o.businessDay}/${o.shift}/${o.number}`;

beforeAll(async () => {
  const slugs = [uniqueSlug("call-a"), uniqueSlug("call-b")];
  const t = await provisionTenants(
    databaseUrl,
    slugs.map((s) => stableDaySpec(s)),
  );
  a = t[slugs[0]!]!;
  b = t[slugs[1]!]!;
});

afterAll(() => {
  for (const s of sockets) s.close();
});

describe("POST /api/v1/orgs/{slug}/orders/{id}/call", () => {
  it("200 with the order for a ready order; every board of the restaurant gets order:called, another restaurant's gets nothing", async () => {
    const [a1, a2, b1] = await Promise.all([board(a, "a1"), board(a, "a2"), board(b, "b1")]);
    const order = await ready(a);

    const res = expectStatus(await call<OrderJson>("POST", callPath(a, order.id), { key: a.apiKeys.kitchen }), 200);
    expect(res).toMatchObject({ id: order.id, number: order.number, status: "READY", trackPath: `/${a.slug}/o/${order.id}` });
    // Called again = ready again now: back on the board for readyClearMinutes.
    expect(Date.parse(res.readyAt!)).toBeGreaterThan(Date.parse(order.readyAt!));

    for (const s of [a1, a2]) {
      const { payload } = await s.waitFor("order:called", (p) => p.key === keyOf(order));
      // The public board view: no id (it opens the customer's page), no items.
      expect(payload).toEqual({
        key: keyOf(order),
        number: order.number,
        // The default series: no prefix, shown as the number (decision 0027).
        prefix: "",
        display: String(order.number),
        status: "READY",
        businessDay: order.businessDay,
        shift: order.shift,
        createdAt: order.createdAt,
        readyAt: res.readyAt,
        cleared: false,
        service: null,
      });
    }

    // B's board is live: it receives B's own later call, and nothing of A's before it.
    const own = await ready(b);
    expectStatus(await call("POST", callPath(b, own.id), { key: b.apiKeys.kitchen }), 200);
    await b1.waitFor("order:called", (p) => p.key === keyOf(own));
    // Keys are per restaurant (A's first order and B's are both "…/1/1"): tell them apart by createdAt.
    expect(b1.received.filter((r) => r.event === "order:called").map((r) => r.payload.createdAt)).toEqual([own.createdAt]);
    expect(b1.received.every((r) => r.payload.createdAt === own.createdAt)).toBe(true);
  });

  it("a manager key may call too; calling twice calls twice", async () => {
    const s = await board(a, "a-twice");
    const order = await ready(a);
    expectStatus(await call("POST", callPath(a, order.id), { key: a.apiKeys.manager }), 200);
    expectStatus(await call("POST", callPath(a, order.id), { key: a.apiKeys.kitchen }), 200);
    await s.waitFor("order:called", (p) => p.key === keyOf(order));
    await expect.poll(() => s.received.filter((r) => r.event === "order:called" && r.payload.key === keyOf(order)).length).toBe(2);
  });

  it("409 CONFLICT for an order that is not ready (placed, collected), and no event", async () => {
    const s = await board(a, "a-409");
    const placed = await place(a);
    const err = expectApiError(await call("POST", callPath(a, placed.id), { key: a.apiKeys.kitchen }), 409, "CONFLICT");
    expect(err.message).toMatch(/not ready/i);

    const collected = await ready(a);
    expectStatus(await call("POST", `${ordersPath(a)}/${collected.id}/status`, { key: a.apiKeys.kitchen, json: { status: "COLLECTED" } }), 200);
    expectApiError(await call("POST", callPath(a, collected.id), { key: a.apiKeys.kitchen }), 409, "CONFLICT");

    // A later call of a ready order arrives; the refused ones never did.
    const later = await ready(a);
    expectStatus(await call("POST", callPath(a, later.id), { key: a.apiKeys.kitchen }), 200);
    await s.waitFor("order:called", (p) => p.key === keyOf(later));
    expect(s.received.filter((r) => r.event === "order:called").map((r) => r.payload.key)).toEqual([keyOf(later)]);
  });

  it("401 without a key or with an unknown one, 403 for a cashier key or another restaurant's key, 404 for an unknown order", async () => {
    const order = await ready(a);
    expectApiError(await call("POST", callPath(a, order.id)), 401, "UNAUTHENTICATED");
    expectApiError(await call("POST", callPath(a, order.id), { key: "nxu_kit_00000000_nope" }), 401, "UNAUTHENTICATED");
    expectApiError(await call("POST", callPath(a, order.id), { key: a.apiKeys.cashier }), 403, "FORBIDDEN");
    expectApiError(await call("POST", callPath(a, order.id), { key: b.apiKeys.kitchen }), 403, "FORBIDDEN");
    // B's own key cannot reach A's order through B's path either.
    expectApiError(await call("POST", callPath(b, order.id), { key: b.apiKeys.kitchen }), 404, "NOT_FOUND");
  });
});
