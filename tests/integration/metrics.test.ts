/**
 * GET /api/metrics: Prometheus text for operators, behind METRICS_TOKEN; absent (404)
 * when no token is configured.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startAppServer, testKeyPrefix, type AppServer } from "../support/app-server";
import { apiClient, expectApiError } from "../support/http";

describe("metrics endpoint", () => {
  const token = randomBytes(16).toString("hex");
  let server: AppServer | undefined;

  beforeAll(async () => {
    server = await startAppServer({ databaseUrl: inject("databaseUrl"), keyPrefix: testKeyPrefix("metrics"), env: { METRICS_TOKEN: token } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("answers the counter's source and the duplicate counter with the right token", async () => {
    const res = await fetch(`${server!.url}/api/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toMatch(/^nextup_counter_redis 1$/m);
    expect(text).toContain("# TYPE nextup_duplicate_numbers_total counter");
    expect(text).toContain("process_cpu_seconds_total");
  });

  it("refuses a missing token (401) and a wrong one (403)", async () => {
    const call = apiClient(server!.url);
    expectApiError(await call("GET", "/api/metrics"), 401, "UNAUTHENTICATED");
    expectApiError(await call("GET", "/api/metrics", { headers: { authorization: `Bearer ${"x".repeat(32)}` } }), 403, "FORBIDDEN");
  });

  it("does not exist on a server without METRICS_TOKEN", async () => {
    const call = apiClient(inject("baseUrl"));
    expectApiError(await call("GET", "/api/metrics", { headers: { authorization: `Bearer ${token}` } }), 404, "NOT_FOUND");
  });
});
