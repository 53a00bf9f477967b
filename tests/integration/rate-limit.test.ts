/**
 * The per-key API rate limit (RateLimiterRedis on the real Redis): a server of its own
 * with API_RATE_LIMIT_PER_MINUTE=5 and its own key prefix, so its counts are not shared
 * with the run's server or any other file.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startAppServer, testKeyPrefix, type AppServer } from "../support/app-server";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { apiClient, expectApiError, expectStatus, type Api, type OrderListJson } from "../support/http";

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

describe("the public voice route throttles renders before doing the work", () => {
  const RENDERS = 2;
  let server: AppServer | undefined;

  beforeAll(async () => {
    server = await startAppServer({
      databaseUrl: inject("databaseUrl"),
      keyPrefix: testKeyPrefix("rl-voice"),
      env: { VOICE_RATE_LIMIT_PER_MINUTE: String(RENDERS) },
    });
  });

  afterAll(async () => {
    await server?.stop();
  });

  it(`renders ${RENDERS} new clips for one address, then 429 with Retry-After; clips already rendered stay free`, async () => {
    const get = (n: number) => fetch(`${server!.url}/api/v1/voice/en/${n}.wav`);
    for (const n of [11, 12]) expect((await get(n)).status).toBe(200);
    const refused = await get(13);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("RATE_LIMITED");
    const cached = await get(11);
    expect(cached.status).toBe(200);
    expect(cached.headers.get("x-voice-cache")).toBe("hit");
  });

  it("a made-up X-Forwarded-For does not make a new address: with no trusted proxy the socket's address counts", async () => {
    const get = (n: number, i: number) =>
      fetch(`${server!.url}/api/v1/voice/en/${n}.wav`, {
        headers: { "x-forwarded-for": `203.0.113.${i}`, "x-real-ip": `198.51.100.${i}`, "x-nextup-client-address": `192.0.2.${i}` },
      });
    // The address already used its renders above: every new clip is refused, whatever the headers say.
    for (const [i, n] of [21, 22, 23].entries()) expect((await get(n, i)).status).toBe(429);
  });
});

describe("behind a trusted proxy (TRUST_PROXY)", () => {
  let server: AppServer | undefined;
  beforeAll(async () => {
    server = await startAppServer({
      databaseUrl: inject("databaseUrl"),
      keyPrefix: testKeyPrefix("rl-proxy"),
      env: { VOICE_RATE_LIMIT_PER_MINUTE: "1", TRUST_PROXY: "loopback" },
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("the address the proxy forwarded counts, each client with its own limit", async () => {
    const get = (n: number, client: string) => fetch(`${server!.url}/api/v1/voice/en/${n}.wav`, { headers: { "x-forwarded-for": client } });
    expect((await get(31, "203.0.113.7")).status).toBe(200);
    expect((await get(32, "203.0.113.7")).status).toBe(429);
    expect((await get(33, "203.0.113.8")).status).toBe(200);
  });
});
