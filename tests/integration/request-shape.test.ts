/**
 * What a REST route takes besides its path, against the run's app server: every route
 * under app/api/v1 refuses a query parameter it does not read (400 naming it and listing
 * the ones it takes) and a body where it takes none, as unknown body fields are refused.
 * The table below is this test's own statement of each route's query and body, and must
 * cover every route file found: a new route fails here until it is listed.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { discoverRoutes } from "../support/fuzz-requests";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { apiClient, type ApiResult, contractFetch, type ErrorJson, expectApiError, expectStatus, type OrderJson } from "../support/http";
import { rawHttp, requestBytes } from "../support/raw-http";
import { provisionTenants, type TestTenant } from "../support/tenants";

const baseUrl = inject("baseUrl");
const databaseUrl = inject("databaseUrl");
const call = apiClient(baseUrl);

/** "METHOD template" → the query parameters it reads, and whether it reads a body. */
const ROUTES: Record<string, { query?: string[]; body?: true }> = {
  "GET /api/v1/orgs/[slug]/audit": { query: ["limit"] },
  "GET /api/v1/orgs/[slug]/board": {},
  "GET /api/v1/orgs/[slug]/keys": {},
  "POST /api/v1/orgs/[slug]/keys": { body: true },
  "DELETE /api/v1/orgs/[slug]/keys/[id]": {},
  "GET /api/v1/orgs/[slug]/menu": {},
  "GET /api/v1/orgs/[slug]/menu/categories": {},
  "POST /api/v1/orgs/[slug]/menu/categories": { body: true },
  "PATCH /api/v1/orgs/[slug]/menu/categories/[id]": { body: true },
  "DELETE /api/v1/orgs/[slug]/menu/categories/[id]": { query: ["cascade"] },
  "GET /api/v1/orgs/[slug]/menu/items": { query: ["categoryId"] },
  "POST /api/v1/orgs/[slug]/menu/items": { body: true },
  "PATCH /api/v1/orgs/[slug]/menu/items/[id]": { body: true },
  "DELETE /api/v1/orgs/[slug]/menu/items/[id]": {},
  "PUT /api/v1/orgs/[slug]/menu/items/[id]/available": { body: true },
  "GET /api/v1/orgs/[slug]/orders": { query: ["status", "number", "day"] },
  "POST /api/v1/orgs/[slug]/orders": { body: true },
  "GET /api/v1/orgs/[slug]/orders.csv": { query: ["from", "to"] },
  "GET /api/v1/orgs/[slug]/orders/[id]": {},
  "POST /api/v1/orgs/[slug]/orders/[id]/call": {},
  "POST /api/v1/orgs/[slug]/orders/[id]/subscriptions": { query: ["lang"], body: true },
  "POST /api/v1/orgs/[slug]/orders/[id]/print": { body: true },
  "GET /api/v1/orgs/[slug]/print-jobs": { query: ["printerId", "limit"] },
  "GET /api/v1/orgs/[slug]/printers": {},
  "POST /api/v1/orgs/[slug]/printers": { body: true },
  "PATCH /api/v1/orgs/[slug]/printers/[id]": { body: true },
  "DELETE /api/v1/orgs/[slug]/printers/[id]": {},
  "POST /api/v1/orgs/[slug]/printers/[id]/test": {},
  "POST /api/v1/orgs/[slug]/orders/[id]/status": { body: true },
  "GET /api/v1/orgs/[slug]/series": {},
  "POST /api/v1/orgs/[slug]/series": { body: true },
  "PATCH /api/v1/orgs/[slug]/series/[id]": { body: true },
  "DELETE /api/v1/orgs/[slug]/series/[id]": {},
  "GET /api/v1/orgs/[slug]/stations": {},
  "POST /api/v1/orgs/[slug]/stations": { body: true },
  "PATCH /api/v1/orgs/[slug]/stations/[id]": { body: true },
  "DELETE /api/v1/orgs/[slug]/stations/[id]": {},
  "POST /api/v1/orgs/[slug]/orders/[id]/stations/[stationId]/done": {},
  "DELETE /api/v1/orgs/[slug]/orders/[id]/stations/[stationId]/done": {},
  "GET /api/v1/orgs/[slug]/settings": {},
  "PUT /api/v1/orgs/[slug]/settings": { body: true },
  "GET /api/v1/orgs/[slug]/shifts": { query: ["day"] },
  "POST /api/v1/orgs/[slug]/shifts": { body: true },
  "GET /api/v1/orgs/[slug]/staff": {},
  "POST /api/v1/orgs/[slug]/staff": { body: true },
  "PATCH /api/v1/orgs/[slug]/staff/[who]": { body: true },
  "POST /api/v1/orgs/[slug]/staff/[who]/rotate": {},
  "GET /api/v1/orgs/[slug]/stats": { query: ["day"] },
  "GET /api/v1/orgs/[slug]/webhooks": {},
  "POST /api/v1/orgs/[slug]/webhooks": { body: true },
  "DELETE /api/v1/orgs/[slug]/webhooks/[id]": {},
  "PATCH /api/v1/orgs/[slug]/webhooks/[id]": { body: true },
  "GET /api/v1/orgs/[slug]/webhooks/[id]/deliveries": { query: ["limit"] },
  "POST /api/v1/orgs/[slug]/webhooks/[id]/ping": {},
  "POST /api/v1/orgs/[slug]/webhooks/[id]/secret": {},
  "GET /api/v1/orgs/[slug]/voice/[locale]/[clip]": {},
  "GET /api/v1/voice/[locale]/[clip]": {},
  "GET /api/v1/push/key": {},
  "GET /api/v1/openapi.json": {},
};

let t: TestTenant;
let order: OrderJson;
const port = Number(new URL(baseUrl).port);

beforeAll(async () => {
  const slug = uniqueSlug("shape");
  t = (await provisionTenants(databaseUrl, [stableDaySpec(slug)]))[slug]!;
  order = expectStatus(await call<OrderJson>("POST", `/api/v1/orgs/${slug}/orders`, { key: t.apiKeys.cashier, json: {} }), 201);
});

/** The route's path with this tenant's slug, its order's id, a role and a clip; other ids need not exist (the shape is judged first). */
const pathOf = (template: string) =>
  template
    .replace("[slug]", t.slug)
    .replace("/orders/[id]", `/orders/${order.id}`)
    .replace("[id]", randomUUID())
    .replace("[stationId]", randomUUID())
    .replace("[role]", "kitchen")
    .replace("[locale]", "en")
    .replace("[clip]", "7.wav");

const cases = Object.entries(ROUTES).map(([route, takes]) => {
  const [method, template] = route.split(" ") as [string, string];
  return { route, method, template, query: takes.query ?? [], body: takes.body ?? false };
});

/** The state a refused request must leave: the tenant's orders and keys as they were. */
const snapshot = async () => ({
  orders: expectStatus(await call<{ orders: OrderJson[] }>("GET", `/api/v1/orgs/${t.slug}/orders`, { key: t.apiKeys.manager }), 200).orders,
  keys: expectStatus(await call<{ keys: unknown[] }>("GET", `/api/v1/orgs/${t.slug}/keys`, { key: t.apiKeys.manager }), 200).keys,
});

describe("every REST route declares its query and body", () => {
  it("the table covers every route file under app/api/v1 and each method it exports", () => {
    const found = discoverRoutes(process.cwd())
      .filter((r) => r.template.startsWith("/api/v1/"))
      .flatMap((r) => r.methods.map((m) => `${m} ${r.template}`))
      .sort();
    expect(found).toEqual(Object.keys(ROUTES).sort());
  });

  it.each(cases)("$route refuses an unknown query parameter: 400 naming it and listing the accepted ones", async ({ method, template, query, body }) => {
    const before = await snapshot();
    const res = await call(method, `${pathOf(template)}?shift=1`, { key: t.apiKeys.manager, ...(body ? { json: {} } : {}) });
    const error = expectApiError(res, 400, "BAD_INPUT");
    expect(error.message).toMatch(/^shift: unknown query parameter; /);
    expect(error.message).toContain(query.length ? `this endpoint takes ${query.join(", ")}` : "this endpoint takes no query parameters");
    expect((error.details as { accepted: string[] }).accepted).toEqual(query);
    expect(await snapshot()).toEqual(before);
  });

  it.each(cases.filter((c) => !c.body))("$route refuses a body: 400", async ({ method, template }) => {
    const before = await snapshot();
    const json = JSON.stringify({ announce: false });
    let res: ApiResult<unknown>;
    if (method === "GET") {
      // fetch sends no body with a GET: on a raw socket.
      const raw = await rawHttp(
        port,
        requestBytes(
          {
            method,
            target: pathOf(template),
            headers: [
              ["Authorization", `Bearer ${t.apiKeys.manager}`],
              ["Content-Type", "application/json"],
            ],
            body: json,
          },
          `127.0.0.1:${port}`,
        ),
      );
      if (raw.kind !== "response") throw new Error("the server closed without an answer");
      const { status, headers, body } = raw.response;
      res = { status, headers: new Headers(headers), body: JSON.parse(body.toString("utf8")) as unknown };
    } else {
      res = await call(method, pathOf(template), { key: t.apiKeys.manager, body: json, headers: { "content-type": "application/json" } });
    }
    const error = expectApiError(res, 400, "BAD_INPUT");
    expect(error.message).toMatch(/takes no body/);
    expect((error as ErrorJson["error"] & { details: { fields: { path: string }[] } }).details.fields[0]!.path).toBe("(body)");
    expect(await snapshot()).toEqual(before);
  });

  it.each(cases.filter((c) => c.body))("$route refuses an unknown body field, as it always did", async ({ method, template }) => {
    const before = await snapshot();
    const res = await call(method, pathOf(template), { key: t.apiKeys.manager, json: { shift: 1 } });
    // PATCH of an id that does not exist may be a 404 once the body passed: only a 400 names the field.
    if (res.status === 404) return;
    // Among the fields it lists (a missing required field may come first).
    expect(JSON.stringify(expectApiError(res, 400, "BAD_INPUT").details)).toContain("shift");
    expect(await snapshot()).toEqual(before);
  });
});

describe("what the routes still take", () => {
  it("a one-value parameter given twice is refused; status may repeat", async () => {
    const twice = await call("GET", `/api/v1/orgs/${t.slug}/stats?day=${order.businessDay}&day=${order.businessDay}`, { key: t.apiKeys.manager });
    expect(expectApiError(twice, 400, "BAD_INPUT").message).toBe("day: may be given once");
    expectStatus(await call("GET", `/api/v1/orgs/${t.slug}/orders?status=PLACED&status=READY`, { key: t.apiKeys.kitchen }), 200);
  });

  it("no body, a blank one or {} is no body: …/call answers for the order (409, not ready), not 400", async () => {
    for (const body of [undefined, "", "  ", "{}", " { } "]) {
      const res = await call("POST", `/api/v1/orgs/${t.slug}/orders/${order.id}/call`, {
        key: t.apiKeys.kitchen,
        ...(body === undefined ? {} : { body, headers: { "content-type": "application/json" } }),
      });
      expect(expectApiError(res, 409, "CONFLICT").message).toMatch(/not ready/);
    }
  });

  it("what the product's own clients send is taken: the board's fetch, the console's CSV form, the board's voice clip", async () => {
    expectStatus(await call("GET", `/api/v1/orgs/${t.slug}/board`, { headers: { accept: "application/json" } }), 200);
    const csv = await contractFetch(`${baseUrl}/api/v1/orgs/${t.slug}/orders.csv?from=${order.businessDay}&to=${order.businessDay}`, {
      headers: { authorization: `Bearer ${t.apiKeys.manager}` },
    });
    expect(csv.status).toBe(200);
    await csv.body?.cancel();
    // The board asks for the number it calls, which an open order holds.
    const clip = await contractFetch(`${baseUrl}/api/v1/orgs/${t.slug}/voice/en/${order.number}.wav`);
    expect({ status: clip.status, type: clip.headers.get("content-type") }).toEqual({ status: 200, type: "audio/wav" });
    await clip.body?.cancel();
  });

  it("operators' endpoints take any query (monitors add their own)", async () => {
    expect((await call("GET", "/api/health?probe=uptime&_=1")).status).toBe(200);
  });
});
