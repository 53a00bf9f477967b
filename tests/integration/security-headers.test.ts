/**
 * Security headers on every response of the running app (issue #10): pages, the API,
 * static files, Socket.IO's polling and the 400 for a malformed URL carry a
 * Content-Security-Policy with frame-ancestors, nosniff and a Referrer-Policy; pages get a
 * fresh script nonce that Next.js puts on its scripts; HSTS only over HTTPS.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startAppServer, testKeyPrefix, type AppServer } from "../support/app-server";
import { signInOverHttp } from "../support/forms";

const baseUrl = inject("baseUrl");
const slug = inject("tenants").alpha!.slug;

const nonceOf = (csp: string | null) => /'nonce-([^']+)'/.exec(csp ?? "")?.[1];

function expectSecurityHeaders(res: Response, what: string) {
  const csp = res.headers.get("content-security-policy") ?? "";
  expect(csp, what).toContain("frame-ancestors 'none'");
  if (what.startsWith("API")) {
    // JSON loads nothing: the strictest policy, no nonce.
    expect(csp, what).toBe("default-src 'none'; frame-ancestors 'none'");
  } else {
    expect(csp, what).toContain("object-src 'none'");
    expect(csp, what).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
  }
  expect(res.headers.get("x-content-type-options"), what).toBe("nosniff");
  expect(res.headers.get("referrer-policy"), what).toBe("same-origin");
  expect(res.headers.get("x-frame-options"), what).toBe("DENY");
}

describe("every kind of response carries the headers", () => {
  it("pages, the API, static files, Socket.IO polling, a 404 and a malformed URL", async () => {
    const board = await fetch(`${baseUrl}/${slug}/board`);
    const html = await board.text();
    const script = /<script[^>]*src="(\/_next\/static\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeTruthy();
    const targets: [string, string, number][] = [
      ["start page", "/", 200],
      ["board page", `/${slug}/board`, 200],
      ["sign-in page", `/${slug}/sign-in`, 200],
      ["customer page, unknown order", `/${slug}/o/00000000-0000-4000-8000-000000000000`, 404],
      ["unknown restaurant", "/no-such-place-here/board", 404],
      ["API: board", `/api/v1/orgs/${slug}/board`, 200],
      ["API error", `/api/v1/orgs/${slug}/orders`, 401],
      ["API: health", "/api/health", 200],
      ["Next's static script", script!, 200],
      ["public file", "/sounds/chime.wav", 200],
      ["Socket.IO polling handshake", "/socket.io/?EIO=4&transport=polling", 200],
      ["Socket.IO bad request", "/socket.io/?EIO=4&transport=nonsense", 400],
      ["malformed URL", "/%ff/board", 400],
    ];
    for (const [what, path, status] of targets) {
      const res = await fetch(`${baseUrl}${path}`, { redirect: "manual" });
      await res.body?.cancel();
      expect(res.status, what).toBe(status);
      expectSecurityHeaders(res, what);
      expect(res.headers.get("strict-transport-security"), what).toBeNull();
    }
  });

  it("a page's scripts carry the response's nonce, a new one each time; a nonce the client sends is not used", async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${baseUrl}/${slug}/board`, { headers: { "content-security-policy": "script-src 'nonce-chosenByTheClient'" } });
      const nonce = nonceOf(res.headers.get("content-security-policy"));
      expect(nonce).toBeTruthy();
      expect(nonce!.length).toBeGreaterThanOrEqual(22);
      const html = await res.text();
      const scripts = html.match(/<script\b[^>]*>/g) ?? [];
      expect(scripts.length).toBeGreaterThan(0);
      for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
      expect(html).not.toContain("chosenByTheClient");
      seen.add(nonce!);
    }
    expect(seen.size).toBe(2);
  });

  it("no HSTS over plain HTTP, even when a client that is no trusted proxy claims https", async () => {
    const res = await fetch(`${baseUrl}/${slug}/board`, { headers: { "x-forwarded-proto": "https" } });
    await res.body?.cancel();
    expect(res.headers.get("strict-transport-security")).toBeNull();
  });
});

describe("behind a trusted proxy that terminates TLS", () => {
  let server: AppServer | undefined;
  beforeAll(async () => {
    server = await startAppServer({ databaseUrl: inject("databaseUrl"), keyPrefix: testKeyPrefix("headers-proxy"), env: { TRUST_PROXY: "loopback" } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("sends HSTS when the proxy says X-Forwarded-Proto: https, on pages and the API alike, and not for plain http", async () => {
    for (const path of [`/${slug}/board`, "/api/health", "/%ff"]) {
      const https = await fetch(`${server!.url}${path}`, { headers: { "x-forwarded-proto": "https" } });
      await https.body?.cancel();
      expect(https.headers.get("strict-transport-security"), path).toBe("max-age=31536000");
      const http = await fetch(`${server!.url}${path}`, { headers: { "x-forwarded-proto": "http" } });
      await http.body?.cancel();
      expect(http.headers.get("strict-transport-security"), path).toBeNull();
    }
  });
});

describe("the session cookie's Secure follows the configuration, never the client's word", () => {
  const tenants = inject("tenants");
  const alpha = tenants.alpha!;
  let secureServer: AppServer | undefined;
  beforeAll(async () => {
    secureServer = await startAppServer({
      databaseUrl: inject("databaseUrl"),
      keyPrefix: testKeyPrefix("headers-secure"),
      env: { PUBLIC_URL: "https://queue.example.test" },
    });
  });
  afterAll(async () => {
    await secureServer?.stop();
  });

  it("without PUBLIC_URL or a trusted proxy, a client saying X-Forwarded-Proto: https gets no Secure cookie", async () => {
    const res = await signInOverHttp(baseUrl, alpha.slug, "KITCHEN", alpha.staff.kitchen, { "x-forwarded-proto": "https" });
    expect(res.sessionCookie).toBeTruthy();
    expect(res.sessionCookieLine).not.toMatch(/;\s*Secure/i);
    expect(res.deviceCookieLine).not.toMatch(/;\s*Secure/i);
  });

  it("behind an https PUBLIC_URL the cookies are Secure, whatever the client says", async () => {
    const res = await signInOverHttp(secureServer!.url, alpha.slug, "KITCHEN", alpha.staff.kitchen, { "x-forwarded-proto": "http" });
    expect(res.sessionCookie).toBeTruthy();
    expect(res.sessionCookieLine).toMatch(/;\s*Secure/i);
    expect(res.deviceCookieLine).toMatch(/;\s*Secure/i);
  });
});
