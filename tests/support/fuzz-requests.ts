/**
 * fast-check arbitraries for requests to the REST API: every route found under app/api
 * (so a new route is fuzzed without touching the test), with random or hostile slugs,
 * ids, query strings, headers and bodies, built from what a test's tenants hold.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describeRequest, utf8Bytes, type RawRequest } from "./raw-http";

export const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

export interface Route {
  /** e.g. "/api/v1/orgs/[slug]/orders/[id]/status" */
  template: string;
  /** The HTTP methods its route.ts exports. */
  methods: string[];
}

/** Every `route.ts` under `dir` (app/api) with the methods it exports. */
export function discoverRoutes(root: string, dir = "app/api"): Route[] {
  return (readdirSync(join(root, dir), { recursive: true }) as string[])
    .filter((f) => f.endsWith("route.ts"))
    .map((f) => {
      const source = readFileSync(join(root, dir, f), "utf8");
      const methods = METHODS.filter((m) => new RegExp(`export (const|async function|function) ${m}\\b`).test(source));
      const template = `/${dir.replace(/^app\//, "")}/${f.replace(/\\/g, "/").replace(/\/?route\.ts$/, "")}`.replace(/\/$/, "");
      return { template, methods };
    })
    .sort((a, b) => a.template.localeCompare(b.template));
}

/** Percent-encodes every byte of `s`'s UTF-8 (lone surrogates become U+FFFD) but the unreserved ones. */
export function encodeSegment(s: string): string {
  let out = "";
  for (const byte of Buffer.from(s, "utf8")) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** Text an attacker or a broken client sends: control characters, broken UTF-16, scripts, very long. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "a\u0000b",
    "\u001b[31mred",
    "\ud800",
    "\udfff lone",
    "\u202eRTL",
    "🍜🍜",
    "面条",
    "<script>alert(1)</script>",
    '\'; DROP TABLE "Order"; --',
    "../../etc/passwd",
    "%00",
    "%ff",
    "${jndi:ldap://x}",
    "__proto__",
    "constructor",
    "NaN",
    "null",
    "true",
    '=HYPERLINK("http://x")',
    "\r\n",
    "\t",
  ),
  fc.integer({ min: 121, max: 20_000 }).map((n) => "x".repeat(n)),
);

/** Any JSON value, tilted towards the shapes that break validation: wrong types, edge numbers, hostile text. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 3 },
  { arbitrary: hostileString, weight: 3 },
  {
    arbitrary: fc.constantFrom<unknown>(
      null,
      true,
      false,
      0,
      -1,
      -0,
      1.5,
      2 ** 31,
      -(2 ** 31) - 1,
      2 ** 53,
      1e308,
      -1e308,
      99_999_999,
      100_000_000,
      [],
      {},
      [null],
      { "": "" },
    ),
    weight: 3,
  },
  { arbitrary: fc.integer(), weight: 1 },
  { arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }), weight: 1 },
);

/** A copy of a valid body with one to three fields replaced by hostile values or dropped, or an unknown field added. */
function mutated(valid: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<unknown> {
  const edit = fc.tuple(fc.nat(), fc.constantFrom("replace", "drop"), hostileValue);
  const extra = fc.tuple(fc.constantFrom("__proto__", "constructor", "id", "tenantId", "number", "", "timezone", "dayStartsAt"), hostileValue);
  const maybeExtra = fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: extra, weight: 1 });
  return fc.tuple(valid, fc.array(edit, { maxLength: 3 }), maybeExtra).map(([base, edits, added]) => {
    const out: Record<string, unknown> = { ...base };
    const keys = Object.keys(base);
    for (const [i, op, value] of keys.length ? edits : []) {
      const k = keys[i % keys.length]!;
      if (op === "drop") delete out[k];
      else out[k] = value;
    }
    // An unknown field (`__proto__` as an own property, as JSON.parse makes it), or one anyway if nothing was edited.
    const [k, v] = added ?? (edits.length && keys.length ? [] : ["x", 1]);
    if (k !== undefined) Object.defineProperty(out, k, { value: v, enumerable: true, configurable: true, writable: true });
    return out;
  });
}

export interface FuzzContext {
  /** The tenant under test (most requests) and another one (cross-tenant slugs, ids and keys). */
  slug: string;
  otherSlug: string;
  /** API keys sent as Bearer: this tenant's (the manager's first), another tenant's, revoked ones. */
  keys: { own: string[]; other: string[]; dead: string[] };
  /** Ids of rows that exist (orders, menu rows, keys): this tenant's, and another tenant's. */
  ids: { own: string[]; other: string[] };
  /** This tenant's menu: what valid bodies mostly name. */
  menu: { categories: string[]; items: string[] };
  metricsToken: string;
  /** Server-action ids of the build (sent as `Next-Action` to routes that are not their page's). */
  actionIds: string[];
}

const name = fc.oneof(fc.constantFrom("Noodles", "Tea", "面条", "Café crème"), fc.string({ minLength: 1, maxLength: 20 }));
const time = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
  .map(([h, m]) => `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`);

/** Valid bodies per `METHOD template` (a rule across fields, or the state, may still refuse some). */
function validBodies(ctx: FuzzContext): Record<string, fc.Arbitrary<Record<string, unknown>>> {
  const mostly = (own: string[]) =>
    fc.oneof({ arbitrary: fc.constantFrom(...own), weight: 3 }, { arbitrary: fc.constantFrom(...ctx.ids.own, ...ctx.ids.other), weight: 1 });
  const line = fc.oneof(
    fc.record({ name, qty: fc.integer({ min: 1, max: 5 }) }),
    fc.record({ menuItemId: mostly(ctx.menu.items), qty: fc.integer({ min: 1, max: 3 }) }),
  );
  const category = fc.record({ name, position: fc.nat(20) }, { requiredKeys: ["name"] });
  const item = fc.record(
    { categoryId: mostly(ctx.menu.categories), name, priceCents: fc.option(fc.nat(5000)), available: fc.boolean(), position: fc.nat(20) },
    { requiredKeys: ["categoryId", "name"] },
  );
  const api = "/api/v1/orgs/[slug]";
  return {
    [`POST ${api}/orders`]: fc.record(
      {
        items: fc.array(line, { maxLength: 3 }),
        note: fc.string({ maxLength: 30 }),
        channel: fc.constantFrom("kiosk", "counter", "api", "pos", "delivery", "phone", "web"),
      },
      { requiredKeys: [] },
    ),
    [`POST ${api}/orders/[id]/status`]: fc.record({ status: fc.constantFrom("PLACED", "READY", "COLLECTED", "CANCELLED", "ready") }),
    [`POST ${api}/shifts`]: fc.record(
      {
        reason: fc.string({ maxLength: 20 }),
        firstNumber: fc.integer({ min: 1, max: 500 }),
        ifCurrentShift: fc.integer({ min: 1, max: 5 }),
        openOrders: fc.constantFrom("keep", "clear"),
      },
      { requiredKeys: [] },
    ),
    // No valid time zone or day start: moving the business day restarts numbering (legitimately)
    // and blurs the no-gap check; mutations add invalid ones.
    [`PUT ${api}/settings`]: fc.record(
      {
        name,
        language: fc.constantFrom("en", "zh-CN", null),
        schedule: fc.array(time, { maxLength: 3 }),
        readyClearMinutes: fc.integer({ min: 1, max: 240 }),
        ageWarnMinutes: fc.integer({ min: 1, max: 30 }),
        ageLateMinutes: fc.integer({ min: 31, max: 480 }),
      },
      { requiredKeys: [] },
    ),
    [`POST ${api}/keys`]: fc.record({ role: fc.constantFrom("manager", "cashier", "kitchen", "KITCHEN"), name }),
    [`POST ${api}/menu/categories`]: category,
    [`PATCH ${api}/menu/categories/[id]`]: category,
    [`POST ${api}/menu/items`]: item,
    [`PATCH ${api}/menu/items/[id]`]: item,
  };
}

/** Broken or sneaky path segments, already as they go on the wire. */
const junkSegment = fc.oneof(
  hostileString.map(encodeSegment),
  fc.constantFrom("a%00b", "%ff", "%c3%28", "%2e%2e", "..%2f..", "%252e", "%", "%zz", "a%2Fb", "%u0041", "%C0%AE", "", "."),
);

/** A route's parameter, by its name in the file tree: what a client means to send, and what it should not. */
function segments(param: string, ctx: FuzzContext): { plausible: fc.Arbitrary<string>; hostile: fc.Arbitrary<string> } {
  switch (param) {
    case "slug":
      return {
        plausible: fc.constant(ctx.slug),
        hostile: fc.oneof(
          { arbitrary: fc.constant(ctx.otherSlug), weight: 2 },
          { arbitrary: fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,38}[a-z0-9]$/), weight: 1 },
          { arbitrary: fc.constantFrom(ctx.slug.toUpperCase(), `${ctx.slug}%20`, `${ctx.slug}-`, "a".repeat(41), "a".repeat(5_000)), weight: 1 },
          { arbitrary: junkSegment, weight: 3 },
        ),
      };
    case "id":
      return {
        plausible: fc.constantFrom(...ctx.ids.own),
        hostile: fc.oneof(
          fc.constantFrom(...ctx.ids.other),
          fc.uuid(),
          fc.constantFrom("00000000-0000-0000-0000-000000000000", ...ctx.ids.own.map((s) => s.toUpperCase()), ...ctx.ids.own.map((s) => `${s}x`)),
          junkSegment,
        ),
      };
    case "role":
      return {
        plausible: fc.constantFrom("manager", "cashier", "kitchen"),
        hostile: fc.oneof(fc.constantFrom("MANAGER", "Kitchen", "owner", "admin"), junkSegment),
      };
    case "locale":
      return { plausible: fc.constantFrom("en", "zh-CN"), hostile: fc.oneof(fc.constantFrom("zh-cn", "fr", "EN"), junkSegment) };
    case "clip":
      return {
        plausible: fc.integer({ min: 1, max: 60 }).map((n) => `${n}.wav`),
        hostile: fc.oneof(fc.constantFrom("0.wav", "100000000.wav", "42.mp3", "42", "-1.wav", "1e3.wav", "042.wav", "99999999999999999999.wav"), junkSegment),
      };
    case "path":
      // The catch-all under app/api: paths no route serves, one segment or several.
      return {
        plausible: fc.constantFrom("nothing", "v1/orgs", `v1/orgs/${ctx.slug}/nothing/here`),
        hostile: fc.array(junkSegment, { minLength: 1, maxLength: 4 }).map((xs) => xs.join("/")),
      };
    default:
      return { plausible: fc.string({ minLength: 1, maxLength: 12 }).map(encodeSegment), hostile: junkSegment };
  }
}

const QUERY_NAMES = ["status", "number", "day", "from", "to", "limit", "cascade", "categoryId", "lang", "org", "__proto__"];

/**
 * `?a=b&…` as a client means it: the query parameters this route and method read (docs/api.md),
 * with values they take. Since every route refuses parameters it does not read, the others
 * are hostile (below); operators' endpoints take any.
 */
function plausibleQuery(route: string, ctx: FuzzContext): fc.Arbitrary<string> {
  const queries: Record<string, string[]> = {
    "GET /api/v1/orgs/[slug]/orders": ["?status=PLACED,READY", "?status=placed&status=COLLECTED", "?number=1&day=2026-11-23"],
    "GET /api/v1/orgs/[slug]/audit": ["?limit=5"],
    "GET /api/v1/orgs/[slug]/webhooks/[id]/deliveries": ["?limit=5"],
    "GET /api/v1/orgs/[slug]/shifts": ["?day=2026-11-20"],
    "GET /api/v1/orgs/[slug]/stats": ["?day=2026-11-20"],
    "GET /api/v1/orgs/[slug]/orders.csv": ["?from=2026-11-01&to=2026-11-23"],
    "DELETE /api/v1/orgs/[slug]/menu/categories/[id]": ["?cascade=true", "?cascade=false"],
    "GET /api/v1/orgs/[slug]/menu/items": [`?categoryId=${ctx.menu.categories[0]}`],
    "GET /api/health": ["?lang=zh-CN"],
    "GET /api/ready": ["?lang=zh-CN"],
    "GET /api/metrics": ["?lang=zh-CN"],
  };
  const own = queries[route];
  return own ? fc.oneof({ arbitrary: fc.constant(""), weight: 4 }, { arbitrary: fc.constantFrom(...own), weight: 1 }) : fc.constant("");
}

/** `?a=b&…`: known parameter names and unknown ones, repeated, with valid and hostile values. */
function hostileQuery(ctx: FuzzContext): fc.Arbitrary<string> {
  const value = fc.oneof(
    fc.constantFrom(
      "PLACED",
      "ready,COLLECTED",
      "1",
      "0",
      "-1",
      "99999999",
      "1e3",
      "2026-11-23",
      "2026-02-30",
      "2024-02-29",
      "1999-01-01",
      "9999-12-31",
      "true",
      "false",
      "en",
      "zh-CN",
      "",
    ),
    fc.constantFrom(...ctx.ids.own, ...ctx.ids.other),
    hostileString.map(encodeSegment),
    fc.constantFrom("%ff", "%00", "%zz", "%", "a=b", "a&b", "x".repeat(8_000)),
  );
  const pair = fc.tuple(fc.oneof(fc.constantFrom(...QUERY_NAMES), fc.string({ maxLength: 8 }).map(encodeSegment)), value);
  return fc.oneof(
    { arbitrary: fc.array(pair, { minLength: 1, maxLength: 4 }).map((ps) => `?${ps.map(([k, v]) => `${k}=${v}`).join("&")}`), weight: 4 },
    { arbitrary: fc.constantFrom("?", "??", "?&&", "?=", "?a", "?status", "?status=&status="), weight: 1 },
  );
}

/** Header values (byte strings) a client could send: no CR, LF or NUL (those are malformed requests, fuzzed apart). */
const headerText = fc.oneof(
  fc.string({ unit: "binary-ascii", maxLength: 60 }).map((s) => s.replace(/[\u0000-\u0008\u000a-\u001f\u007f]/g, "")),
  fc.string({ unit: "grapheme", maxLength: 20 }).map((s) => utf8Bytes(s.replace(/[\u0000-\u001f\u007f]/g, ""))),
  fc.integer({ min: 200, max: 8_000 }).map((n) => "k".repeat(n)),
);

/** No key, another tenant's, a revoked one, a well-formed unknown one, a mangled one of ours, junk. */
function hostileAuthorization(ctx: FuzzContext): fc.Arbitrary<string | undefined> {
  const wellFormedUnknown = fc
    .tuple(fc.constantFrom("mgr", "csh", "kit", "adm"), fc.stringMatching(/^[0-9a-f]{16}$/), fc.stringMatching(/^[A-Za-z0-9_-]{32}$/))
    .map(([r, p, s]) => `Bearer nxu_${r}_${p}_${s}`);
  return fc.oneof(
    fc.constant(undefined),
    fc.constantFrom(...ctx.keys.other, ...ctx.keys.dead).map((k) => `Bearer ${k}`),
    wellFormedUnknown,
    fc.constantFrom(
      `bearer ${ctx.keys.own[0]}`,
      `Bearer  ${ctx.keys.own[0]}`,
      `Bearer ${ctx.keys.own[0]}x`,
      `Basic ${ctx.keys.own[0]}`,
      `Bearer ${ctx.metricsToken}`,
      "Bearer",
      "Bearer ",
      "",
    ),
    headerText.map((s) => `Bearer ${s}`),
    headerText,
  );
}

const hostileContentType = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom(
    "application/json; charset=utf-8",
    "application/json; charset=latin1",
    "APPLICATION/JSON",
    "application/vnd.api+json",
    "application/jsonx",
    "text/plain",
    "text/csv",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/octet-stream",
    "json",
    "",
    ";",
    'application/json; boundary="',
  ),
  headerText,
);

const plausibleIdempotencyKey = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 4 },
  // Reused across the run: replays, and conflicts when the order differs.
  { arbitrary: fc.constantFrom("fuzz-key-1", "fuzz-key-2"), weight: 2 },
  { arbitrary: fc.stringMatching(/^[\x21-\x7e]{1,40}$/), weight: 1 },
);
const hostileIdempotencyKey = fc.oneof(headerText, fc.constantFrom("", " ", "a b", "k".repeat(201), "ü"));

/** Other headers whose parsing could go wrong: cookies, languages, forwarding, the Host. */
const hostileHeaders: fc.Arbitrary<[string, string][]> = fc.array(
  fc.oneof(
    fc.tuple(
      fc.constant("Cookie"),
      fc.oneof(fc.constantFrom("nextup_session=eyJhbGciOiJIUzI1NiJ9.e30.x", "nextup_session=", "nextup_session=%ff; nextup_lang=xx", "a=b; ; =;"), headerText),
    ),
    fc.tuple(fc.constant("Accept-Language"), fc.oneof(fc.constantFrom("zh-CN,zh;q=0.9", "*", "xx-YY;q=2", ";q="), headerText)),
    fc.tuple(fc.constant("X-Forwarded-For"), fc.oneof(fc.constantFrom("1.2.3.4", "1.2.3.4, 10.0.0.1", "::1", "999.1.1.1", "unknown"), headerText)),
    fc.tuple(fc.constantFrom("X-Forwarded-Host", "X-Forwarded-Proto", "Origin", "Referer", "Accept"), headerText),
    fc.tuple(fc.constant("Host"), fc.oneof(fc.constantFrom("evil.example", "[::1]:3000", "a b", "[", "localhost:99999", ""), headerText)),
    fc.tuple(fc.constant("Range"), fc.constantFrom("bytes=0-1", "bytes=-1", "junk")),
  ),
  { minLength: 1, maxLength: 3 },
);

/**
 * The same path spelled as the router still serves it (it drops empty and `.` segments), or
 * nearly: a limit or a policy decided on the raw path would miss these (issue #26).
 */
export function respelled(path: string): fc.Arbitrary<string> {
  const cuts = path.split("/").length - 1;
  return fc.oneof(
    fc.constant(`/${path}`),
    fc.integer({ min: 1, max: cuts }).map((i) =>
      path
        .split("/")
        .map((seg, j) => (j === i ? `/${seg}` : seg))
        .join("/"),
    ),
    fc.integer({ min: 1, max: cuts }).map((i) =>
      path
        .split("/")
        .map((seg, j) => (j === i ? `./${seg}` : seg))
        .join("/"),
    ),
    fc.constantFrom(`${path}/`, `${path}//`, `/${path}/`, path.replace(/\//g, "//"), path.replace("/api/", "/api/x/../")),
  );
}

/** Server-action headers a page would act on, sent to any route (they must not reach an action on the way). */
export const actionHeaders = (actionIds: string[]): fc.Arbitrary<[string, string][]> =>
  fc.array(
    fc.oneof(
      fc.tuple(
        fc.constant("Next-Action"),
        fc.oneof(fc.constantFrom(...actionIds, "", "0", "x".repeat(42)), fc.stringMatching(/^[0-9a-f]{40,42}$/), headerText),
      ),
      fc.tuple(
        fc.constant("Origin"),
        fc.oneof(fc.constantFrom("null", "foo", "http://evil.example", "http://127.0.0.1", "file://", "http://[::1"), headerText),
      ),
      fc.tuple(fc.constant("x-action-forwarded"), fc.constantFrom("1", "true", "")),
      fc.tuple(fc.constant("Next-Router-State-Tree"), fc.oneof(fc.constantFrom("%5B%22%22%5D", "[", "null"), headerText)),
    ),
    { minLength: 1, maxLength: 3 },
  );

export interface Body {
  /** A byte string (see RawRequest). */
  bytes?: string;
  chunked?: boolean;
}

const jsonBody = (v: unknown): Body => ({ bytes: utf8Bytes(JSON.stringify(v) ?? "null") });

/** Bodies a route should refuse: a mutation of its valid body, any JSON, broken JSON, bytes, too large. */
function hostileBody(valid: fc.Arbitrary<Record<string, unknown>> | undefined): fc.Arbitrary<Body> {
  return fc
    .oneof(
      ...(valid ? [{ arbitrary: mutated(valid).map(jsonBody), weight: 8 }] : []),
      { arbitrary: fc.jsonValue({ maxDepth: 4 }).map(jsonBody), weight: 3 },
      {
        arbitrary: fc
          .constantFrom(
            "{",
            "[1,]",
            "{'a':1}",
            "NaN",
            "undefined",
            '{"items":[{"name":"Tea","qty":1}]}garbage',
            '{"__proto__":{"admin":true},"items":[]}',
            '{"constructor":{"prototype":{"admin":true}}}',
            '{"items":[{"name":"Tea","qty":1}],"items":"x"}',
            '"\\ud800"',
            '{"note":"\\u0000"}',
            "\ufeff{}",
            `${"[".repeat(5_000)}${"]".repeat(5_000)}`,
            `{"note":"${"n".repeat(16_000)}"}`,
          )
          .map((s): Body => ({ bytes: utf8Bytes(s) })),
        weight: 3,
      },
      { arbitrary: fc.string({ unit: "binary", maxLength: 200 }).map((s) => ({ bytes: utf8Bytes(s) })), weight: 1 },
      { arbitrary: fc.uint8Array({ minLength: 1, maxLength: 300 }).map((a) => ({ bytes: Buffer.from(a).toString("latin1") })), weight: 1 },
      { arbitrary: fc.integer({ min: 16_000, max: 40_000 }).map((n) => ({ bytes: `{"note":"${"a".repeat(n)}"}` })), weight: 2 },
    )
    .chain((b: Body) => fc.nat(3).map((n): Body => ({ ...b, chunked: n === 0 })));
}

export interface FuzzRequest extends RawRequest {
  /** The route it was made from, for failure messages. */
  route: string;
}

/** What a request is made of; each is either what a client means to send or something hostile. */
export const DIMENSIONS = ["slug", "params", "method", "query", "authorization", "contentType", "idempotencyKey", "headers", "body", "spelling"] as const;
export type Dimension = (typeof DIMENSIONS)[number];
/** Plausible throughout (the routes' successes, numbers issued), hostile in one part, or hostile in every part at random. */
export type Mode = "plausible" | Dimension | "chaos";

export interface Target {
  route: Route;
  method: string;
}

/** Every route with every method it exports, and the modes that change something for it. */
export function fuzzTargets(routes: Route[]): { target: Target; modes: Mode[] }[] {
  return routes.flatMap((route) =>
    route.methods.map((method) => {
      const params = route.template.match(/\[/g)?.length ?? 0;
      const slug = route.template.includes("[slug]");
      const modes = (["plausible", ...DIMENSIONS, "chaos"] as Mode[]).filter((m) => (m !== "slug" || slug) && (m !== "params" || params > (slug ? 1 : 0)));
      return { target: { route, method }, modes };
    }),
  );
}

/**
 * A random request to `target` in `mode`: plausible but for one hostile part (a slug, an id,
 * the method, the query, the key, a header, the body), so that each hostile part reaches the
 * code behind the others; plausible throughout; or hostile anywhere at random.
 */
export function requestFor({ route, method: exported }: Target, mode: Mode, ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const hostileOther = ctx.actionIds.length ? fc.oneof(hostileHeaders, actionHeaders(ctx.actionIds)) : hostileHeaders;
  const valid = validBodies(ctx);
  // Mostly the manager's key (it may do everything), so that a hostile part is not stopped by a 403 first.
  const ownKey = fc
    .oneof({ arbitrary: fc.constant(ctx.keys.own[0]!), weight: 4 }, { arbitrary: fc.constantFrom(...ctx.keys.own), weight: 1 })
    .map((k) => `Bearer ${k}`);
  const params = [...route.template.matchAll(/\[+(?:\.\.\.)?([^\]]+)\]+/g)].map((x) => x[1]!);
  const otherMethods = METHODS.filter((x) => x !== exported);
  return fc.array(fc.boolean(), { minLength: DIMENSIONS.length, maxLength: DIMENSIONS.length }).chain((coins) => {
    const hostile = (d: Dimension) => (mode === "chaos" ? coins[DIMENSIONS.indexOf(d)]! : mode === d);
    const pick = <T>(d: Dimension, plausible: fc.Arbitrary<T>, bad: fc.Arbitrary<T>) => (hostile(d) ? bad : plausible);
    return fc
      .record({
        method: pick("method", fc.constant<string>(exported), fc.constantFrom<string>(...otherMethods)),
        segments: fc.tuple(...params.map((p) => pick(p === "slug" ? "slug" : "params", segments(p, ctx).plausible, segments(p, ctx).hostile))),
        query: pick("query", plausibleQuery(`${exported} ${route.template}`, ctx), hostileQuery(ctx)),
        authorization: pick("authorization", route.template === "/api/metrics" ? fc.constant(`Bearer ${ctx.metricsToken}`) : ownKey, hostileAuthorization(ctx)),
        contentType: pick("contentType", fc.constant<string | undefined>("application/json"), hostileContentType),
        idempotencyKey: pick("idempotencyKey", plausibleIdempotencyKey, hostileIdempotencyKey),
        other: pick("headers", fc.constant<[string, string][]>([]), hostileOther),
        spelled: hostile("spelling") ? fc.nat() : fc.constant(-1),
      })
      .chain((r) => {
        const body = valid[`${r.method} ${route.template}`];
        return pick("body", body ? body.map(jsonBody) : fc.constant<Body>({}), hostileBody(body)).map((b) => ({ ...r, body: b }));
      })
      .chain((r) => {
        let i = 0;
        const path = route.template.replace(/\[+[^\]]+\]+/g, () => r.segments[i++]!);
        return (r.spelled < 0 ? fc.constant(path) : respelled(path)).map((spelled) => ({ ...r, path: spelled }));
      })
      .map((r): FuzzRequest => {
        const path = r.path;
        const headers: [string, string][] = [...r.other];
        if (r.authorization !== undefined) headers.push(["Authorization", r.authorization]);
        if (r.contentType !== undefined) headers.push(["Content-Type", r.contentType]);
        if (r.idempotencyKey !== undefined) headers.push(["Idempotency-Key", r.idempotencyKey]);
        const req = {
          route: `${r.method} ${route.template} (${mode})`,
          method: r.method,
          target: `${path}${r.query}`,
          headers,
          body: r.body.bytes,
          chunked: r.body.chunked,
        };
        // fast-check prints a counterexample with this: one readable line, not thousands of bytes.
        return Object.assign(req, { [fc.toStringMethod]: () => `${req.route}: ${describeRequest(req)}` });
      });
  });
}
