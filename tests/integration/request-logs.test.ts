/**
 * Every log line written while one request is handled carries that request's id (the
 * caller's sane `x-request-id`, else a generated one, echoed in the response) and the
 * restaurant's slug, although neither the route handler nor the core passes them along.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { startAppServer, testKeyPrefix, type AppServer } from "../support/app-server";
import { apiClient, contractFetch, expectStatus, type OrderJson } from "../support/http";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";

const databaseUrl = inject("databaseUrl");
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
let server: AppServer;
let t: TestTenant;

beforeAll(async () => {
  server = await startAppServer({ databaseUrl, keyPrefix: testKeyPrefix("reqlogs"), env: { LOG_LEVEL: "debug" } });
  const slug = uniqueSlug("reqlogs");
  t = (await provisionTenants(databaseUrl, [stableDaySpec(slug)]))[slug]!;
});
afterAll(async () => {
  await server?.stop();
});

type Line = Record<string, unknown>;

/** The JSON log lines carrying `reqId`, once the request's own "request" line has been written. */
async function linesOf(reqId: string): Promise<Line[]> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const lines = server
      .output()
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as Line)
      .filter((l) => l.reqId === reqId);
    if (lines.some((l) => l.msg === "request") || Date.now() > deadline) return lines;
    await new Promise((r) => setTimeout(r, 50));
  }
}

it("lines written during one request carry its x-request-id and the tenant, deep into the core", async () => {
  const reqId = `trace-${randomBytes(6).toString("hex")}`;
  const call = apiClient(server.url);
  const res = await call<OrderJson>("POST", `/api/v1/orgs/${t.slug}/orders`, {
    key: t.apiKeys.cashier,
    json: { items: [{ name: "Noodles", qty: 1 }] },
    headers: { "x-request-id": reqId },
  });
  const order = expectStatus(res, 201);
  expect(res.headers.get("x-request-id")).toBe(reqId);

  const lines = await linesOf(reqId);
  // "order placed" (and, for a tenant's first order, "counter restored from the database")
  // come from lib/core, which knows nothing of requests; "request" is written last.
  const msgs = lines.map((l) => l.msg);
  expect(msgs).toContain("order placed");
  expect(msgs.at(-1)).toBe("request");
  for (const l of lines) expect(l).toMatchObject({ reqId, tenant: t.slug, service: "nextup" });
  expect(lines.find((l) => l.msg === "order placed")).toMatchObject({ orderId: order.id, number: order.number, channel: "api" });
  expect(lines.at(-1)).toMatchObject({ method: "POST", route: "/api/v1/orgs/[slug]/orders", status: 201 });
});

it("a request without a sane x-request-id gets a new one, echoed and logged; pages carry the tenant too", async () => {
  for (const given of [undefined, "<not a sane id>", "x".repeat(200)]) {
    const res = await fetch(`${server.url}/${t.slug}/board`, { headers: given === undefined ? {} : { "x-request-id": given } });
    expect(res.status).toBe(200);
    const reqId = res.headers.get("x-request-id") ?? "";
    expect(reqId).toMatch(UUID);
    const lines = await linesOf(reqId);
    expect(lines.find((l) => l.msg === "request")).toMatchObject({ reqId, tenant: t.slug, route: "/[tenant]/board", status: 200 });
  }
});

it("a path that names no well-formed restaurant logs no tenant", async () => {
  const res = await contractFetch(`${server.url}/api/v1/orgs/${"Bad_Slug".repeat(10)}/board`);
  expect(res.status).toBeGreaterThanOrEqual(400);
  const lines = await linesOf(res.headers.get("x-request-id") ?? "");
  expect(lines.find((l) => l.msg === "request")).toMatchObject({ route: "/api/v1/orgs/[slug]/board" });
  for (const l of lines) expect(l).not.toHaveProperty("tenant");
});
