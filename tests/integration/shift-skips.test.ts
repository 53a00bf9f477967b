/**
 * A new shift says which numbers it will skip (issue #41): against the running app,
 * PostgreSQL and Redis, the overview (English and Chinese) names the open numbers per series
 * — "Next number 2; 1, 3–5 are still open and will be skipped" — and the orders taken after
 * the shift starts get exactly the next numbers it named.
 */
import { beforeAll, describe, expect, inject, it } from "vitest";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { apiClient, expectStatus, type OrderJson } from "../support/http";
import { signInOverHttp } from "../support/forms";

const baseUrl = inject("baseUrl");
const databaseUrl = inject("databaseUrl");
const call = apiClient(baseUrl);

const slug = uniqueSlug("skips");
let t: TestTenant;

beforeAll(async () => {
  t = (await provisionTenants(databaseUrl, [stableDaySpec(slug)]))[slug]!;
});

const org = (rest: string) => `/api/v1/orgs/${slug}/${rest}`;
const place = async (series: string) =>
  expectStatus(await call<OrderJson>("POST", org("orders"), { key: t.apiKeys.cashier, json: { items: [{ name: "Noodles", qty: 1 }], series } }), 201);
const collect = async (id: string) => {
  for (const status of ["READY", "COLLECTED"]) expectStatus(await call("POST", org(`orders/${id}/status`), { key: t.apiKeys.kitchen, json: { status } }), 200);
};

/** The overview as the manager's browser first gets it. */
const overview = async (lang: string) => {
  const { sessionCookie } = await signInOverHttp(baseUrl, slug, "MANAGER", t.staff.manager);
  const page = await fetch(`${baseUrl}/${slug}/manager?lang=${lang}`, { headers: { cookie: `nextup_session=${sessionCookie}` }, redirect: "manual" });
  expect(page.status).toBe(200);
  return page.text();
};

describe("the numbers a new shift skips", () => {
  it("says plainly that numbers start again when nothing is open", async () => {
    expect(await overview("en")).toContain("Numbers start again from 1.");
    expect(await overview("zh-CN")).toContain("号码从 1 重新开始。");
  });

  it("names the open numbers per series, and the next orders get the numbers it named", async () => {
    expectStatus(await call("POST", org("series"), { key: t.apiKeys.manager, json: { name: "Takeaway", prefix: "K", first: 1, last: 10 } }), 201);
    const taken = [];
    for (let i = 0; i < 5; i++) taken.push(await place("Default"));
    expect(taken.map((o) => o.number)).toEqual([1, 2, 3, 4, 5]);
    await collect(taken[1]!.id);
    await place("Takeaway");
    await place("Takeaway");

    const en = await overview("en");
    expect(en).toContain("Default: Next number 2; 1, 3–5 are still open and will be skipped.");
    expect(en).toContain("Takeaway: Next number K3; K1, K2 are still open and will be skipped.");
    const zh = await overview("zh-CN");
    expect(zh).toContain("Default：下一个号码是 2；1、3–5 仍未完成，将被跳过。");

    const started = expectStatus(await call<{ nextNumber: number }>("POST", org("shifts"), { key: t.apiKeys.manager, json: { openOrders: "keep" } }), 201);
    expect(started.nextNumber).toBe(2);
    expect([(await place("Default")).number, (await place("Default")).number]).toEqual([2, 6]);
    const k = await place("Takeaway");
    expect(k.display).toBe("K3");
  });
});
