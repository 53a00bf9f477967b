/**
 * GET /api/metrics: Prometheus text for operators, behind METRICS_TOKEN; absent (404)
 * when no token is configured. The series move by what the node did: orders, status
 * changes, requests (labelled by route pattern, never by raw path), sockets.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startAppServer, testKeyPrefix, type AppServer } from "../support/app-server";
import { apiClient, contractFetch, expectApiError, expectStatus, type OrderJson } from "../support/http";
import { scrape, valueOf, type Sample } from "../support/prometheus";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { BoardSocket } from "../support/board-socket";

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
    const res = await contractFetch(`${server!.url}/api/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toMatch(/^nextup_counter_redis 1$/m);
    expect(text).toContain("# TYPE nextup_duplicate_numbers_total counter");
    expect(text).toContain("process_cpu_seconds_total");
  });

  describe("what the node did", () => {
    let t: TestTenant;
    beforeAll(async () => {
      const slug = uniqueSlug("metrics");
      t = (await provisionTenants(inject("databaseUrl"), [stableDaySpec(slug)]))[slug]!;
    });

    it("counts orders by channel, status changes and number-issue timings, and times requests by route pattern and status", async () => {
      const call = apiClient(server!.url);
      const orders = `/api/v1/orgs/${t.slug}/orders`;
      const before = await scrape(server!.url, token);

      const placed: OrderJson[] = [];
      for (const json of [
        { items: [{ name: "Noodles", qty: 1 }] },
        { items: [{ name: "Rice", qty: 2 }] },
        { items: [{ name: "Tea", qty: 1 }], channel: "pos" },
      ]) {
        placed.push(expectStatus(await call<OrderJson>("POST", orders, { key: t.apiKeys.cashier, json }), 201));
      }
      // A replayed idempotent retry stores nothing new: not counted again.
      const key = randomUUID();
      expectStatus(
        await call("POST", orders, { key: t.apiKeys.cashier, json: { items: [{ name: "Soup", qty: 1 }] }, headers: { "idempotency-key": key } }),
        201,
      );
      expectStatus(
        await call("POST", orders, { key: t.apiKeys.cashier, json: { items: [{ name: "Soup", qty: 1 }] }, headers: { "idempotency-key": key } }),
        201,
      );
      // Refused before a number is drawn: no order, no timing.
      expectApiError(await call("POST", orders, { key: t.apiKeys.cashier, json: { items: [{ name: "Tea", qty: 0 }] } }), 400, "BAD_INPUT");
      expectStatus(await call("POST", `${orders}/${placed[0]!.id}/status`, { key: t.apiKeys.kitchen, json: { status: "READY" } }), 200);
      expectStatus(await call("POST", `${orders}/${placed[0]!.id}/status`, { key: t.apiKeys.kitchen, json: { status: "COLLECTED" } }), 200);
      expectStatus(await call("POST", `${orders}/${placed[1]!.id}/status`, { key: t.apiKeys.kitchen, json: { status: "CANCELLED" } }), 200);
      expectStatus(await call("GET", `${orders}/${placed[2]!.id}`, { key: t.apiKeys.kitchen }), 200);
      const unknownPath = `/no-such-${randomBytes(4).toString("hex")}/really/not/here`;
      expect((await call("GET", unknownPath)).status).toBe(404);

      const after = await scrape(server!.url, token);
      const delta = (name: string, labels: Record<string, string> = {}) => valueOf(after, name, labels) - valueOf(before, name, labels);
      expect({
        api: delta("nextup_orders_total", { channel: "api" }),
        pos: delta("nextup_orders_total", { channel: "pos" }),
        kiosk: delta("nextup_orders_total", { channel: "kiosk" }),
        ready: delta("nextup_order_status_changes_total", { status: "READY" }),
        collected: delta("nextup_order_status_changes_total", { status: "COLLECTED" }),
        cancelled: delta("nextup_order_status_changes_total", { status: "CANCELLED" }),
        issuedFromRedis: delta("nextup_number_issue_duration_seconds_count", { source: "redis" }),
        issuedFromDatabase: delta("nextup_number_issue_duration_seconds_count", { source: "database" }),
        posts201: delta("nextup_http_request_duration_seconds_count", { method: "POST", route: "/api/v1/orgs/[slug]/orders", status: "201" }),
        posts400: delta("nextup_http_request_duration_seconds_count", { method: "POST", route: "/api/v1/orgs/[slug]/orders", status: "400" }),
        statusPosts: delta("nextup_http_request_duration_seconds_count", { method: "POST", route: "/api/v1/orgs/[slug]/orders/[id]/status", status: "200" }),
        gets: delta("nextup_http_request_duration_seconds_count", { method: "GET", route: "/api/v1/orgs/[slug]/orders/[id]", status: "200" }),
        unknown: delta("nextup_http_request_duration_seconds_count", { method: "GET", route: "[unknown]", status: "404" }),
      }).toEqual({
        api: 3,
        pos: 1,
        kiosk: 0,
        ready: 1,
        collected: 1,
        cancelled: 1,
        issuedFromRedis: 4,
        issuedFromDatabase: 0,
        posts201: 5,
        posts400: 1,
        statusPosts: 3,
        gets: 1,
        unknown: 1,
      });
      // Every observation landed in a bucket: the sum of durations moved too.
      expect(delta("nextup_number_issue_duration_seconds_sum", { source: "redis" })).toBeGreaterThan(0);
      // Bounded labels: no slug, id or raw path in any label value.
      const labelValues = after.flatMap((s: Sample) => Object.values(s.labels));
      for (const raw of [t.slug, ...placed.map((o) => o.id), unknownPath, "no-such-"]) expect(labelValues.filter((v) => v.includes(raw))).toEqual([]);
      // Series exist before their first event (rate() and alerts see 0, not nothing).
      expect(after.some((s) => s.name === "nextup_orders_total" && s.labels.channel === "delivery")).toBe(true);
      expect(after.some((s) => s.name === "nextup_counter_switches_total" && s.labels.to === "database")).toBe(true);
      expect(after.some((s) => s.name === "nextup_unique_violations_total" && s.labels.index === "number")).toBe(true);
    });

    it("gauges the sockets connected to this node", async () => {
      const connected = async () => valueOf(await scrape(server!.url, token), "nextup_sockets_connected");
      const base = await connected();
      const sockets = await Promise.all([BoardSocket.connect(server!.url, t.slug, "m1"), BoardSocket.connect(server!.url, t.slug, "m2")]);
      try {
        expect(await connected()).toBe(base + 2);
      } finally {
        for (const s of sockets) s.close();
      }
      const deadline = Date.now() + 10_000;
      while ((await connected()) !== base && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(await connected()).toBe(base);
    });
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
