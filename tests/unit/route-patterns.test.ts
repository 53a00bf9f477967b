import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { NEXT_ASSETS_ROUTE, PUBLIC_FILE_ROUTE, UNKNOWN_ROUTE, routeMatcher, scanAppRoutes } from "@/lib/server/http/route-patterns.server";

describe("routeMatcher", () => {
  const match = routeMatcher(
    [
      "/",
      "/[tenant]/kiosk",
      "/[tenant]/o/[orderId]",
      "/api/health",
      "/api/v1/orgs/[slug]/orders",
      "/api/v1/orgs/[slug]/orders.csv",
      "/api/v1/orgs/[slug]/orders/[id]",
      "/api/v1/orgs/[slug]/orders/[id]/status",
      "/docs/[...path]",
      "/[x]/static-beats-dynamic",
      "/special/static-beats-dynamic",
    ],
    ["/sounds/chime.wav"],
  );

  it("labels a path with its route pattern and hands back the parameters, never the raw path", () => {
    expect(match("/alpha/kiosk")).toEqual({ route: "/[tenant]/kiosk", params: { tenant: "alpha" } });
    expect(match("/api/v1/orgs/bravo/orders/0b5c/status")).toEqual({ route: "/api/v1/orgs/[slug]/orders/[id]/status", params: { slug: "bravo", id: "0b5c" } });
    expect(match("/api/v1/orgs/bravo/orders.csv").route).toBe("/api/v1/orgs/[slug]/orders.csv");
    expect(match("/api/v1/orgs/bravo/orders/").route).toBe("/api/v1/orgs/[slug]/orders");
    expect(match("/").route).toBe("/");
    expect(match("/api/health").route).toBe("/api/health");
  });

  it("matches any spelling the router serves: empty and dot segments, %2e too", () => {
    for (const spelled of [
      "//api/health",
      "/api//health/",
      "/./api/health",
      "/%2E/api/health",
      "/api/x/../health",
      "/api/x/%2e%2E/health",
      "/x/..//api/health",
    ]) {
      expect(match(spelled).route, spelled).toBe("/api/health");
    }
    expect(match("/../api/health").route).toBe("/api/health");
    expect(match("/api/health/..").route).toBe(UNKNOWN_ROUTE);
    expect(match("/api/health/...").route).toBe(UNKNOWN_ROUTE);
  });

  it("prefers static segments over dynamic ones, as Next does", () => {
    expect(match("/special/static-beats-dynamic").route).toBe("/special/static-beats-dynamic");
    expect(match("/other/static-beats-dynamic").route).toBe("/[x]/static-beats-dynamic");
  });

  it("catch-all segments take the rest of the path", () => {
    expect(match("/docs/a/b/c")).toEqual({ route: "/docs/[...path]", params: { path: "a/b/c" } });
    expect(match("/docs").route).toBe(UNKNOWN_ROUTE);
    // Both a route of the path's length and a catch-all take it: the first segment that differs decides.
    expect(match("/docs/static-beats-dynamic").route).toBe("/docs/[...path]");
  });

  it("puts Next's assets, public files and unknown paths under one label each", () => {
    expect(match("/_next/static/chunks/abc123.js").route).toBe(NEXT_ASSETS_ROUTE);
    expect(match("/_next/image").route).toBe(NEXT_ASSETS_ROUTE);
    expect(match("/sounds/chime.wav").route).toBe(PUBLIC_FILE_ROUTE);
    expect(match("/wp-login.php").route).toBe(UNKNOWN_ROUTE);
    expect(match("/alpha/kiosk/extra").route).toBe(UNKNOWN_ROUTE);
    expect(match(`/${"x".repeat(5000)}/nowhere/at/all`).route).toBe(UNKNOWN_ROUTE);
  });
});

describe("scanAppRoutes", () => {
  it("finds pages, route handlers and metadata files; skips groups, slots and private folders", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "routes-"));
    const file = (p: string) => {
      mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
      writeFileSync(path.join(dir, p), "");
    };
    file("page.tsx");
    file("icon.svg");
    file("layout.tsx");
    file("(shop)/[tenant]/kiosk/page.tsx");
    file("[tenant]/kiosk/actions.ts");
    file("[tenant]/@modal/help/page.tsx");
    file("_components/thing/page.tsx");
    file("api/v1/orgs/[slug]/orders/route.ts");
    expect(scanAppRoutes(dir)).toEqual(["/", "/[tenant]/help", "/[tenant]/kiosk", "/api/v1/orgs/[slug]/orders", "/icon.svg"]);
  });

  it("reads this app's routes", () => {
    const routes = scanAppRoutes("app");
    expect(routes).toContain("/[tenant]/kiosk");
    expect(routes).toContain("/api/v1/orgs/[slug]/orders/[id]/status");
    expect(routes).toContain("/api/ready");
  });
});
