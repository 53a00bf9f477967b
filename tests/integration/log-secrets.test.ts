/**
 * Secrets never reach the log (issue #10): a Redis password in REDIS_URL used to be printed
 * whole when Redis did not answer at start-up.
 */
import { randomBytes } from "node:crypto";
import { expect, inject, it } from "vitest";
import { startAppServer, testKeyPrefix } from "../support/app-server";
import { freePort } from "../support/ports";
import { apiClient, contractFetch, expectStatus } from "../support/http";
import { provisionTenants } from "../support/tenants";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";

const databaseUrl = inject("databaseUrl");

it("a Redis password in REDIS_URL is not in the start-up log", async () => {
  // Nothing listens on this port: the server warns that Redis does not answer, naming it.
  const redisUrl = `redis://:log-s3cret-pw@127.0.0.1:${await freePort()}`;
  const server = await startAppServer({ databaseUrl, redisUrl, keyPrefix: testKeyPrefix("logs"), env: { REDIS_AUTOSTART: "false", LOG_LEVEL: "info" } });
  try {
    await contractFetch(`${server.url}/api/health`);
  } finally {
    await server.stop();
  }
  const out = server.output();
  expect(out).toContain("Redis does not answer");
  expect(out).toContain("redis://***@127.0.0.1:");
  expect(out).not.toContain("log-s3cret-pw");
});

it("no API key, session cookie or metrics token reaches the log, even at LOG_LEVEL=debug with every request logged", async () => {
  const slug = uniqueSlug("logsecrets");
  const t = (await provisionTenants(databaseUrl, [stableDaySpec(slug)]))[slug]!;
  const metricsToken = `metrics-${randomBytes(12).toString("hex")}`;
  const cookie = `nextup_session=session-${randomBytes(12).toString("hex")}`;
  const server = await startAppServer({ databaseUrl, keyPrefix: testKeyPrefix("logs-debug"), env: { LOG_LEVEL: "debug", METRICS_TOKEN: metricsToken } });
  const wrongKey = `nx_${randomBytes(16).toString("hex")}`;
  try {
    const call = apiClient(server.url);
    expectStatus(
      await call("POST", `/api/v1/orgs/${slug}/orders`, { key: t.apiKeys.cashier, json: { items: [{ name: "Tea", qty: 1 }] }, headers: { cookie } }),
      201,
    );
    expect((await call("GET", `/api/v1/orgs/${slug}/orders`, { key: wrongKey, headers: { cookie } })).status).toBe(401);
    expect((await call("GET", "/api/metrics", { headers: { authorization: `Bearer ${metricsToken}`, cookie } })).status).toBe(200);
    expect((await fetch(`${server.url}/${slug}/kitchen`, { headers: { cookie } })).status).toBeLessThan(500);
  } finally {
    await server.stop();
  }
  const out = server.output();
  expect(out).toContain('"msg":"request"'); // every request was logged…
  for (const secret of [t.apiKeys.cashier, wrongKey, metricsToken, cookie.split("=")[1]!]) expect(out).not.toContain(secret); // …without its secrets
});
