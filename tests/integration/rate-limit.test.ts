/**
 * The per-key API rate limit (RateLimiterRedis on the real Redis): a server of its own
 * with API_RATE_LIMIT_PER_MINUTE=5 and its own key prefix, so its counts are not shared
 * with the run's server or any other file.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startAppServer, testKeyPrefix, type AppServer } from "../support/app-server";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { type Api, apiClient, contractFetch, expectApiError, expectStatus, type OrderJson, type OrderListJson } from "../support/http";

const LIMIT = 5;

describe("per-key rate limit", () => {
  let server: AppServer | undefined;
  let call: Api;
  let tenant: TestTenant;
  let neighbour: TestTenant;

  beforeAll(async () => {
    const slugs = [uniqueSlug("rl-main"), uniqueSlug("rl-neighbour")];
    const t = await provisionTenants(
      inject("databaseUrl"),
      slugs.map((s) => stableDaySpec(s)),
    );
    tenant = t[slugs[0]!]!;
    neighbour = t[slugs[1]!]!;
    server = await startAppServer({
      databaseUrl: inject("databaseUrl"),
      keyPrefix: testKeyPrefix("rl"),
      env: { API_RATE_LIMIT_PER_MINUTE: String(LIMIT) },
    });
    call = apiClient(server.url);
  });

  afterAll(async () => {
    const code = await server?.stop();
    if (code !== undefined && code !== 0) console.error(`rate-limit server exited with ${code}:\n${server?.output().slice(-4000)}`);
  });

  const orders = (t: TestTenant) => `/api/v1/orgs/${t.slug}/orders`;

  it(`allows ${LIMIT} requests of one key, then answers 429 RATE_LIMITED with Retry-After`, async () => {
    for (let i = 1; i <= LIMIT; i++) {
      const res = await call<OrderListJson>("GET", orders(tenant), { key: tenant.apiKeys.cashier });
      expect({ request: i, status: res.status }).toEqual({ request: i, status: 200 });
    }
    const limited = await call("GET", orders(tenant), { key: tenant.apiKeys.cashier });
    expectApiError(limited, 429, "RATE_LIMITED");
    const retryAfter = limited.headers.get("retry-after");
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);

    // Every route behind a key counts against it: a POST is refused too, and stores nothing.
    const post = await call("POST", orders(tenant), { key: tenant.apiKeys.cashier, json: { items: [{ name: "Noodles", qty: 1 }] } });
    expectApiError(post, 429, "RATE_LIMITED");
    expect(post.headers.get("retry-after")).toMatch(/^\d+$/);
  });

  it("another key of the same tenant, and another tenant's key, are not affected", async () => {
    const kitchen = await call<OrderListJson>("GET", orders(tenant), { key: tenant.apiKeys.kitchen });
    // Nothing was stored by the refused POST above.
    expect(expectStatus(kitchen, 200).orders).toEqual([]);
    expectStatus(await call("POST", orders(neighbour), { key: neighbour.apiKeys.cashier, json: { items: [] } }), 201);
    // ...while the exhausted key is still refused.
    expectApiError(await call("GET", orders(tenant), { key: tenant.apiKeys.cashier }), 429, "RATE_LIMITED");
  });

  it("the public board and health are not behind the key limit", async () => {
    for (let i = 0; i < LIMIT + 2; i++) {
      expectStatus(await call("GET", `/api/v1/orgs/${tenant.slug}/board`), 200);
    }
    expectStatus(await call("GET", "/api/health"), 200);
  });
});

/** A restaurant with `n` open orders on `server`; their numbers, for clips a board may ask for. */
async function heldNumbers(server: AppServer, label: string, n: number): Promise<{ slug: string; numbers: number[] }> {
  const slug = uniqueSlug(label);
  const t = (await provisionTenants(inject("databaseUrl"), [stableDaySpec(slug)]))[slug]!;
  const call = apiClient(server.url);
  const numbers: number[] = [];
  for (let i = 0; i < n; i++) {
    const o = await call<OrderJson>("POST", `/api/v1/orgs/${slug}/orders`, { key: t.apiKeys.cashier, json: { items: [{ name: "Tea", qty: 1 }] } });
    numbers.push(expectStatus(o, 201).number);
  }
  return { slug, numbers };
}

describe("the public voice route throttles renders before doing the work", () => {
  const RENDERS = 2;
  let server: AppServer | undefined;
  let held: { slug: string; numbers: number[] };

  beforeAll(async () => {
    server = await startAppServer({
      databaseUrl: inject("databaseUrl"),
      keyPrefix: testKeyPrefix("rl-voice"),
      env: { VOICE_RATE_LIMIT_PER_MINUTE: String(RENDERS) },
    });
    held = await heldNumbers(server, "rl-voice", 3);
  });

  afterAll(async () => {
    await server?.stop();
  });

  const path = (n: number, locale = "en") => `${server!.url}/api/v1/orgs/${held.slug}/voice/${locale}/${n}.wav`;

  it(`renders ${RENDERS} new clips for one address, then 429 with Retry-After; clips already rendered stay free`, async () => {
    const [n1, n2, n3] = held.numbers as [number, number, number];
    for (const n of [n1, n2]) expect((await contractFetch(path(n))).status).toBe(200);
    const refused = await contractFetch(path(n3));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("RATE_LIMITED");
    const cached = await contractFetch(path(n1));
    expect(cached.status).toBe(200);
    expect(cached.headers.get("x-voice-cache")).toBe("hit");
  });

  it("a made-up X-Forwarded-For does not make a new address: with no trusted proxy the socket's address counts", async () => {
    // The address already used its renders above: every new clip is refused, whatever the headers say.
    for (const [i, n] of held.numbers.entries()) {
      const res = await contractFetch(path(n, "zh-CN"), {
        headers: { "x-forwarded-for": `203.0.113.${i}`, "x-real-ip": `198.51.100.${i}`, "x-nextup-client-address": `192.0.2.${i}` },
      });
      expect(res.status).toBe(429);
    }
  });
});

describe("behind a trusted proxy (TRUST_PROXY)", () => {
  let server: AppServer | undefined;
  let held: { slug: string; numbers: number[] };
  beforeAll(async () => {
    server = await startAppServer({
      databaseUrl: inject("databaseUrl"),
      keyPrefix: testKeyPrefix("rl-proxy"),
      env: { VOICE_RATE_LIMIT_PER_MINUTE: "1", TRUST_PROXY: "loopback" },
    });
    held = await heldNumbers(server, "rl-proxy", 3);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("the address the proxy forwarded counts, each client with its own limit", async () => {
    const get = (n: number, client: string) =>
      contractFetch(`${server!.url}/api/v1/orgs/${held.slug}/voice/en/${n}.wav`, { headers: { "x-forwarded-for": client } });
    const [n1, n2, n3] = held.numbers as [number, number, number];
    expect((await get(n1, "203.0.113.7")).status).toBe(200);
    expect((await get(n2, "203.0.113.7")).status).toBe(429);
    expect((await get(n3, "203.0.113.8")).status).toBe(200);
  });
});
