/**
 * Throttles per client address before authentication, per restaurant and address at sign-in,
 * on the public pages and on Socket.IO — on two app nodes sharing one Redis, with low
 * limits of their own (issue #10). A trusted proxy (TRUST_PROXY=loopback) lets one test
 * machine speak for many client addresses through X-Forwarded-For.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { io, type Socket } from "socket.io-client";
import { startAppServer, testKeyPrefix, type AppServer } from "../support/app-server";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { contractFetch, expectApiError } from "../support/http";
import { signInOverHttp } from "../support/forms";

const AUTH_FAILURES = 5;
const MANY_GUESSES = 12;
const PUBLIC_REQUESTS = 6;
const SOCKETS = 3;
const HANDSHAKES = 6;

const databaseUrl = inject("databaseUrl");
let a: AppServer;
let b: AppServer;
const t: Record<"keys" | "mixed" | "codes" | "other" | "open", TestTenant> = {} as never;

beforeAll(async () => {
  const names = ["keys", "mixed", "codes", "other", "open"] as const;
  const slugs = names.map((n) => uniqueSlug(`limits-${n}`));
  const made = await provisionTenants(
    databaseUrl,
    slugs.map((s) => stableDaySpec(s)),
  );
  names.forEach((n, i) => (t[n] = made[slugs[i]!]!));
  const keyPrefix = testKeyPrefix("limits");
  const env = {
    TRUST_PROXY: "loopback",
    AUTH_FAILURES_PER_MINUTE: String(AUTH_FAILURES),
    PUBLIC_REQUESTS_PER_MINUTE: String(PUBLIC_REQUESTS),
    SOCKET_CONNECTIONS_PER_ADDRESS: String(SOCKETS),
    SOCKET_HANDSHAKES_PER_MINUTE: String(HANDSHAKES),
  };
  [a, b] = await Promise.all([startAppServer({ databaseUrl, keyPrefix, env }), startAppServer({ databaseUrl, keyPrefix, env })]);
});

afterAll(async () => {
  for (const s of [a, b]) {
    const code = await s?.stop();
    if (s && code !== 0) console.error(`node exited with ${code}:\n${s.output().slice(-4000)}`);
  }
});

/** A request as the client at `address` (the trusted proxy forwards it). */
async function get(node: AppServer, path: string, address: string, key?: string) {
  const res = await contractFetch(`${node.url}${path}`, {
    headers: { "x-forwarded-for": address, ...(key ? { authorization: `Bearer ${key}` } : {}) },
    redirect: "manual",
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // a page
  }
  return { status: res.status, headers: res.headers, body };
}

function expectRetryAfter(headers: Headers) {
  const seconds = Number(headers.get("retry-after"));
  expect(seconds).toBeGreaterThanOrEqual(1);
  expect(seconds).toBeLessThanOrEqual(60);
}

const orders = (x: TestTenant) => `/api/v1/orgs/${x.slug}/orders`;
const madeUpKey = (i: number) => `nxu_csh_${i.toString(16).padStart(16, "0")}_${"x".repeat(32)}`;
const WRONG_CODE = /Wrong sign-in code/;
const TOO_MANY = /Too many attempts/;

describe("failed authentications per client address, shared by both nodes", () => {
  it(`after ${AUTH_FAILURES} bad API keys from one address (on either node), that address gets 429 before any lookup, even with a valid key; others are not affected`, async () => {
    const x = "203.0.113.10";
    for (let i = 0; i < AUTH_FAILURES; i++) {
      const res = await get(i % 2 ? b : a, orders(t.keys), x, madeUpKey(i));
      expect({ attempt: i, status: res.status }).toEqual({ attempt: i, status: 401 });
    }
    for (const node of [a, b]) {
      const res = await get(node, orders(t.keys), x, t.keys.apiKeys.cashier);
      expectApiError(res, 429, "RATE_LIMITED");
      expectRetryAfter(res.headers);
    }
    // Refused before the restaurant is looked up: an unknown one is a 429, not a 404.
    expectApiError(await get(a, `/api/v1/orgs/${uniqueSlug("nowhere")}/orders`, x, t.keys.apiKeys.cashier), 429, "RATE_LIMITED");
    // Nor is a staff code checked from there, even the right one.
    const signIn = await signInOverHttp(b.url, t.keys.slug, "KITCHEN", t.keys.staff.kitchen, { "x-forwarded-for": x });
    expect(signIn.sessionCookie).toBeNull();
    expect(signIn.html).toMatch(TOO_MANY);
    // Another address is served; a request without any key is not a failure and was not counted.
    expect((await get(b, orders(t.keys), "203.0.113.11", t.keys.apiKeys.cashier)).status).toBe(200);
    // During the lock-out, a request with no Authorization header is the uncounted 401 the docs describe.
    expectApiError(await get(a, orders(t.keys), x), 401, "UNAUTHENTICATED");
  });

  it("the auth scheme is case-insensitive: `bearer`, `BEARER` are the key's own, and never a failure", async () => {
    const y = "203.0.113.12";
    for (let i = 0; i < AUTH_FAILURES + 2; i++) {
      const scheme = ["bearer", "BEARER", "Bearer", "bEaReR"][i % 4]!;
      const res = await contractFetch(`${a.url}${orders(t.keys)}`, { headers: { "x-forwarded-for": y, authorization: `${scheme} ${t.keys.apiKeys.cashier}` } });
      expect({ scheme, status: res.status }).toEqual({ scheme, status: 200 });
    }
  });

  it("wrong sign-in codes and bad keys count together", async () => {
    const w = "203.0.113.20";
    // Spread over the roles so that no role reaches its own limit first.
    const roles = ["CASHIER", "KITCHEN", "MANAGER", "CASHIER"] as const;
    for (const [i, role] of roles.entries()) {
      const res = await signInOverHttp(i % 2 ? b.url : a.url, t.mixed.slug, role, "wrong-code-0000", { "x-forwarded-for": w });
      expect(res.sessionCookie).toBeNull();
      expect(res.html).toMatch(WRONG_CODE);
    }
    expect((await get(a, orders(t.mixed), w, madeUpKey(99))).status).toBe(401);
    expectApiError(await get(b, orders(t.mixed), w, t.mixed.apiKeys.manager), 429, "RATE_LIMITED");
  });
});

describe("sign-in: nothing per role a stranger can exhaust", () => {
  it(`no lock-out a stranger can cause: ${MANY_GUESSES} wrong manager codes from many addresses, then the right code from another address signs in on both nodes`, async () => {
    for (let i = 0; i < MANY_GUESSES; i++) {
      const res = await signInOverHttp(i % 2 ? b.url : a.url, t.codes.slug, "MANAGER", `guess-${i}`, { "x-forwarded-for": `198.51.100.${i + 1}` });
      expect(res.html).toMatch(WRONG_CODE);
    }
    for (const [node, address] of [
      [a, "198.51.100.150"],
      [b, "198.51.100.151"],
    ] as const) {
      const res = await signInOverHttp(node.url, t.codes.slug, "MANAGER", t.codes.staff.manager, { "x-forwarded-for": address });
      expect(res.status).toBe(303);
      expect(res.sessionCookie).toBeTruthy();
    }
  });

  it("one address still cannot keep guessing: its wrong codes count against it alone", async () => {
    const guesser = "198.51.100.200";
    for (let i = 0; i < AUTH_FAILURES; i++) {
      const res = await signInOverHttp(i % 2 ? b.url : a.url, t.codes.slug, "KITCHEN", `guess-k-${i}`, { "x-forwarded-for": guesser });
      expect(res.html).toMatch(WRONG_CODE);
    }
    // Refused before the code is checked, even the right one — from that address only.
    const right = await signInOverHttp(a.url, t.codes.slug, "KITCHEN", t.codes.staff.kitchen, { "x-forwarded-for": guesser });
    expect(right.sessionCookie).toBeNull();
    expect(right.html).toMatch(TOO_MANY);
    const other = await signInOverHttp(b.url, t.codes.slug, "KITCHEN", t.codes.staff.kitchen, { "x-forwarded-for": "198.51.100.201" });
    expect(other.sessionCookie).toBeTruthy();
  });
});

describe("public pages per client address", () => {
  it(`the board and customer pages answer ${PUBLIC_REQUESTS} requests a minute per address across nodes, then 429 with Retry-After`, async () => {
    const p = "192.0.2.30";
    const paths = [`/api/v1/orgs/${t.open.slug}/board`, `/${t.open.slug}/board`, `/${t.open.slug}/o/00000000-0000-4000-8000-000000000000`];
    for (let i = 0; i < PUBLIC_REQUESTS; i++) {
      const res = await get(i % 2 ? b : a, paths[i % paths.length]!, p);
      expect({ i, status: res.status }).toEqual({ i, status: i % 3 === 2 ? 404 : 200 });
    }
    for (const path of paths) {
      const res = await get(a, path, p);
      expectApiError(res, 429, "RATE_LIMITED");
      expectRetryAfter(res.headers);
    }
    // Also for restaurants that do not exist: nothing is looked up.
    expectApiError(await get(b, `/${uniqueSlug("nowhere")}/board`, p), 429, "RATE_LIMITED");
    // Another address, and the same address with an API key, are served.
    expect((await get(b, paths[0]!, "192.0.2.31")).status).toBe(200);
    expect((await get(a, orders(t.open), p, t.open.apiKeys.cashier)).status).toBe(200);
  });

  it("the addresses of one IPv6 /64 (one home or phone network) share one limit", async () => {
    const board = `/api/v1/orgs/${t.open.slug}/board`;
    for (let i = 0; i < PUBLIC_REQUESTS; i++) expect((await get(i % 2 ? b : a, board, `2001:db8:7:7::${(i + 1).toString(16)}`)).status).toBe(200);
    expectApiError(await get(a, board, "2001:db8:7:7:ffff::1"), 429, "RATE_LIMITED");
    expect((await get(b, board, "2001:db8:7:8::1")).status).toBe(200);
  });

  it("paths spelled with extra slashes, which the router serves, are counted like the others and carry the API's policy", async () => {
    const p = "192.0.2.32";
    const paths = [`//api/v1/orgs/${t.open.slug}/board`, `/api/v1/orgs/${t.open.slug}//board`];
    for (let i = 0; i < PUBLIC_REQUESTS; i++) {
      const res = await get(i % 2 ? b : a, paths[i % 2]!, p);
      expect({ i, status: res.status }).toEqual({ i, status: 200 });
      expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    }
    for (const path of [...paths, `/api/v1/orgs/${t.open.slug}/board`]) expectApiError(await get(a, path, p), 429, "RATE_LIMITED");
  });
});

describe("Socket.IO per client address", () => {
  const sockets: Socket[] = [];
  afterAll(() => sockets.forEach((s) => s.close()));

  /** Resolves "connected" or the connect_error's message. */
  function connect(node: AppServer, address: string): Promise<{ outcome: string; socket: Socket }> {
    const socket = io(node.url, {
      query: { org: t.open.slug },
      transports: ["websocket"],
      forceNew: true,
      reconnection: false,
      extraHeaders: { "x-forwarded-for": address },
    });
    sockets.push(socket);
    return new Promise((resolve) => {
      socket.once("connect", () => resolve({ outcome: "connected", socket }));
      socket.once("connect_error", (e) => resolve({ outcome: e.message, socket }));
    });
  }

  it(`holds at most ${SOCKETS} open connections per address on a node: the next gets a clear connect_error, and a closed one makes room`, async () => {
    const s = "192.0.2.40";
    const open: Socket[] = [];
    for (let i = 0; i < SOCKETS; i++) {
      const c = await connect(a, s);
      expect(c.outcome).toBe("connected");
      open.push(c.socket);
    }
    expect((await connect(a, s)).outcome).toBe("Too many connections from this address");
    expect((await connect(a, "192.0.2.41")).outcome).toBe("connected");
    open[0]!.close();
    // The server hears of the close a moment later.
    const deadline = Date.now() + 5_000;
    let outcome = "";
    while (Date.now() < deadline && outcome !== "connected") outcome = (await connect(a, s)).outcome;
    expect(outcome).toBe("connected");
    expect((await contractFetch(`${a.url}/api/health`)).status).toBe(200);
  });

  it(`allows ${HANDSHAKES} handshakes a minute per address across both nodes, then a connect_error with the wait`, async () => {
    const h = "192.0.2.50";
    for (let i = 0; i < HANDSHAKES; i++) {
      const c = await connect(i % 2 ? b : a, h);
      expect({ i, outcome: c.outcome }).toEqual({ i, outcome: "connected" });
      c.socket.close();
    }
    for (const node of [a, b]) expect((await connect(node, h)).outcome).toMatch(/^Too many connection attempts from this address: retry in \d+ s$/);
    expect((await connect(b, "192.0.2.51")).outcome).toBe("connected");
    for (const node of [a, b]) expect((await contractFetch(`${node.url}/api/health`)).status).toBe(200);
  });
});
