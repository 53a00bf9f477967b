/**
 * Idempotency keys are scoped to the caller that sent them (decision 0025): an API key
 * (one integrator) or a kiosk device (its device cookie, kept across sign-ins: decision
 * 0037), against the run's app server, PostgreSQL and Redis. Two integrators of one restaurant that both send
 * `Idempotency-Key: order-1001` get two orders; each one's retry replays its own; an order a
 * node of the release before stored (without a scope) still replays for its key.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { cookieValue, signInOverHttp } from "../support/forms";
import { apiClient, expectApiError, expectStatus, type OrderJson } from "../support/http";
import { kioskPlaceOrder } from "../support/kiosk-action";
import { provisionTenants, type TestTenant } from "../support/tenants";

const baseUrl = inject("baseUrl");
const databaseUrl = inject("databaseUrl");
const call = apiClient(baseUrl);

let t: TestTenant;
/** A second cashier key of the same restaurant: another delivery platform. */
let platformB: string;
let db: pg.Client;

const orders = () => `/api/v1/orgs/${t.slug}/orders`;
const place = (key: string, idempotencyKey: string, json: unknown = { items: [{ name: "Ramen", qty: 1 }] }) =>
  call<OrderJson>("POST", orders(), { key, json, headers: { "idempotency-key": idempotencyKey } });

beforeAll(async () => {
  const slug = uniqueSlug("idem-scope");
  t = (await provisionTenants(databaseUrl, [stableDaySpec(slug)]))[slug]!;
  const made = await call<{ key: string }>("POST", `/api/v1/orgs/${slug}/keys`, { key: t.apiKeys.manager, json: { role: "cashier", name: "Platform B" } });
  platformB = expectStatus(made, 201).key;
  db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
});

afterAll(async () => {
  await db?.end();
});

describe("Idempotency-Key per API key", () => {
  it("two integrators both sending order-1001 each get their own order; each one's retry replays its own", async () => {
    const a = await place(t.apiKeys.cashier, "order-1001");
    const b = await place(platformB, "order-1001");
    expectStatus(a, 201);
    expectStatus(b, 201);
    expect(b.headers.get("idempotent-replayed")).toBeNull();
    expect(b.body.id).not.toBe(a.body.id);
    expect(b.body.number).toBe(a.body.number + 1);

    const aAgain = await place(t.apiKeys.cashier, "order-1001");
    const bAgain = await place(platformB, "order-1001");
    expect(aAgain.headers.get("idempotent-replayed")).toBe("true");
    expect(bAgain.headers.get("idempotent-replayed")).toBe("true");
    expect(aAgain.body).toEqual(a.body);
    expect(bAgain.body).toEqual(b.body);
  });

  it("another integrator's key with a different order is a new order, not a 409; the same key's different order still is", async () => {
    const a = expectStatus(await place(t.apiKeys.cashier, "order-2002", { items: [{ name: "Soba", qty: 1 }] }), 201);
    const b = await place(platformB, "order-2002", { items: [{ name: "Udon", qty: 3 }] });
    expect(expectStatus(b, 201).id).not.toBe(a.id);
    expect(b.body.items).toEqual([{ name: "Udon", qty: 3 }]);
    expectApiError(await place(platformB, "order-2002", { items: [{ name: "Udon", qty: 4 }] }), 409, "CONFLICT");
  });

  it("concurrent first attempts of two integrators with one key store two orders, each key's retries one", async () => {
    const sends = Array.from({ length: 10 }, (_, i) => place(i % 2 ? platformB : t.apiKeys.cashier, "order-3003"));
    const results = await Promise.all(sends);
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(201));
    const ids = (parity: number) => new Set(results.filter((_, i) => i % 2 === parity).map((r) => r.body.id));
    expect(ids(0).size).toBe(1);
    expect(ids(1).size).toBe(1);
    expect([...ids(0)][0]).not.toBe([...ids(1)][0]);
  });

  it("an order a node of the release before stored (no scope) still replays for its key, the upgrade day", async () => {
    const before = expectStatus(await place(t.apiKeys.cashier, "pre-upgrade-1"), 201);
    // What the previous release wrote: the same row without a scope.
    const { rowCount } = await db.query(`UPDATE "Order" SET "idempotencyScope" = NULL WHERE id = $1`, [before.id]);
    expect(rowCount).toBe(1);
    const retry = await place(t.apiKeys.cashier, "pre-upgrade-1");
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.body).toEqual(before);
    // Its key's owner is not known: as before the upgrade, any caller's key replays it (decision 0025).
    const other = await place(platformB, "pre-upgrade-1");
    expect(other.headers.get("idempotent-replayed")).toBe("true");
    expect(other.body.id).toBe(before.id);
  });
});

describe("the kiosk's idempotency key, per device", () => {
  /** Signs a cashier in on a device whose cookie jar holds `device` (none: a new device); the session and the device it ends with. */
  const signInOn = async (device?: string) => {
    const res = await signInOverHttp(baseUrl, t.slug, "CASHIER", t.staff.cashier, device === undefined ? {} : { cookie: `nextup_device=${device}` });
    expect(res.sessionCookie, `sign-in answered ${res.status}`).toBeTruthy();
    return { session: res.sessionCookie!, device: res.deviceCookieLine === null ? device : cookieValue(res.deviceCookieLine), line: res.deviceCookieLine };
  };
  type Placed = { orderId: string; number: number; created: boolean };
  const placed = (r: Awaited<ReturnType<typeof kioskPlaceOrder>>): Placed => {
    expect(r.result?.ok, `${r.status}: ${r.text.replace(/[A-Za-z0-9+/=]{80,}/g, "…")}`).toBe(true);
    return (r.result as { ok: true; data: Placed }).data;
  };

  it("a till that signs in again (a new session) and retries its key gets its order again; another till's same key is its own order", async () => {
    const key = "3b1f5c0e-8d2a-4c1b-9f7e-000000000002";
    const till = await signInOn();
    const first = placed(await kioskPlaceOrder(baseUrl, t.slug, till.session, { idempotencyKey: key }, till.device));
    expect(first.created).toBe(true);

    const again = await signInOn(till.device);
    expect(again.session).not.toBe(till.session);
    const retry = placed(await kioskPlaceOrder(baseUrl, t.slug, again.session, { idempotencyKey: key }, again.device));
    expect(retry).toMatchObject({ orderId: first.orderId, number: first.number, created: false });

    const other = await signInOn();
    const theirs = placed(await kioskPlaceOrder(baseUrl, t.slug, other.session, { idempotencyKey: key }, other.device));
    expect(theirs.created).toBe(true);
    expect(theirs.orderId).not.toBe(first.orderId);

    // The device keeps its id, HttpOnly, renewed at every sign-in; a new device gets another.
    expect(again.device).toBe(till.device);
    expect(other.device).not.toBe(till.device);
    for (const line of [till.line, again.line, other.line]) expect(line).toMatch(/; HttpOnly/i);
  });

  it("a cookie that is no device id is replaced at sign-in, never used as a scope", async () => {
    const made = await signInOn("another-tills-name");
    expect(made.device).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it("two kiosks (two sign-ins) sending one key get two orders; one kiosk's retry gets its own again", async () => {
    const signIn = async () => {
      const res = await signInOverHttp(baseUrl, t.slug, "CASHIER", t.staff.cashier);
      expect(res.sessionCookie, `sign-in answered ${res.status}`).toBeTruthy();
      return res.sessionCookie!;
    };
    const [till1, till2] = [await signIn(), await signIn()];
    const key = "3b1f5c0e-8d2a-4c1b-9f7e-000000000001";
    const first = await kioskPlaceOrder(baseUrl, t.slug, till1, { idempotencyKey: key });
    const second = await kioskPlaceOrder(baseUrl, t.slug, till2, { idempotencyKey: key });
    const retry = await kioskPlaceOrder(baseUrl, t.slug, till1, { idempotencyKey: key });
    for (const r of [first, second, retry]) expect(r.result?.ok, `${r.status}: ${r.text.replace(/[A-Za-z0-9+/=]{80,}/g, "…")}`).toBe(true);
    const data = (r: typeof first) => (r.result as { ok: true; data: { orderId: string; number: number; created: boolean } }).data;
    expect(data(first).created).toBe(true);
    expect(data(second).created).toBe(true);
    expect(data(second).orderId).not.toBe(data(first).orderId);
    expect(data(retry)).toMatchObject({ orderId: data(first).orderId, number: data(first).number, created: false });
    // A REST integrator's key of the same text is yet another caller.
    const rest = expectStatus(await place(t.apiKeys.cashier, key), 201);
    expect([data(first).orderId, data(second).orderId]).not.toContain(rest.id);
  });
});
