import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, servedOverHttps } from "@/lib/server/http/security-headers.server";
import { isApiRoute, isPublicRoute, routeMatcher, scanAppRoutes } from "@/lib/server/http/route-patterns.server";
import { parseTrustProxy } from "@/lib/server/http/client-address.server";

const directives = (csp: string) => Object.fromEntries(csp.split("; ").map((d) => [d.split(" ")[0], d.split(" ").slice(1)]));

describe("contentSecurityPolicy", () => {
  it("allows scripts by nonce only, no framing, no plugins, and what the screens load: data: QR codes, sounds, the same-origin socket", () => {
    const d = directives(contentSecurityPolicy("abc123"));
    expect(d["script-src"]).toEqual(["'self'", "'nonce-abc123'", "'strict-dynamic'"]);
    expect(d["frame-ancestors"]).toEqual(["'none'"]);
    expect(d["object-src"]).toEqual(["'none'"]);
    expect(d["base-uri"]).toEqual(["'none'"]);
    expect(d["img-src"]).toContain("data:");
    expect(d["media-src"]).toEqual(expect.arrayContaining(["'self'", "blob:", "data:"]));
    expect(d["connect-src"]).toEqual(["'self'"]);
    expect(contentSecurityPolicy("n")).not.toContain("unsafe-eval");
  });
  it("lets development's React use eval", () => {
    expect(directives(contentSecurityPolicy("n", true))["script-src"]).toContain("'unsafe-eval'");
  });
});

describe("servedOverHttps", () => {
  const req = (peer: string, proto?: string) =>
    ({ socket: { remoteAddress: peer }, headers: proto ? { "x-forwarded-proto": proto } : {} }) as unknown as IncomingMessage;
  const none = parseTrustProxy(undefined);
  const loopback = parseTrustProxy("loopback");
  it("is true when PUBLIC_URL is https, whoever asks", () => {
    expect(servedOverHttps(req("203.0.113.9"), { httpsPublicUrl: true, trustProxy: none })).toBe(true);
  });
  it("believes X-Forwarded-Proto only from a trusted proxy", () => {
    expect(servedOverHttps(req("127.0.0.1", "https"), { httpsPublicUrl: false, trustProxy: loopback })).toBe(true);
    expect(servedOverHttps(req("127.0.0.1", "https, http"), { httpsPublicUrl: false, trustProxy: loopback })).toBe(true);
    expect(servedOverHttps(req("127.0.0.1", "http"), { httpsPublicUrl: false, trustProxy: loopback })).toBe(false);
    expect(servedOverHttps(req("203.0.113.9", "https"), { httpsPublicUrl: false, trustProxy: loopback })).toBe(false);
    expect(servedOverHttps(req("127.0.0.1", "https"), { httpsPublicUrl: false, trustProxy: none })).toBe(false);
  });
});

describe("public and API routes", () => {
  const match = routeMatcher(scanAppRoutes("app"));
  it("name the board (page, API and voice clips) and the customer's page, nothing behind a sign-in, however the path is spelled", () => {
    for (const p of [
      "/api/v1/orgs/demo/board",
      "/api/v1/orgs/demo/voice/en/42.wav",
      "//api/v1/orgs/demo//voice/zh-CN/42.wav",
      "/api/v1/voice/en/42.wav",
      "//api/v1/orgs/demo/board",
      "/api/v1/orgs/demo//board",
      "/demo/board",
      "/demo/board/",
      "//demo//board",
      "/demo/o/7d4c0000-0000-4000-8000-000000000000",
    ])
      expect(isPublicRoute(match(p)), p).toBe(true);
    for (const p of ["/", "/demo/kiosk", "/demo/sign-in", "/api/v1/orgs/demo/orders", "/api/health", "/_next/static/chunks/x.js", "/socket.io/", "/demo/o/x/y"])
      expect(isPublicRoute(match(p)), p).toBe(false);
  });
  it("the API is every path the API's routes serve, with any number of slashes; pages are not", () => {
    for (const p of ["/api/health", "//api/v1/orgs/demo/board", "/api/v1/orgs/demo//orders", "/api/nope", "/api"]) expect(isApiRoute(match(p)), p).toBe(true);
    for (const p of ["/", "/demo/board", "/apiary/board", "/socket.io/"]) expect(isApiRoute(match(p)), p).toBe(false);
  });
});
