/**
 * RateLimit and RateLimit-Policy (draft-ietf-httpapi-ratelimit-headers-10, structured
 * fields) on the answers of rate-limited routes, against a server of its own with small
 * limits (API_RATE_LIMIT_PER_MINUTE=5, PUBLIC_REQUESTS_PER_MINUTE=4) and its own key
 * prefix: what is left counts down with each request, whatever the answer's status, and
 * the 429 says none is left, with Retry-After equal to the reset.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startAppServer, testKeyPrefix, type AppServer } from "../support/app-server";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { apiClient, expectApiError, type Api, type ApiResult } from "../support/http";

const API_LIMIT = 5;
const PUBLIC_LIMIT = 4;

let server: AppServer | undefined;
let call: Api;
let t: TestTenant;

beforeAll(async () => {
  const slug = uniqueSlug("rl-fields");
  t = (await provisionTenants(inject("databaseUrl"), [stableDaySpec(slug)]))[slug]!;
  server = await startAppServer({
    databaseUrl: inject("databaseUrl"),
    keyPrefix: testKeyPrefix("rl-fields"),
    env: { API_RATE_LIMIT_PER_MINUTE: String(API_LIMIT), PUBLIC_REQUESTS_PER_MINUTE: String(PUBLIC_LIMIT) },
  });
  call = apiClient(server.url);
});

afterAll(async () => {
  const code = await server?.stop();
  if (code !== undefined && code !== 0) console.error(`server exited with ${code}:\n${server?.output().slice(-4000)}`);
});

/** The RateLimit field of `policy` as numbers, checking its structured-field form. */
function remaining(res: { headers: Headers }, policy: string): { r: number; t: number } {
  const field = res.headers.get("ratelimit") ?? "";
  const m = new RegExp(`^"${policy}";r=(\\d+);t=(\\d+)$`).exec(field);
  expect(m, `RateLimit: ${field}`).not.toBeNull();
  return { r: Number(m![1]), t: Number(m![2]) };
}

describe("the per-key API limit", () => {
  it("every answer with a key says the policy and what is left of it, counting down; the 429 says none, with Retry-After", async () => {
    const orders = `/api/v1/orgs/${t.slug}/orders`;
    const answers: ApiResult<unknown>[] = [
      await call("GET", orders, { key: t.apiKeys.cashier }),
      await call("POST", orders, { key: t.apiKeys.cashier, json: {} }),
      // An error after the key was counted reports the limit too.
      await call("GET", `${orders}/00000000-0000-4000-8000-000000000000`, { key: t.apiKeys.cashier }),
      await call("POST", orders, { key: t.apiKeys.cashier, json: { items: "x" } }),
      await call("GET", orders, { key: t.apiKeys.cashier }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 201, 404, 400, 200]);
    for (const [i, a] of answers.entries()) {
      expect(a.headers.get("ratelimit-policy")).toBe(`"api";q=${API_LIMIT};w=60`);
      const { r, t: reset } = remaining(a, "api");
      expect({ i, r }).toEqual({ i, r: API_LIMIT - 1 - i });
      expect(reset).toBeGreaterThanOrEqual(1);
      expect(reset).toBeLessThanOrEqual(60);
    }

    const limited = await call("GET", orders, { key: t.apiKeys.cashier });
    expectApiError(limited, 429, "RATE_LIMITED");
    expect(limited.headers.get("ratelimit-policy")).toBe(`"api";q=${API_LIMIT};w=60`);
    const { r, t: reset } = remaining(limited, "api");
    expect(r).toBe(0);
    expect(limited.headers.get("retry-after")).toBe(String(reset));

    // Another key counts on its own.
    expect(remaining(await call("GET", orders, { key: t.apiKeys.kitchen }), "api").r).toBe(API_LIMIT - 1);
  });

  it("an answer that counted nothing reports nothing: no key (401), a refused query (400), the public board", async () => {
    const noKey = await call("GET", `/api/v1/orgs/${t.slug}/orders`);
    expect(noKey.status).toBe(401);
    const badQuery = await call("GET", `/api/v1/orgs/${t.slug}/orders?shift=1`, { key: t.apiKeys.manager });
    expect(badQuery.status).toBe(400);
    for (const res of [noKey, badQuery]) {
      expect(res.headers.get("ratelimit")).toBeNull();
      expect(res.headers.get("ratelimit-policy")).toBeNull();
    }
    const board = await call("GET", `/api/v1/orgs/${t.slug}/board`);
    expect(board.headers.get("ratelimit-policy")).not.toContain('"api"');
  });
});

describe("the public limit (board and customers' pages, per address)", () => {
  it("the board's answers count down the public policy; the 429 says none is left, with Retry-After", async () => {
    // The test above spent one public request already.
    const board = `/api/v1/orgs/${t.slug}/board`;
    const answers = [await call("GET", board), await call("GET", board)];
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.headers.get("ratelimit-policy")).toBe(`"public";q=${PUBLIC_LIMIT};w=60`);
    }
    expect(answers.map((a) => remaining(a, "public").r)).toEqual([PUBLIC_LIMIT - 2, PUBLIC_LIMIT - 3]);

    // The board page is the same limit.
    const page = await fetch(`${server!.url}/${t.slug}/board`);
    await page.body?.cancel();
    expect(page.status).toBe(200);
    expect(remaining(page, "public").r).toBe(0);

    const limited = await call("GET", board);
    expectApiError(limited, 429, "RATE_LIMITED");
    expect(limited.headers.get("ratelimit-policy")).toBe(`"public";q=${PUBLIC_LIMIT};w=60`);
    const { r, t: reset } = remaining(limited, "public");
    expect(r).toBe(0);
    expect(limited.headers.get("retry-after")).toBe(String(reset));
  });
});
