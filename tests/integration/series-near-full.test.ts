/**
 * A series close to full is shown to the manager before it refuses (issue #36): against the
 * running app, PostgreSQL and Redis, a 1–10 series with 7 open orders lists `open: 7` and
 * warns nowhere; with 8 it lists `open: 8`, and the console's series page and overview each
 * carry the notice; a collected order is no longer open, and the notice goes again.
 */
import { beforeAll, describe, expect, inject, it } from "vitest";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { apiClient, expectStatus, type OrderJson } from "../support/http";
import { signInOverHttp } from "../support/forms";

const baseUrl = inject("baseUrl");
const databaseUrl = inject("databaseUrl");
const call = apiClient(baseUrl);

const slug = uniqueSlug("ser-near");
let t: TestTenant;

beforeAll(async () => {
  t = (await provisionTenants(databaseUrl, [stableDaySpec(slug)]))[slug]!;
});

const org = (rest: string) => `/api/v1/orgs/${slug}/${rest}`;
const openOf = async (name: string) =>
  expectStatus(await call<{ series: { name: string; open: number }[] }>("GET", org("series"), { key: t.apiKeys.manager }), 200).series.find(
    (s) => s.name === name,
  )!.open;
const place = async (series: string) =>
  expectStatus(await call<OrderJson>("POST", org("orders"), { key: t.apiKeys.cashier, json: { items: [{ name: "Tea", qty: 1 }], series } }), 201);
const setStatus = async (id: string, status: string) =>
  expectStatus(await call<OrderJson>("POST", org(`orders/${id}/status`), { key: t.apiKeys.kitchen, json: { status } }), 200);

/** Whether a console page, read signed in as the manager, carries the element (the page carries its messages for the client anyway). */
const pageCarries = async (path: string, testId: string) => {
  const { sessionCookie } = await signInOverHttp(baseUrl, slug, "MANAGER", t.staff.manager);
  const page = await fetch(`${baseUrl}/${slug}/${path}?lang=en`, { headers: { cookie: `nextup_session=${sessionCookie}` }, redirect: "manual" });
  expect(page.status).toBe(200);
  return (await page.text()).includes(`data-testid="${testId}"`);
};
const warned = async () => ({
  series: await pageCarries("manager/series", "series-near-full"),
  overview: await pageCarries("manager", "series-near-full-notice"),
});

describe("a series close to full", () => {
  it("is counted and shown from 8 of 10 open numbers, and no longer once one is collected", async () => {
    expectStatus(await call("POST", org("series"), { key: t.apiKeys.manager, json: { name: "Ten", prefix: "T", first: 1, last: 10 } }), 201);
    // An unprefixed order of the default series shows 1 too: not one of T's numbers.
    await place("Default");
    const orders: OrderJson[] = [];
    for (let i = 0; i < 7; i++) orders.push(await place("Ten"));
    // A ready order is still open.
    await setStatus(orders[0]!.id, "READY");
    expect(await openOf("Ten")).toBe(7);
    expect(await openOf("Default")).toBe(1);
    expect(await warned()).toEqual({ series: false, overview: false });

    orders.push(await place("Ten"));
    expect(await openOf("Ten")).toBe(8);
    expect(await warned()).toEqual({ series: true, overview: true });

    await setStatus(orders[0]!.id, "COLLECTED");
    expect(await openOf("Ten")).toBe(7);
    expect(await warned()).toEqual({ series: false, overview: false });
  });
});
