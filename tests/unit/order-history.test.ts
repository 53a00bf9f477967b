/**
 * "The person everywhere" (issue #38, item 3) on in-memory ports: every path that takes or
 * moves an order names who did it — the kitchen's actions (a tap, the keyboard's bump, a
 * typed number, Undo, Cancel), REST with an API key, the kiosk — and the name reaches the
 * order's history, its webhook events and the kitchen's "recently collected". The edges run
 * as they do in the app (the route handlers and server actions themselves) on an app whose
 * order service is the in-memory core; sessions and API keys are stood in for by the caller
 * they resolve to. The same on PostgreSQL: tests/integration/order-history.test.ts.
 */
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Caller } from "@/lib/auth/access.server";
import { nextStep, readiedBy, type Order, type OrderStatus } from "@/lib/core/orders";
import type { StaffRole, Tenant } from "@/lib/core/tenants";
import type { App } from "@/lib/server/app.server";
import { setApp } from "@/lib/server/app-context";
import { WaitEstimates } from "@/lib/core/wait-service";
import { movableClock, wallTime } from "../support/clock";
import { memoryCore, memoryTenant } from "../support/in-memory-core";

// What Next.js gives a server action: request headers and cookies, refresh, the language.
vi.mock("next/headers", () => ({
  headers: async () => new Headers({ host: "shop.test" }),
  cookies: async () => ({ get: (name: string) => ({ name, value: `${name}-value` }) }),
}));
vi.mock("next/cache", () => ({ refresh: () => {} }));
vi.mock("next-intl/server", () => ({
  getLocale: async () => "en",
  getTranslations: async () => Object.assign((key: string) => key, { has: () => true }),
}));

const { changeOrderStatus, advanceTypedNumber } = await import("@/app/[tenant]/kitchen/actions");
const { placeOrder } = await import("@/app/[tenant]/kiosk/actions");
const { POST: placeRoute } = await import("@/app/api/v1/orgs/[slug]/orders/route");
const { GET: orderRoute } = await import("@/app/api/v1/orgs/[slug]/orders/[id]/route");
const { POST: statusRoute } = await import("@/app/api/v1/orgs/[slug]/orders/[id]/status/route");

const BERLIN = "Europe/Berlin";

/** The API keys of the test, by their Bearer value: each resolves to a caller named by its label. */
const KEYS: Record<string, { role: StaffRole; label: string }> = {
  "key-till": { role: "CASHIER", label: "Till 2" },
  "key-kds": { role: "KITCHEN", label: "Kitchen display" },
};

function setup() {
  const clock = movableClock(wallTime(BERLIN, "12:00"));
  const core = memoryCore({ clock });
  const tenant: Tenant = { ...memoryTenant("shop"), sharedCodes: true };
  const caller = (by: string, role: StaffRole, client: string): Caller => ({ tenant, role, actor: `${by} (staff)`, staffId: null, by, client });
  /** Who the screen's session is: a person, or a shared code's role label. */
  let session = caller("Li Wei", "KITCHEN", "session:li");
  const app = {
    orders: core.orderService,
    // No history here: every estimate is null (decision 0052; tests/unit/wait-estimate.test.ts has the rule).
    waits: new WaitEstimates({ history: { readies: async () => [], replayOrders: async () => [] }, clock }),
    env: { PUBLIC_URL: undefined },
    log: { info: () => {}, warn: () => {}, error: () => {} },
    tenants: { get: async (slug: string) => (slug === tenant.slug ? tenant : Promise.reject(new Error(`no tenant ${slug}`))) },
    access: {
      session: async () => session,
      apiKey: async (authorization: string | null) => {
        const key = KEYS[(authorization ?? "").replace(/^Bearer /, "")];
        if (!key) throw new Error("unknown key");
        return caller(key.label, key.role, `api-key:${key.label}`);
      },
    },
    throttles: {
      actionFrom: async () => {},
      actionBy: async () => {},
      beforeAuthentication: async () => {},
      countingFailures: async <T>(_address: string, check: () => Promise<T>) => check(),
      api: { points: 1_000, windowSeconds: 60, consume: async () => ({ remainingPoints: 999, msBeforeNext: 60_000 }) },
    },
    printers: { list: async () => [], jobsOf: async () => [] },
  } as unknown as App;
  setApp(app);

  const form = (fields: Record<string, string>) => {
    const f = new FormData();
    f.set("tenant", tenant.slug);
    for (const [k, v] of Object.entries(fields)) f.set(k, v);
    return f;
  };
  /** A server action as a form posts it; its `{ ok, data }` or the failure. */
  const act = async <T>(action: (prev: null, form: FormData) => Promise<unknown>, fields: Record<string, string>): Promise<T> => {
    const state = (await action(null, form(fields))) as { ok: boolean; data?: T; error?: string };
    if (!state.ok) throw new Error(`action refused: ${state.error}`);
    return state.data as T;
  };
  const rest = (method: string, path: string, key: string, body?: unknown) =>
    new Request(`http://shop.test/api/v1/orgs/${tenant.slug}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const params = <P>(p: P) => ({ params: Promise.resolve(p) });
  const place = async (by: string | null = "Cashier") => {
    clock.tick(1_000);
    return (await core.orderService.place(tenant, { items: [{ name: "Ramen", qty: 1 }] }, { channel: "counter", by })).order;
  };
  const signIn = (by: string, role: StaffRole = "KITCHEN") => (session = caller(by, role, `session:${by}`));
  return { core, tenant, clock, act, rest, params, place, signIn };
}

type Setup = ReturnType<typeof setup>;

/** The order's history as the REST answer gives it. */
async function historyOverRest(s: Setup, id: string): Promise<{ status: string; by: string | null }[]> {
  const res = await orderRoute(s.rest("GET", `/orders/${id}`, "key-kds"), s.params({ slug: s.tenant.slug, id }));
  expect(res.status).toBe(200);
  const body = (await res.json()) as { history: { status: string; at: string; by: string | null }[] };
  return body.history.map(({ status, by }) => ({ status, by }));
}

/** Who each webhook event of `order` names, in the order they were written. */
const eventsOf = (s: Setup, order: Pick<Order, "id">) =>
  s.core.db.outbox.filter((e) => (e.data as { id?: string }).id === order.id).map((e) => ({ type: e.type, by: (e.data as { by: unknown }).by }));

afterAll(() => setApp(undefined));

describe("who moved an order, on every path", () => {
  let s: Setup;
  beforeEach(() => {
    s = setup();
  });

  it("the kitchen's tap, then Undo: each move names the person signed in, in the history and the webhook events", async () => {
    const order = await s.place("Cashier");
    s.clock.tick(60_000);
    await s.act(changeOrderStatus, { id: order.id, status: "READY" });
    s.signIn("Ana");
    s.clock.tick(60_000);
    // Undo of Ready: back to PLACED, named too.
    await s.act(changeOrderStatus, { id: order.id, status: "PLACED" });
    s.clock.tick(60_000);
    await s.act(changeOrderStatus, { id: order.id, status: "READY" });
    expect(await historyOverRest(s, order.id)).toEqual([
      { status: "PLACED", by: "Cashier" },
      { status: "READY", by: "Li Wei" },
      { status: "PLACED", by: "Ana" },
      { status: "READY", by: "Ana" },
    ]);
    // An undo back to PLACED sends no event; the others say who.
    expect(eventsOf(s, order)).toEqual([
      { type: "order.created", by: "Cashier" },
      { type: "order.ready", by: "Li Wei" },
      { type: "order.ready", by: "Ana" },
    ]);
  });

  it("the keyboard's bump (Enter on a selected ticket sends its next step) names the person, step after step", async () => {
    const order = await s.place();
    // What kitchen-screen.tsx's onBump sends: the selected ticket's id and nextStep of its status.
    const bump = async (o: Order) => {
      s.clock.tick(30_000);
      const now = (await s.core.orderService.get(s.tenant, o.id)).status;
      return s.act<{ status: string }>(changeOrderStatus, { id: o.id, status: nextStep(now)! });
    };
    expect((await bump(order)).status).toBe("READY");
    s.signIn("Bo");
    expect((await bump(order)).status).toBe("COLLECTED");
    expect((await historyOverRest(s, order.id)).map((h) => h.by)).toEqual(["Cashier", "Li Wei", "Bo"]);
    expect(eventsOf(s, order).at(-1)).toEqual({ type: "order.collected", by: "Bo" });
  });

  it("a typed number moves the order one step, named; Undo of a collection names who took it back", async () => {
    const order = await s.place();
    s.clock.tick(30_000);
    expect(await s.act(advanceTypedNumber, { number: String(order.number) })).toMatchObject({ kind: "moved", order: { status: "READY" } });
    s.signIn("Kitchen"); // a shared code: its role label
    s.clock.tick(30_000);
    await s.act(advanceTypedNumber, { number: String(order.number) });
    s.signIn("Li Wei");
    s.clock.tick(30_000);
    await s.act(changeOrderStatus, { id: order.id, status: "READY" }); // Undo of Collected
    expect(await historyOverRest(s, order.id)).toEqual([
      { status: "PLACED", by: "Cashier" },
      { status: "READY", by: "Li Wei" },
      { status: "COLLECTED", by: "Kitchen" },
      { status: "READY", by: "Li Wei" },
    ]);
    expect(eventsOf(s, order).map((e) => e.by)).toEqual(["Cashier", "Li Wei", "Kitchen", "Li Wei"]);
  });

  it("Cancel names the person", async () => {
    const order = await s.place();
    s.signIn("Bo");
    await s.act(changeOrderStatus, { id: order.id, status: "CANCELLED" });
    expect((await historyOverRest(s, order.id)).at(-1)).toEqual({ status: "CANCELLED", by: "Bo" });
    expect(eventsOf(s, order).at(-1)).toEqual({ type: "order.cancelled", by: "Bo" });
  });

  it("REST: the API key's label takes and moves the order; the answer to GET has the history, oldest first, with times", async () => {
    const placed = await placeRoute(s.rest("POST", "/orders", "key-till", { items: [{ name: "Tea", qty: 1 }] }), s.params({ slug: s.tenant.slug }));
    expect(placed.status).toBe(201);
    const { id } = (await placed.json()) as { id: string; history?: unknown };
    s.clock.tick(45_000);
    const moved = await statusRoute(s.rest("POST", `/orders/${id}/status`, "key-kds", { status: "READY" }), s.params({ slug: s.tenant.slug, id }));
    expect(moved.status).toBe(200);
    // Only GET …/orders/{id} carries the history: the move's answer is the order as before.
    expect(await moved.json()).not.toHaveProperty("history");
    s.clock.tick(45_000);
    await statusRoute(s.rest("POST", `/orders/${id}/status`, "key-kds", { status: "PLACED" }), s.params({ slug: s.tenant.slug, id }));

    const res = await orderRoute(s.rest("GET", `/orders/${id}`, "key-till"), s.params({ slug: s.tenant.slug, id }));
    const body = (await res.json()) as { createdAt: string; history: { status: string; at: string; by: string | null }[] };
    const stored = s.core.db.moves.filter((m) => m.orderId === id);
    expect(body.history).toEqual([
      { status: "PLACED", at: body.createdAt, by: "Till 2" },
      { status: "READY", at: stored[0]!.at.toISOString(), by: "Kitchen display" },
      { status: "PLACED", at: stored[1]!.at.toISOString(), by: "Kitchen display" },
    ]);
    expect(eventsOf(s, { id })).toEqual([
      { type: "order.created", by: "Till 2" },
      { type: "order.ready", by: "Kitchen display" },
    ]);
  });

  it("the kiosk's order names the person (or the shared code's role) at the till", async () => {
    s.signIn("Mei", "CASHIER");
    const ticket = await s.act<{ orderId: string }>(placeOrder, { itemName: "Tea", itemQty: "1", intent: "order" });
    expect((await s.core.orderService.get(s.tenant, ticket.orderId)).placedBy).toBe("Mei");
    expect(await historyOverRest(s, ticket.orderId)).toEqual([{ status: "PLACED", by: "Mei" }]);
  });

  it("a move its condition refuses (the order moved meanwhile, or was cleared) stores nothing", async () => {
    const order = await s.place();
    await s.core.orderService.changeStatus(s.tenant, order.id, { status: "READY" }, "Li Wei");
    // Another screen's stale view: the repository refuses PLACED → READY; no entry, no event.
    const before = s.core.db.moves.length;
    expect(await s.core.orders.updateStatus(s.tenant.id, order.id, "PLACED", "READY", new Date(), "Bo")).toBeNull();
    expect(s.core.db.moves).toHaveLength(before);
    // A moved-to status the order already has is a no-op: nothing stored either.
    await s.core.orderService.changeStatus(s.tenant, order.id, { status: "READY" }, "Bo");
    expect((await s.core.orderService.withHistory(s.tenant, order.id)).history.map((h) => h.by)).toEqual(["Cashier", "Li Wei"]);
    // Cleared off the floor: the move is refused (409) and stores nothing.
    s.core.db.orders.find((o) => o.id === order.id)!.clearedAt = new Date();
    await expect(s.act(changeOrderStatus, { id: order.id, status: "COLLECTED" })).rejects.toThrow(/action refused/);
    expect(s.core.db.moves).toHaveLength(before);
  });

  it("an order taken and moved with no one named (a node of the release before, a tool) has a history with by null", async () => {
    const order = await s.place(null);
    await s.core.orderService.changeStatus(s.tenant, order.id, { status: "READY" }, null);
    expect(await historyOverRest(s, order.id)).toEqual([
      { status: "PLACED", by: null },
      { status: "READY", by: null },
    ]);
  });

  it("the kitchen's recently collected says who collected each, the latest collection of an order collected twice", async () => {
    const [a, b] = [await s.place(), await s.place()];
    for (const o of [a, b]) await s.act(changeOrderStatus, { id: o.id, status: "READY" });
    s.clock.tick(1_000);
    await s.act(changeOrderStatus, { id: a.id, status: "COLLECTED" });
    s.signIn("Ana");
    s.clock.tick(1_000);
    await s.act(changeOrderStatus, { id: b.id, status: "COLLECTED" });
    // a: collected by Li Wei, undone, collected again by Ana.
    s.clock.tick(1_000);
    await s.act(changeOrderStatus, { id: a.id, status: "READY" });
    s.clock.tick(1_000);
    await s.act(changeOrderStatus, { id: a.id, status: "COLLECTED" });
    const { recentlyCollected } = await s.core.orderService.floor(s.tenant);
    expect(recentlyCollected.map((o) => [o.id, o.collectedBy])).toEqual([
      [a.id, "Ana"],
      [b.id, "Ana"],
    ]);
  });

  it("a new shift that clears open orders names who started it in their order.cleared events", async () => {
    const order = await s.place();
    await s.core.shiftService.start(s.tenant, { openOrders: "clear" }, "Ana (staff)", "Ana");
    expect(eventsOf(s, order).at(-1)).toEqual({ type: "order.cleared", by: "Ana" });
  });
});

describe("who marked an order ready", () => {
  const m = (status: OrderStatus, by: string) => ({ status, by });
  it("is the cook who moved it from preparing, not whoever undid its handover", () => {
    expect(readiedBy([m("READY", "Li Wei"), m("COLLECTED", "Sam"), m("READY", "王芳"), m("COLLECTED", "Sam")])).toBe("Li Wei");
  });
  it("is the last cook to make it ready after an undo back to preparing", () => {
    expect(readiedBy([m("READY", "Li Wei"), m("PLACED", "Li Wei"), m("READY", "王芳")])).toBe("王芳");
  });
  it("is nobody while it was never ready", () => {
    expect(readiedBy([])).toBeNull();
    expect(readiedBy([m("CANCELLED", "Ana")])).toBeNull();
  });
});
