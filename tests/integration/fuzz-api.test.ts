/**
 * Fuzzes the running app (production build, real PostgreSQL and Redis) with fast-check:
 * random method × route over every route.ts under app/api, with random and hostile slugs,
 * ids, query strings, headers and bodies; malformed requests on a raw socket; Socket.IO
 * handshakes. Properties: never a 5xx; every error is `{"error":{"code","message"}}` as
 * JSON; a 4xx changes nothing either tenant stored (no row, no counter state: no number
 * issued), and the numbers taken during the run have no gap but numbers skipped because an
 * order of another shift or day held them open, and no number is on two open orders.
 *
 * The seed is fixed; a failure prints the request (and fast-check its seed and path). Go
 * further with another seed or more runs per case:
 * FUZZ_SEED=<n> FUZZ_RUNS=<n> npx vitest run --project integration tests/integration/fuzz-api.test.ts
 */
import { randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import fc from "fast-check";
import pg from "pg";
import { Redis } from "ioredis";
import { io } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERROR_STATUS } from "@/lib/core/errors";
import { API_POLICY } from "@/lib/server/http/security-headers.server";
import { SHARED_SERVER_ENV, startAppServer, testKeyPrefix, testRedisUrl, type AppServer } from "../support/app-server";
import { createTestDatabase, type TestDatabase } from "../support/db";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { apiClient, expectStatus, type Api, type OrderJson } from "../support/http";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { openTwiceNow, loadStoredOrders, shiftStats } from "../support/fault-checks";
import { discoverRoutes, fuzzTargets, hostileString, requestFor, respelled, type FuzzContext, type FuzzRequest } from "../support/fuzz-requests";
import { describeRequest, rawHttp, requestBytes, utf8Bytes, type RawResult } from "../support/raw-http";
import { expectInContract, observedBody } from "../support/openapi-contract";
import { tenantState, type TenantState } from "../support/tenant-state";
import { loadActionPages } from "@/lib/server/http/action-guard.server";
import { signInOverHttp } from "../support/forms";

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
/** Runs per route, method and mode (about 250 of those): about 600 requests by default. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 2);
const params = (numRuns: number, seed = SEED): fc.Parameters<unknown> => ({
  seed,
  numRuns,
  // Shrinking replays requests against a server whose state moved on: keep it short.
  endOnFailure: process.env.FUZZ_SHRINK !== "1",
});

const METRICS_TOKEN = randomBytes(16).toString("hex");
/**
 * The fuzz sends hundreds of requests a minute from one address, most with bad keys: limits
 * meant for abuse are raised for this server so that they don't answer in place of the routes.
 */
const FUZZ_ENV = {
  // The per-address limits before authentication (every request comes from 127.0.0.1).
  ...SHARED_SERVER_ENV,
  SCHEDULER: "off",
  METRICS_TOKEN,
  API_RATE_LIMIT_PER_MINUTE: "1000000",
  VOICE_RATE_LIMIT_PER_MINUTE: "1000000",
};

let db: TestDatabase;
let server: AppServer;
let pgClient: pg.Client;
let redis: Redis;
let call: Api;
let keyPrefix: string;
let a: TestTenant;
let b: TestTenant;
let ctx: FuzzContext;
const statuses = new Map<number, number>();

/** Menu rows, orders and spare keys for `t`; returns their ids and a revoked key. */
async function furnish(t: TestTenant): Promise<{ ids: string[]; categories: string[]; items: string[]; revokedKey: string }> {
  const mgr = { key: t.apiKeys.manager };
  const cat = (name: string) =>
    call<{ id: string }>("POST", `/api/v1/orgs/${t.slug}/menu/categories`, { ...mgr, json: { name } }).then((r) => expectStatus(r, 201).id);
  const [noodles, drinks] = [await cat("Noodles"), await cat("Drinks")];
  const item = (categoryId: string, name: string, available = true) =>
    call<{ id: string }>("POST", `/api/v1/orgs/${t.slug}/menu/items`, { ...mgr, json: { categoryId, name, priceCents: 850, available } }).then(
      (r) => expectStatus(r, 201).id,
    );
  const items = [await item(noodles, "Beef noodles"), await item(noodles, "Sold out noodles", false), await item(drinks, "Tea")];
  const order = (json: unknown) =>
    call<OrderJson>("POST", `/api/v1/orgs/${t.slug}/orders`, { key: t.apiKeys.cashier, json }).then((r) => expectStatus(r, 201).id);
  const orders = [await order({ items: [{ name: "Rice", qty: 1 }] }), await order({ items: [{ menuItemId: items[0], qty: 2 }] }), await order({})];
  expectStatus(await call("POST", `/api/v1/orgs/${t.slug}/orders/${orders[2]}/status`, { key: t.apiKeys.kitchen, json: { status: "READY" } }), 200);
  const key = (name: string) =>
    call<{ id: string; key: string }>("POST", `/api/v1/orgs/${t.slug}/keys`, { ...mgr, json: { role: "cashier", name } }).then((r) => expectStatus(r, 201));
  const spare = await key("spare");
  const revoked = await key("revoked");
  expectStatus(await call("DELETE", `/api/v1/orgs/${t.slug}/keys/${revoked.id}`, mgr), 200);
  // Never the ids of the keys the fuzz signs with: revoking them would turn the rest of the run into 401s.
  return { ids: [...orders, noodles, drinks, ...items, spare.id, revoked.id], categories: [noodles, drinks], items, revokedKey: revoked.key };
}

beforeAll(async () => {
  db = await createTestDatabase("fuzz");
  const [sa, sb] = [uniqueSlug("fuzz"), uniqueSlug("fuzz-other")];
  const tenants = await provisionTenants(db.url, [stableDaySpec(sa), stableDaySpec(sb)]);
  [a, b] = [tenants[sa]!, tenants[sb]!];
  keyPrefix = testKeyPrefix("fuzz");
  server = await startAppServer({ databaseUrl: db.url, keyPrefix, env: FUZZ_ENV });
  call = apiClient(server.url);
  pgClient = new pg.Client({ connectionString: db.url });
  await pgClient.connect();
  redis = new Redis(testRedisUrl(), { lazyConnect: true });
  await redis.connect();
  const [fa, fb] = [await furnish(a), await furnish(b)];
  ctx = {
    slug: a.slug,
    otherSlug: b.slug,
    keys: { own: [a.apiKeys.manager, a.apiKeys.cashier, a.apiKeys.kitchen], other: Object.values(b.apiKeys), dead: [fa.revokedKey] },
    ids: { own: fa.ids, other: fb.ids },
    menu: { categories: fa.categories, items: fa.items },
    metricsToken: METRICS_TOKEN,
    actionIds: Object.keys(loadActionPages(".next")),
  };
  for (const [role, code] of [
    ["KITCHEN", a.staff.kitchen],
    ["CASHIER", a.staff.cashier],
    ["MANAGER", a.staff.manager],
  ] as const)
    staffSessions[role] = (await signInOverHttp(server.url, a.slug, role, code)).sessionCookie!;
}, 180_000);

/** Sessions of tenant a's staff, so that a served action is called as the staff its page is for. */
const staffSessions: Record<"KITCHEN" | "CASHIER" | "MANAGER", string> = { KITCHEN: "", CASHIER: "", MANAGER: "" };

afterAll(async () => {
  console.log(`fuzz (seed ${SEED}): statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([x], [y]) => x - y)))}`);
  await redis?.quit();
  await pgClient?.end();
  const code = await server?.stop();
  if (code !== 0 && server) console.error(`app server exited with ${code}:\n${server.output().slice(-4000)}`);
  await db?.drop();
});

/** A Host of the fuzz's own (the answer may then come from the parser, before any policy). */
const hostHeader = (req: FuzzRequest): boolean => (req.headers ?? []).some(([name]) => name.toLowerCase() === "host");

const bothStates = async (): Promise<{ a: TenantState; b: TenantState }> => ({
  a: await tenantState(pgClient, redis, keyPrefix, a.id),
  b: await tenantState(pgClient, redis, keyPrefix, b.id),
});

/**
 * Whether the error contract applies: an /api path once dot segments are resolved (as Next.js
 * does: `/api/%2e%2e/x` is the page `/x`), or a target that is not a path at all.
 */
function contractApplies(target: string): boolean {
  if (!target.startsWith("/")) return true;
  // The router drops empty segments (`//api/…` is `/api/…`, not a URL with the host "api").
  const collapsed = target.replace(/^([^?#]*)/, (p) => p.replace(/\/{2,}/g, "/"));
  const path = URL.canParse(collapsed, "http://x") ? new URL(collapsed, "http://x").pathname : collapsed;
  return /^\/api(?:\/|$)/.test(path);
}

interface CheckOptions {
  contract?: boolean;
  apiPolicy?: boolean;
  /** The request-target, to hold the answer to its operation in the OpenAPI contract (see inOpenApi). */
  target?: string;
}

/**
 * Targets the contract checker can place as the server does: printable ASCII that parses
 * as a URL path. Anything else (raw bytes, spaces, a fragment) is still held to the error
 * contract's shape by checkAnswer, but not to one operation's statuses.
 */
const placeable = (target: string): boolean =>
  /^\/[\x21-\x7e]*$/.test(target) && !target.includes("#") && !target.startsWith("//") && URL.canParse(target, "http://x");

/** The properties every answer must have: no 5xx, and an error in the contract's shape, as JSON. */
function checkAnswer(result: RawResult, what: string, method: string, opts: CheckOptions = {}): number {
  if (result.kind === "closed")
    throw new Error(`no HTTP answer (connection closed) to ${what}; got ${JSON.stringify(result.raw.toString("latin1").slice(0, 200))}`);
  const { status, headers, body } = result.response;
  statuses.set(status, (statuses.get(status) ?? 0) + 1);
  const text = body.toString("utf8");
  const context = `${status} ${headers["content-type"] ?? "(no content-type)"} ${JSON.stringify(text.slice(0, 300))}\n  to ${what}`;
  if (status >= 500) throw new Error(`5xx: ${context}`);
  if (status === 429) throw new Error(`rate limited: raise the limit named in the answer in FUZZ_ENV: ${context}`);
  // However the path is spelled, an API answer carries the API's policy, never a page's.
  if (opts.apiPolicy && headers["content-security-policy"] !== API_POLICY)
    throw new Error(`an API answer with the policy ${JSON.stringify(headers["content-security-policy"])}: ${context}`);
  if (status >= 300 && status < 400 && headers.location !== undefined) {
    const origin = `http://127.0.0.1:${server.port}`;
    if (new URL(headers.location, origin).origin !== origin) throw new Error(`redirect to another origin: ${context} location ${headers.location}`);
  }
  if (status < 400 || opts.contract === false) return status;
  if (!/^application\/json\b/.test(headers["content-type"] ?? "")) throw new Error(`error without a JSON content-type: ${context}`);
  if (method === "HEAD") return status;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`error body is not JSON: ${context}`);
  }
  const error = (parsed as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  const shaped =
    typeof parsed === "object" &&
    parsed !== null &&
    Object.keys(parsed).join() === "error" &&
    typeof error?.code === "string" &&
    typeof error.message === "string" &&
    error.message.trim() !== "" &&
    ERROR_STATUS[error.code as keyof typeof ERROR_STATUS] === status;
  if (!shaped) throw new Error(`error body is not {"error":{"code","message"}} with the status of its code: ${context}`);
  return status;
}

/** Answers held to their operation in the OpenAPI contract, by status. */
const checkedInOpenApi = new Map<number, number>();

/** The answer is one its operation documents (status, content type, body), as apiClient checks. */
function inOpenApi(result: RawResult, method: string, target: string): void {
  if (result.kind !== "response" || !placeable(target)) return;
  const { status, headers, body } = result.response;
  const { body: parsed, parsedJson } = observedBody(method === "HEAD" ? "" : body.toString("utf8"));
  const fields = new Headers();
  for (const [name, value] of Object.entries(headers)) fields.set(name, value);
  expectInContract({ method, url: target, status, headers: fields, body: parsed, parsedJson });
  checkedInOpenApi.set(status, (checkedInOpenApi.get(status) ?? 0) + 1);
}

/** Sends `bytes`; checks the answer, and that a refusal changed nothing either tenant stored. */
async function sendAndCheck(bytes: Buffer, what: string, method: string, opts: CheckOptions = {}): Promise<void> {
  const before = await bothStates();
  const result = await rawHttp(server.port, bytes);
  const status = checkAnswer(result, what, method, opts);
  if (opts.contract && opts.target !== undefined) inOpenApi(result, method, opts.target);
  if (status >= 400) {
    const after = await bothStates();
    if (JSON.stringify(after) !== JSON.stringify(before)) {
      expect({ what, status, state: after }, "a refused request changed what a tenant stored").toEqual({ what, status, state: before });
    }
  }
}

describe("fuzzing the REST API", () => {
  it("finds every route under app/api, each with its methods", () => {
    const routes = discoverRoutes(process.cwd());
    expect(routes.length).toBeGreaterThanOrEqual(20);
    expect(routes.map((r) => r.template)).toContain("/api/v1/orgs/[slug]/orders/[id]/status");
    for (const r of routes) expect(r.methods.length, r.template).toBeGreaterThan(0);
  });

  it(
    "every route × method × a hostile slug, id, method, query, key, header or body: never a 5xx, errors in the contract, a 4xx stores nothing",
    { timeout: 600_000 },
    async () => {
      // Each route and method gets every mode, so that no hostile part is left to chance on any route.
      const cases = fuzzTargets(discoverRoutes(process.cwd())).flatMap(({ target, modes }) => modes.map((mode) => ({ target, mode })));
      for (const [i, { target, mode }] of cases.entries()) {
        const numbers = target.method === "POST" && target.route.template === "/api/v1/orgs/[slug]/orders" && mode === "plausible";
        await fc.assert(
          fc.asyncProperty(requestFor(target, mode, ctx), async (req: FuzzRequest) => {
            const api = contractApplies(req.target);
            await sendAndCheck(requestBytes(req, `127.0.0.1:${server.port}`), fc.stringify(req), req.method, {
              contract: api,
              apiPolicy: api && !hostHeader(req),
              target: req.target,
            });
          }),
          // A seed per case, so that cases of the same shape do not draw the same values.
          params(numbers ? RUNS * 10 : RUNS, SEED + i),
        );
      }
      // Not vacuous: the run reached the handlers, not only the doors in front of them.
      for (const status of [200, 201, 400, 401, 403, 404, 405, 409]) expect(statuses.get(status) ?? 0, `answers with status ${status}`).toBeGreaterThan(0);
      // …and its answers, successes too, were held to their operations in the OpenAPI contract.
      for (const status of [200, 201, 400, 401, 404, 405])
        expect(checkedInOpenApi.get(status) ?? 0, `answers with status ${status} checked against the contract`).toBeGreaterThan(0);
    },
  );

  it("after the run, a valid order gets the next number: every shift's numbers run on without a gap but numbers held open, none open twice", async () => {
    const order = expectStatus(
      await call<OrderJson>("POST", `/api/v1/orgs/${a.slug}/orders`, { key: a.apiKeys.cashier, json: { items: [{ name: "Last", qty: 1 }] } }),
      201,
    );
    const { rows: shifts } = await pgClient.query<{ day: string; number: number; first: number }>(
      `SELECT "businessDay"::text AS day, number, "firstNumber" AS first FROM "Shift" WHERE "tenantId" = $1`,
      [a.id],
    );
    const stored = await loadStoredOrders(db.url, a.id);
    const current = stored.filter((o) => o.businessDay === order.businessDay && o.shift === order.shift);
    expect(Math.max(...current.map((o) => o.number))).toBe(order.number);
    // A gap is allowed only where an order of another shift or day, open while this shift
    // handed out numbers, held the number (decision 0027): the requests went one at a time.
    const first = new Map(shifts.map((s) => [`${s.day}/${s.number}`, s.first]));
    const stats = shiftStats(stored, { firstNumber: (day, shift) => first.get(`${day}/${shift}`) ?? 1 });
    for (const s of stats) expect({ shift: `${s.businessDay}/${s.shift}`, missing: s.missing }).toEqual({ shift: `${s.businessDay}/${s.shift}`, missing: "" });
    // …and no number is on two open orders (the index's promise).
    expect(openTwiceNow(stored)).toEqual([]);
  });
});

describe("server-action headers on every page, in any spelling", () => {
  /** Every page.tsx under app, as the route its actions are listed under ("/[tenant]/kiosk"). */
  const pages = (readdirSync("app", { recursive: true }) as string[])
    .filter((f) => f.replace(/\\/g, "/").endsWith("page.tsx"))
    .map((f) => `/${f.replace(/\\/g, "/").replace(/\/?page\.tsx$/, "")}`.replace(/\/$/, "") || "/")
    .sort();

  /** `0` as the root of a multipart body (boundary `x`, as one of the drawn Content-Types says). */
  const rootPart = (root: string) => `--x\r\nContent-Disposition: form-data; name="0"\r\n\r\n${root}\r\n--x--\r\n`;
  /** Argument lists no form of the app sends: every action takes `(prev, form)` or `(form)`, from a multipart body. */
  const junkArguments = fc.constantFrom(
    "[]",
    '["x"]',
    "[null,null]",
    "[1]",
    "{}",
    "null",
    "1",
    '"x"',
    "[",
    '["$1"]',
    '[null,"$K1",7]',
    '["$K1",null]',
    rootPart("[]"),
    rootPart('[null,"$K1",7]'),
    rootPart("x"),
  );

  it(
    "an action id the page does not serve is a 404 the router knows, a foreign Origin a 403; one it serves, fed junk arguments, is the action's refusal or a 400; never a 5xx, errors in the contract, nothing stored",
    { timeout: 300_000 },
    async () => {
      const actions = loadActionPages(".next");
      expect(pages).toContain("/[tenant]/kiosk");
      const self = `http://127.0.0.1:${server.port}`;
      // Each page with an action it serves (a served action fed junk answered a 500 once: issue #26).
      const servedPairs = [...actions].flatMap(([action, on]) => [...on].map((page) => ({ page, action })));
      expect(servedPairs.map((p) => p.page)).toContain("/[tenant]/kitchen");
      const request = fc
        .record({
          call: fc.oneof(
            fc.record({
              page: fc.constantFrom(...pages),
              action: fc.oneof(fc.constantFrom(...actions.keys()), fc.stringMatching(/^[0-9a-f]{40,42}$/), fc.constantFrom("", "x")),
            }),
            fc.constantFrom(...servedPairs),
          ),
          // Same-origin mostly, so that served actions get past the Origin check and read their arguments.
          origin: fc.oneof(
            { arbitrary: fc.constantFrom(undefined, self), weight: 2 },
            { arbitrary: fc.constantFrom("http://evil.example", "null", "foo", "http://[::1"), weight: 1 },
          ),
          contentType: fc.constantFrom(undefined, "text/plain;charset=UTF-8", "multipart/form-data; boundary=x", "application/x-www-form-urlencoded"),
          body: fc.oneof(junkArguments, fc.constantFrom("", '[{"a":1}]', "--x--\r\n"), hostileString.map(utf8Bytes)),
          forwarded: fc.boolean(),
          signedIn: fc.boolean(),
        })
        .map(({ call, ...r }) => ({ ...call, ...r }))
        .chain((r) => {
          const path = r.page.replace("[tenant]", ctx.slug).replace("[orderId]", ctx.ids.own[0]!);
          return fc.oneof(fc.constant(path), respelled(path)).map((target) => ({ ...r, target }));
        })
        .map((r) => {
          const headers: [string, string][] = [["Next-Action", r.action]];
          // Signed in as the page's staff (a manager elsewhere): the action gets past its session check when its arguments let it.
          const role = r.page.endsWith("/kiosk") ? "CASHIER" : r.page.endsWith("/kitchen") ? "KITCHEN" : "MANAGER";
          if (r.signedIn) headers.push(["Cookie", `nextup_session=${staffSessions[role]}`]);
          if (r.origin !== undefined) headers.push(["Origin", r.origin]);
          if (r.contentType !== undefined) headers.push(["Content-Type", r.contentType]);
          if (r.forwarded) headers.push(["x-action-forwarded", "1"]);
          const req = { ...r, method: "POST", headers, body: r.body };
          return Object.assign(req, { [fc.toStringMethod]: () => `${r.page}: ${describeRequest(req)}` });
        });

      let servedCalls = 0;
      await fc.assert(
        fc.asyncProperty(request, async (r) => {
          const what = fc.stringify(r);
          const before = await bothStates();
          const result = await rawHttp(server.port, requestBytes(r, `127.0.0.1:${server.port}`));
          const served = actions.get(r.action)?.has(r.page) ?? false;
          const foreignOrigin = r.origin !== undefined && r.origin !== self;
          // Every refusal is in the error contract (a url-encoded body too: issue #35), but a 404 of a
          // respelled page path, which is the router's own page.
          const status = checkAnswer(result, what, "POST", {
            contract: foreignOrigin || !served || ![200, 404].includes(result.kind === "closed" ? 0 : result.response.status),
          });
          const answer = result.kind === "closed" ? undefined : result.response;
          const text = answer?.body.toString("utf8") ?? "";
          if (foreignOrigin) expect(status, what).toBe(403);
          else if (!served) {
            expect(status, what).toBe(404);
            expect(answer?.headers["x-nextjs-action-not-found"], what).toBe("1");
          } else if (status === 200) {
            servedCalls++;
            // The action's own answer (RSC row 1): its BAD_INPUT state, or nothing from sign-out (no state to tell).
            expect(text, what).toMatch(/\n1:(\{"ok":false,"error":"[^"]+","code":"BAD_INPUT"\}|"\$undefined")\n/);
          } else if (status === 400) {
            // A body Next.js cannot make arguments of (action-guard.server.ts).
            expect(JSON.parse(text), what).toMatchObject({ error: { code: "BAD_INPUT" } });
          }
          expect(await bothStates(), `an action fed junk changed what a tenant stored: ${what}`).toEqual(before);
        }),
        params(RUNS * 60),
      );
      // Not vacuous: served actions were reached and answered.
      expect(servedCalls).toBeGreaterThan(0);
      expect(server.proc.exitCode).toBeNull();
    },
  );
});

describe("malformed requests on a raw socket", () => {
  const CRLF = "\r\n";

  it("broken request lines, targets, versions and headers: an answer, never a 5xx, errors in the contract, nothing stored", { timeout: 300_000 }, async () => {
    const orders = `/api/v1/orgs/${ctx.slug}/orders`;
    const method = fc.oneof(
      { arbitrary: fc.constantFrom("GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS"), weight: 3 },
      {
        arbitrary: fc.constantFrom("TRACE", "TRACK", "CONNECT", "get", "Post", "FOO", "PROPFIND", "M-SEARCH", "QUERY", "", "G ET", "GET\u0000", "ÄÖÜ"),
        weight: 2,
      },
    );
    const raw = fc.constantFrom("\u0000", " ", "\t", "\u007f", "ü", "面", "%", "\\", "#", '"', "<", "{", "|");
    const target = fc.oneof(
      fc
        .tuple(
          fc.constantFrom(orders, `/api/v1/orgs/${ctx.slug}/board`, `/api/v1/orgs/${ctx.slug}/orders/${ctx.ids.own[0]}`, "/api/health", `/${ctx.slug}/board`),
          raw,
          fc.nat(60),
        )
        .map(([path, c, at]) => {
          const i = Math.min(at, path.length);
          return path.slice(0, i) + c + path.slice(i);
        }),
      fc.constantFrom(
        "*",
        "",
        "/",
        "//",
        "/api",
        "/api/",
        "/api/v1/orgs",
        "/api/v2/orgs/x",
        `${orders}/`,
        `${orders}/x/y/z`,
        `${orders}.json`,
        `/API/v1/orgs/${ctx.slug}/orders`,
        "/api/health?",
        "/api/health#x",
        "http://evil.example/api/health",
        `https://evil.example${orders}`,
        "evil.example:443",
        "/api/v1/orgs/%ff/board",
        `/api/v1/orgs/${ctx.slug}/orders/%00`,
        `/api/v1/orgs/${ctx.slug}/orders/..%2f..%2f..%2fhealth`,
        "/api/v1/orgs/../../api/health",
        `/api/v1/orgs/${"a".repeat(12_000)}/board`,
        `/api/v1/orgs/${"a".repeat(20_000)}/board`,
        "/socket.io/?EIO=4&transport=polling",
        "/socket.io/?EIO=4&transport=polling&org=%00",
        "/socket.io/?EIO=99&transport=junk",
        `/socket.io/?EIO=4&transport=polling&org=${ctx.slug}&sid=junk`,
      ),
    );
    const version = fc.oneof(
      { arbitrary: fc.constant("HTTP/1.1"), weight: 4 },
      { arbitrary: fc.constantFrom("HTTP/1.0", "HTTP/2.0", "HTTP/9.9", "http/1.1", "HTTP/1.1 x", "HTTP/", ""), weight: 1 },
    );
    const header = fc.oneof(
      fc.constantFrom(
        "X-Junk: a\u0000b",
        "X-Junk: a\rb",
        "X-Junk: a\u0001b",
        "NoColon",
        ": empty-name",
        "X(y): bad name",
        "X-Junk : space before colon",
        " folded: continuation",
        "Host: second.example",
        "Content-Length: abc",
        "Content-Length: -1",
        "Content-Length: 1, 2",
        "Transfer-Encoding: gzip",
        "Transfer-Encoding: chunked, identity",
        "Expect: 100-continue",
        "Expect: junk",
        "Upgrade: websocket",
        "Upgrade: h2c",
        "Authorization: Bearer \u00ff\u00fe",
        `Authorization: Bearer ${ctx.keys.own[0]}`,
        "Content-Type: application/json",
      ),
      fc.integer({ min: 8_000, max: 20_000 }).map((n) => `X-Big: ${"b".repeat(n)}`),
      fc
        .tuple(fc.string({ unit: "binary-ascii", minLength: 1, maxLength: 10 }), fc.string({ unit: "binary-ascii", maxLength: 30 }))
        .map(([n, v]) => `${n}: ${v}`.replace(/[\r\n]/g, "")),
    );
    const body = fc.oneof(fc.constant(""), fc.constant('{"items":[{"name":"Tea","qty":1}]}'), hostileString);
    // Everything as UTF-8 bytes, as a client would send the characters.
    const malformed = fc.record({ method, target, version, headers: fc.array(header, { maxLength: 3 }), body }).map((r) => {
      const req = {
        method: utf8Bytes(r.method),
        target: utf8Bytes(r.target),
        version: utf8Bytes(r.version),
        lines: r.headers.map(utf8Bytes),
        body: utf8Bytes(r.body),
      };
      const shown = {
        method: req.method,
        target: req.target,
        headers: req.lines.map((l): [string, string] => [l.split(":")[0]!, l.slice(l.indexOf(":") + 1)]),
        body: req.body,
      };
      return Object.assign(req, { [fc.toStringMethod]: () => describeRequest(shown, req.version) });
    });

    await fc.assert(
      fc.asyncProperty(malformed, async (r) => {
        // A Content-Length the body does not fill would keep the server waiting: only exact ones are added.
        const framing = r.lines.some((h) => /^(content-length|transfer-encoding):/i.test(h)) ? [] : [`Content-Length: ${r.body.length}`];
        const head = [`${r.method} ${r.target} ${r.version}`, `Host: 127.0.0.1:${server.port}`, ...r.lines, ...framing, "Connection: close"].join(CRLF);
        const bytes = Buffer.from(`${head}${CRLF}${CRLF}${r.body}`, "latin1");
        // The contract is the API's (and the parser's, for a target that is not a path); pages answer
        // their own 404 page and Engine.IO its own errors (its handshake is fuzzed below): no 5xx there.
        await sendAndCheck(bytes, fc.stringify(r), r.method, { contract: contractApplies(r.target), target: r.target });
      }),
      params(RUNS * 80),
    );
    expect(server.proc.exitCode).toBeNull();
  });
});

describe("fuzzing the Socket.IO handshake", () => {
  type Outcome = { connected: true } | { connected: false; message: string };
  const wellFormed = (s: string) => Buffer.from(s, "utf8").toString("utf8");

  function handshake(query: Record<string, string>, auth: Record<string, unknown>, transport: "websocket" | "polling"): Promise<Outcome> {
    const socket = io(server.url, { query, auth, transports: [transport], forceNew: true, reconnection: false, timeout: 15_000 });
    return new Promise((resolve) => {
      socket.once("connect", () => {
        socket.close();
        resolve({ connected: true });
      });
      socket.once("connect_error", (err) => {
        socket.close();
        resolve({ connected: false, message: err.message });
      });
    });
  }

  it(
    "random slugs, roles, tokens and auth: a known restaurant connects, anything else gets a clear connect_error; the server lives on",
    { timeout: 300_000 },
    async () => {
      const org = fc.oneof(
        { arbitrary: fc.constantFrom(ctx.slug, ctx.otherSlug), weight: 2 },
        { arbitrary: fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,38}[a-z0-9]$/), weight: 1 },
        { arbitrary: hostileString.filter((s) => s.length <= 12_000), weight: 3 },
        { arbitrary: fc.constantFrom("x".repeat(12_000), `${ctx.slug}\u0000`, ctx.slug.toUpperCase(), ` ${ctx.slug}`), weight: 1 },
      );
      // Engine.IO's own parameters (EIO, transport, sid) are the client's to set; the fuzz adds others.
      const extra = fc.dictionary(
        fc.constantFrom("role", "token", "key", "lang", "slug"),
        fc.oneof(
          hostileString.filter((s) => s.length < 500),
          fc.constantFrom(...ctx.keys.own, "kitchen", "manager"),
        ),
        { maxKeys: 3 },
      );
      const auth = fc.oneof(
        fc.constant({}),
        fc.record(
          {
            role: fc.constantFrom("manager", "cashier", "kitchen", "owner"),
            token: fc.oneof(
              fc.constantFrom(...ctx.keys.own, ...ctx.keys.other),
              hostileString.filter((s) => s.length < 500),
            ),
          },
          { requiredKeys: [] },
        ),
        fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.option(org, { freq: 8 }),
          extra,
          auth,
          fc.constantFrom("websocket" as const, "polling" as const),
          async (slug, more, authBody, transport) => {
            // The client cannot put broken UTF-16 in a URL (it throws before sending): those become U+FFFD.
            const query: Record<string, string> = Object.fromEntries(Object.entries(more).map(([k, v]) => [k, wellFormed(v)]));
            if (slug !== null) query.org = wellFormed(slug);
            const outcome = await handshake(query, authBody, transport);
            const what = `org ${JSON.stringify((slug ?? "(none)").slice(0, 80))} (${slug?.length ?? 0} chars) query ${JSON.stringify(query).slice(0, 200)} auth ${JSON.stringify(authBody).slice(0, 200)} over ${transport}`;
            if (slug === ctx.slug || slug === ctx.otherSlug) {
              expect(outcome, what).toEqual({ connected: true });
            } else {
              expect(outcome.connected, what).toBe(false);
              const message = (outcome as { message: string }).message;
              expect(message, what).toMatch(/unknown restaurant/i);
              expect(message.length, what).toBeLessThan(200);
            }
          },
        ),
        params(RUNS * 40),
      );
      expect(server.proc.exitCode).toBeNull();
      expectStatus(await call("GET", "/api/health"), 200);
    },
  );
});
