/**
 * The console's admin API end to end (real app servers, Redis, PostgreSQL): settings,
 * the audit log, API keys and staff code rotation — bad input named, roles enforced,
 * nothing half-changed, audit entries written, no secret ever listed — and the
 * cross-node guarantees: a revoked key and a rotated role's sessions are refused on
 * another node within 2 s, a settings change is seen there within 5 s.
 */
import { randomBytes } from "node:crypto";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createPrisma } from "@/lib/adapters/postgres/prisma.server";
import { PrismaSessionRevocations } from "@/lib/adapters/postgres/session-revocations.server";
import { PrismaStaffMemberStore } from "@/lib/adapters/postgres/staff-member-store.server";
import { PrismaStaffCodeStore } from "@/lib/adapters/postgres/staff-code-store.server";
import { signSession } from "@/lib/auth/session.server";
import { Access } from "@/lib/auth/access.server";
import { isAppError } from "@/lib/core/errors";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { apiClient, expectApiError, expectManagerOnly, expectStatus, ISO_TIMESTAMP, UUID, type Api } from "../support/http";
import { startAppServer, testKeyPrefix, type AppServer } from "../support/app-server";
import { timeUntil, toldBeforeExpiry } from "../support/until";
import { aWholeRoundLater } from "../support/scheduler-rounds";
import { API_KEY_CACHE_MS, GENERATION_CACHE_MS } from "@/lib/auth/access.server";
import { keySecret } from "../support/api-keys";
import { PrismaTenantRepository } from "@/lib/adapters/postgres/tenant-repository.server";

const baseUrl = inject("baseUrl");
const databaseUrl = inject("databaseUrl");
const call = apiClient(baseUrl);

const org = (slug: string, rest: string) => `/api/v1/orgs/${slug}/${rest}`;

interface Settings {
  name: string;
  timezone: string;
  dayStartsAt: string;
  language: string | null;
  schedule: string[];
  readyClearMinutes: number;
  ageWarnMinutes: number;
  ageLateMinutes: number;
  currency: string | null;
  kioskNumberOnly: boolean;
  printGiveUpMinutes: number;
  sharedCodes: boolean;
  readyWhen: string;
  askService: string;
  defaultService: string;
  soldOutAcceptedFrom: string[];
}
interface AuditJson {
  entries: { at: string; actor: string; action: string; details: Record<string, unknown> }[];
}
interface KeyJson {
  id: string;
  role: string;
  name: string;
  prefix: string;
  createdAt: string;
  createdBy: string | null;
  revokedAt: string | null;
}

const slugs = {
  main: uniqueSlug("adm-main"),
  other: uniqueSlug("adm-other"),
  keys: uniqueSlug("adm-keys"),
  codes: uniqueSlug("adm-codes"),
  nodes: uniqueSlug("adm-nodes"),
  kiosk: uniqueSlug("adm-kiosk"),
};
let t: Record<keyof typeof slugs, TestTenant>;

beforeAll(async () => {
  const made = await provisionTenants(
    databaseUrl,
    Object.values(slugs).map((s) => stableDaySpec(s, `Name ${s}`)),
  );
  t = Object.fromEntries(Object.entries(slugs).map(([k, s]) => [k, made[s]!])) as typeof t;
});

async function audit(api: Api, tenant: TestTenant, query = ""): Promise<AuditJson["entries"]> {
  return expectStatus(await api<AuditJson>("GET", org(tenant.slug, `audit${query}`), { key: tenant.apiKeys.manager }), 200).entries;
}

/** The field paths a 400 names. */
function fieldsOf(err: { details?: unknown }): string[] {
  return ((err.details as { fields?: { path: string }[] })?.fields ?? []).map((f) => f.path);
}

describe("who may call the console's endpoints", () => {
  const endpoints: [string, (s: string) => string, unknown?][] = [
    ["GET", (s) => org(s, "settings")],
    ["PUT", (s) => org(s, "settings"), { readyClearMinutes: 9 }],
    ["GET", (s) => org(s, "audit")],
    ["GET", (s) => org(s, "keys")],
    ["POST", (s) => org(s, "keys"), { role: "cashier", name: "x" }],
    ["DELETE", (s) => org(s, `keys/${"0".repeat(8)}-0000-4000-8000-${"0".repeat(12)}`)],
    ["POST", (s) => org(s, "staff/kitchen/rotate")],
  ];
  it.each(endpoints)("%s %s: no key 401, a cashier's or kitchen key 403, another restaurant's manager key 403", async (method, path, json) => {
    const p = path(t.main.slug);
    await expectManagerOnly(call, method, p, json, { cashier: t.main.apiKeys.cashier, kitchen: t.main.apiKeys.kitchen, otherManager: t.other.apiKeys.manager });
    // None of those changed anything.
    expect(await audit(call, t.main)).toEqual([]);
  });
});

describe("settings", () => {
  it("reads the settings with the API's field names", async () => {
    const s = expectStatus(await call<Settings>("GET", org(t.main.slug, "settings"), { key: t.main.apiKeys.manager }), 200);
    expect(s).toEqual({
      name: `Name ${t.main.slug}`,
      timezone: "UTC",
      dayStartsAt: expect.stringMatching(/^\d\d:00$/),
      language: null,
      schedule: [],
      readyClearMinutes: 10,
      ageWarnMinutes: 10,
      ageLateMinutes: 20,
      currency: null,
      kioskNumberOnly: false,
      printGiveUpMinutes: 10,
      sharedCodes: true,
      readyWhen: "parts",
      askService: "off",
      defaultService: "eatIn",
      soldOutAcceptedFrom: [],
    });
  });

  it("refuses each bad input naming the field, and changes nothing (no audit entry either)", async () => {
    const before = expectStatus(await call<Settings>("GET", org(t.main.slug, "settings"), { key: t.main.apiKeys.manager }), 200);
    const bad: [unknown, string][] = [
      [{ timezone: "Mars/Olympus" }, "timezone"],
      [{ schedule: ["11:00", "25:99"] }, "schedule"],
      [{ schedule: ["11:00", "11:00"] }, "schedule"],
      [{ dayStartsAt: "4am" }, "dayStartsAt"],
      [{ language: "fr" }, "language"],
      [{ readyClearMinutes: 0 }, "readyClearMinutes"],
      [{ ageWarnMinutes: 25 }, "ageWarnMinutes"],
      [{ ageWarnMinutes: 30, ageLateMinutes: 30 }, "ageLateMinutes"],
      [{ colour: "red" }, "colour"],
      // One bad field among good ones: the good ones are not saved either.
      [{ name: "Half Changed", readyClearMinutes: 5, timezone: "Nowhere/Land" }, "timezone"],
      [{ name: "Half Changed", schedule: ["25:99"] }, "schedule"],
      [{ currency: "eur" }, "currency"],
      [{ currency: "EURO" }, "currency"],
      [{ currency: "XYZ" }, "currency"],
      [{ currency: 978 }, "currency"],
      [{ currency: "" }, "currency"],
      [{ kioskNumberOnly: "yes" }, "kioskNumberOnly"],
      [{ printGiveUpMinutes: 0 }, "printGiveUpMinutes"],
      [{ printGiveUpMinutes: 121 }, "printGiveUpMinutes"],
      [{ readyWhen: "later" }, "readyWhen"],
      [{ name: "Half Changed", kioskNumberOnly: true, currency: "Euro" }, "currency"],
    ];
    for (const [json, field] of bad) {
      const err = expectApiError(await call("PUT", org(t.main.slug, "settings"), { key: t.main.apiKeys.manager, json }), 400, "BAD_INPUT");
      expect(err.message, JSON.stringify(json)).toContain(field);
    }
    expectApiError(
      await call("PUT", org(t.main.slug, "settings"), { key: t.main.apiKeys.manager, body: "{", headers: { "content-type": "application/json" } }),
      400,
      "BAD_INPUT",
    );
    expect(await call("GET", org(t.main.slug, "settings"), { key: t.main.apiKeys.manager })).toMatchObject({ status: 200, body: before });
    expect(await audit(call, t.main)).toEqual([]);
  });

  it("names the fields in details too", async () => {
    const err = expectApiError(
      await call("PUT", org(t.main.slug, "settings"), { key: t.main.apiKeys.manager, json: { timezone: "Bad/Zone", schedule: ["25:99"] } }),
      400,
      "BAD_INPUT",
    );
    expect(fieldsOf(err)).toEqual(["timezone", "schedule.0"]);
  });

  it("applies a partial update, sorts the schedule, and audits the changed fields old → new", async () => {
    const body = { timezone: "Asia/Shanghai", dayStartsAt: "04:00", language: "zh-CN", schedule: ["17:00", "11:00"], readyClearMinutes: 10 };
    const s = expectStatus(await call<Settings>("PUT", org(t.main.slug, "settings"), { key: t.main.apiKeys.manager, json: body }), 200);
    expect(s).toMatchObject({
      name: `Name ${t.main.slug}`,
      timezone: "Asia/Shanghai",
      dayStartsAt: "04:00",
      language: "zh-CN",
      schedule: ["11:00", "17:00"],
      readyClearMinutes: 10,
    });
    expect(await call("GET", org(t.main.slug, "settings"), { key: t.main.apiKeys.manager })).toMatchObject({ status: 200, body: s });

    const [entry, ...rest] = await audit(call, t.main);
    expect(rest).toEqual([]);
    expect(entry).toEqual({
      at: expect.stringMatching(ISO_TIMESTAMP),
      actor: `api-key ${t.main.apiKeys.manager.split("_")[2]}`,
      action: "settings.update",
      details: { changes: expect.any(Object) },
    });
    const changes = entry!.details.changes as Record<string, { from: unknown; to: unknown }>;
    expect(changes.timezone).toEqual({ from: "UTC", to: "Asia/Shanghai" });
    expect(changes.language).toEqual({ from: null, to: "zh-CN" });
    expect(changes.schedule).toEqual({ from: [], to: ["11:00", "17:00"] });
    // Unchanged fields are not listed (readyClearMinutes was 10 already).
    expect(changes).not.toHaveProperty("readyClearMinutes");
    expect(changes).not.toHaveProperty("name");

    // language null: each browser's own; warn < late kept.
    const again = expectStatus(
      await call<Settings>("PUT", org(t.main.slug, "settings"), {
        key: t.main.apiKeys.manager,
        json: { language: null, name: "Renamed", ageWarnMinutes: 25, ageLateMinutes: 40 },
      }),
      200,
    );
    expect(again).toMatchObject({ language: null, name: "Renamed", ageWarnMinutes: 25, ageLateMinutes: 40 });
    // A save that changes nothing writes no entry.
    expectStatus(await call("PUT", org(t.main.slug, "settings"), { key: t.main.apiKeys.manager, json: { name: "Renamed" } }), 200);
    const entries = await audit(call, t.main);
    expect(entries.map((e) => e.action)).toEqual(["settings.update", "settings.update"]);
    expect(entries[0]!.details.changes).toEqual({
      name: { from: `Name ${t.main.slug}`, to: "Renamed" },
      language: { from: "zh-CN", to: null },
      ageWarnMinutes: { from: 10, to: 25 },
      ageLateMinutes: { from: 20, to: 40 },
    });
  });
});

describe("the kiosk's currency and number-only settings", () => {
  it("sets the currency and number-only mode, audits them old → new, and clears the currency with null", async () => {
    const put = (json: unknown) => call<Settings>("PUT", org(t.kiosk.slug, "settings"), { key: t.kiosk.apiKeys.manager, json });
    const bad = expectApiError(await put({ currency: "Yuan", kioskNumberOnly: true, readyClearMinutes: 7 }), 400, "BAD_INPUT");
    expect(fieldsOf(bad)).toEqual(["currency"]);
    // Nothing half-changed: number-only and the minutes were not saved either, and nothing audited.
    expect(expectStatus(await call<Settings>("GET", org(t.kiosk.slug, "settings"), { key: t.kiosk.apiKeys.manager }), 200)).toMatchObject({
      currency: null,
      kioskNumberOnly: false,
      readyClearMinutes: 10,
    });
    expect(await audit(call, t.kiosk)).toEqual([]);

    expect(expectStatus(await put({ currency: "CNY", kioskNumberOnly: true }), 200)).toMatchObject({ currency: "CNY", kioskNumberOnly: true });
    expect(expectStatus(await call<Settings>("GET", org(t.kiosk.slug, "settings"), { key: t.kiosk.apiKeys.manager }), 200)).toMatchObject({
      currency: "CNY",
      kioskNumberOnly: true,
    });
    expect(expectStatus(await put({ currency: null }), 200)).toMatchObject({ currency: null, kioskNumberOnly: true });
    const entries = await audit(call, t.kiosk);
    expect(entries.map((e) => e.details.changes)).toEqual([
      { currency: { from: "CNY", to: null } },
      { currency: { from: null, to: "CNY" }, kioskNumberOnly: { from: false, to: true } },
    ]);
  });
});

describe("the audit log", () => {
  it("lists newest first, limit defaults to 50, at most 500, a bad limit is 400 naming limit", async () => {
    for (let i = 1; i <= 3; i++)
      expectStatus(await call("PUT", org(t.other.slug, "settings"), { key: t.other.apiKeys.manager, json: { readyClearMinutes: i } }), 200);
    const all = await audit(call, t.other);
    expect(all.map((e) => (e.details.changes as { readyClearMinutes: { to: number } }).readyClearMinutes.to)).toEqual([3, 2, 1]);
    expect(await audit(call, t.other, "?limit=2")).toEqual(all.slice(0, 2));
    expect(await audit(call, t.other, "?limit=500")).toEqual(all);
    for (const bad of ["0", "501", "-3", "ten", "2.5", ""]) {
      const err = expectApiError(await call("GET", org(t.other.slug, `audit?limit=${bad}`), { key: t.other.apiKeys.manager }), 400, "BAD_INPUT");
      expect(err.message).toContain("limit");
    }
  });
});

describe("API keys", () => {
  it("creates a key shown once, lists keys without secrets, revokes (twice is fine), 404 for unknown or another's", async () => {
    const manager = t.keys.apiKeys.manager;
    const made = expectStatus(
      await call<{ id: string; role: string; name: string; key: string }>("POST", org(t.keys.slug, "keys"), {
        key: manager,
        json: { role: "Cashier", name: "Delivery app" },
      }),
      201,
    );
    expect(made).toMatchObject({
      id: expect.stringMatching(UUID),
      role: "CASHIER",
      name: "Delivery app",
      key: expect.stringMatching(/^nxu_csh_[0-9a-f]{16}_/),
    });
    const prefix = made.key.split("_")[2]!;
    // The new key works with its role.
    expectStatus(await call("GET", org(t.keys.slug, "orders"), { key: made.key }), 200);
    expectApiError(await call("GET", org(t.keys.slug, "settings"), { key: made.key }), 403, "FORBIDDEN");

    const list = await call<{ keys: KeyJson[] }>("GET", org(t.keys.slug, "keys"), { key: manager });
    const keys = expectStatus(list, 200).keys;
    expect(keys).toHaveLength(4); // three provisioned + the new one
    const listed = keys.find((k) => k.id === made.id)!;
    expect(listed).toEqual({
      id: made.id,
      role: "CASHIER",
      name: "Delivery app",
      prefix,
      createdAt: expect.stringMatching(ISO_TIMESTAMP),
      createdBy: `api-key ${manager.split("_")[2]}`,
      revokedAt: null,
    });
    for (const k of keys) expect(Object.keys(k).sort()).toEqual(["createdAt", "createdBy", "id", "name", "prefix", "revokedAt", "role"]);
    const text = JSON.stringify(list.body);
    for (const secret of [made.key, manager, t.keys.apiKeys.cashier, t.keys.apiKeys.kitchen]) expect(text).not.toContain(keySecret(secret));

    // Bad input: role and name named; unknown fields refused; nothing created.
    for (const [json, field] of [
      [{ role: "chef", name: "x" }, "role"],
      [{ name: "x" }, "role"],
      [{ role: "cashier" }, "name"],
      [{ role: "cashier", name: "  " }, "name"],
      [{ role: "cashier", name: "x", secret: "mine" }, "secret"],
    ] as const) {
      const err = expectApiError(await call("POST", org(t.keys.slug, "keys"), { key: manager, json }), 400, "BAD_INPUT");
      expect(err.message, JSON.stringify(json)).toContain(field);
    }
    expect(expectStatus(await call<{ keys: KeyJson[] }>("GET", org(t.keys.slug, "keys"), { key: manager }), 200).keys).toHaveLength(4);

    // Revoke: refused at once on this node; revoking again is fine.
    const revoked = expectStatus(await call<KeyJson>("DELETE", org(t.keys.slug, `keys/${made.id}`), { key: manager }), 200);
    expect(revoked).toMatchObject({ id: made.id, revokedAt: expect.stringMatching(ISO_TIMESTAMP) });
    expectApiError(await call("GET", org(t.keys.slug, "orders"), { key: made.key }), 401, "UNAUTHENTICATED");
    expect(expectStatus(await call<KeyJson>("DELETE", org(t.keys.slug, `keys/${made.id}`), { key: manager }), 200).revokedAt).toBe(revoked.revokedAt);

    // Unknown ids and another restaurant's key: 404, and that key still works.
    expectApiError(await call("DELETE", org(t.keys.slug, `keys/${"1".repeat(8)}-1111-4111-8111-${"1".repeat(12)}`), { key: manager }), 404, "NOT_FOUND");
    expectApiError(await call("DELETE", org(t.keys.slug, "keys/not-a-uuid"), { key: manager }), 404, "NOT_FOUND");
    const otherKeys = expectStatus(await call<{ keys: KeyJson[] }>("GET", org(t.other.slug, "keys"), { key: t.other.apiKeys.manager }), 200).keys;
    const othersCashier = otherKeys.find((k) => k.role === "CASHIER")!;
    expectApiError(await call("DELETE", org(t.keys.slug, `keys/${othersCashier.id}`), { key: manager }), 404, "NOT_FOUND");
    expectStatus(await call("GET", org(t.other.slug, "orders"), { key: t.other.apiKeys.cashier }), 200);

    // Audited once each, with id, name, role and prefix — never the key.
    const entries = await audit(call, t.keys);
    expect(entries.map((e) => e.action)).toEqual(["key.revoke", "key.create"]);
    for (const e of entries) {
      expect(e.details).toEqual({ id: made.id, name: "Delivery app", role: "CASHIER", prefix });
      expect(JSON.stringify(e)).not.toContain(keySecret(made.key));
    }
  });
});

describe("staff code rotation", () => {
  it("returns a new code once; the old code no longer signs in; the role is case-insensitive; unknown roles 400", async () => {
    const db = createPrisma(databaseUrl, { max: 2 });
    try {
      const revocations = new PrismaSessionRevocations(db);
      const access = new Access(new PrismaTenantRepository(db), "x".repeat(32), {
        generationOf: (id, role) => new PrismaStaffCodeStore(db).generation(id, role),
        memberState: (tenantId, id) => new PrismaStaffMemberStore(db).state(tenantId, id),
        sessions: { revoke: (s) => revocations.revoke(s), isRevoked: (id) => revocations.isRevoked(id), ended: async () => {} },
      });
      const tenant = (await new PrismaTenantRepository(db).findBySlug(t.codes.slug))!;
      await access.signIn(tenant, "KITCHEN", t.codes.staff.kitchen);

      const res = expectStatus(
        await call<{ role: string; code: string; generation: number }>("POST", org(t.codes.slug, "staff/Kitchen/rotate"), { key: t.codes.apiKeys.manager }),
        200,
      );
      expect(res).toEqual({ role: "KITCHEN", code: expect.stringMatching(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/), generation: 2 });
      expect(res.code).not.toBe(t.codes.staff.kitchen);
      expect(res).not.toHaveProperty("secretHash");

      const old = await access.signIn(tenant, "KITCHEN", t.codes.staff.kitchen).then(
        () => "signed in",
        (e: unknown) => (isAppError(e) ? e.code : String(e)),
      );
      expect(old).toBe("UNAUTHENTICATED");
      const fresh = await access.signIn(tenant, "KITCHEN", res.code);
      expect(fresh.session.generation).toBe(2);
      // Other roles keep their codes.
      await access.signIn(tenant, "CASHIER", t.codes.staff.cashier);

      for (const role of ["chef", "MANAGERS", "%20"]) {
        const err = expectApiError(await call("POST", org(t.codes.slug, `staff/${role}/rotate`), { key: t.codes.apiKeys.manager }), 400, "BAD_INPUT");
        expect(err.message).toContain("role");
      }
      const entries = await audit(call, t.codes);
      expect(entries).toEqual([
        {
          at: expect.stringMatching(ISO_TIMESTAMP),
          actor: `api-key ${t.codes.apiKeys.manager.split("_")[2]}`,
          action: "staff.rotate",
          details: { role: "KITCHEN" },
        },
      ]);
      expect(JSON.stringify(entries)).not.toContain(res.code);
    } finally {
      await db.$disconnect();
    }
  });
});

describe("two app nodes on the same PostgreSQL and Redis", () => {
  const keyPrefix = testKeyPrefix("admin-nodes");
  const secret = randomBytes(32).toString("hex");
  let a: AppServer;
  let b: AppServer;

  beforeAll(async () => {
    [a, b] = await Promise.all([
      startAppServer({ databaseUrl, keyPrefix, env: { SESSION_SECRET: secret } }),
      startAppServer({ databaseUrl, keyPrefix, env: { SESSION_SECRET: secret } }),
    ]);
  });
  afterAll(async () => {
    for (const s of [a, b]) {
      const code = await s?.stop();
      if (s && code !== 0) console.error(`node exited with ${code}:\n${s.output().slice(-4000)}`);
    }
  });

  it("a key revoked on node A is refused on node B, told before its cached lookup runs out", async () => {
    const onA = apiClient(a.url);
    const onB = apiClient(b.url);
    const made = expectStatus(
      await onA<{ id: string; key: string }>("POST", org(t.nodes.slug, "keys"), { key: t.nodes.apiKeys.manager, json: { role: "cashier", name: "Till 2" } }),
      201,
    );
    // B looks the key up and caches it.
    const readAt = Date.now();
    expectStatus(await onB("GET", org(t.nodes.slug, "orders"), { key: made.key }), 200);
    expectStatus(await onB("GET", org(t.nodes.slug, "orders"), { key: made.key }), 200);
    expectStatus(await onA("DELETE", org(t.nodes.slug, `keys/${made.id}`), { key: t.nodes.apiKeys.manager }), 200);
    await toldBeforeExpiry("401 on B", async () => (await onB("GET", org(t.nodes.slug, "orders"), { key: made.key })).status === 401, readAt, API_KEY_CACHE_MS);
  });

  it("a rotated role's sessions are refused on both nodes, B told before its cached generation runs out (old tokens without a generation too); new sessions work", async () => {
    const tenantId = t.nodes.id;
    const session = { tenantId, slug: t.nodes.slug, role: "KITCHEN" as const, name: "Kitchen" };
    const current = await signSession({ ...session, generation: 1 }, secret);
    // A token signed before sessions carried a generation.
    const legacy = await new SignJWT({ slug: session.slug, role: session.role, name: session.name })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(tenantId)
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode(secret));
    const cashier = await signSession({ ...session, role: "CASHIER", name: "Cashier", generation: 1 }, secret);
    const page = (s: AppServer, token: string, screen = "kitchen") =>
      fetch(`${s.url}/${t.nodes.slug}/${screen}`, { headers: { cookie: `nextup_session=${token}` }, redirect: "manual" });
    const signedIn = async (s: AppServer, token: string, screen?: string) => {
      const res = await page(s, token, screen);
      await res.body?.cancel();
      if (res.status === 200) return true;
      expect(res.headers.get("location") ?? "").toContain("/sign-in");
      return false;
    };
    const readAt = Date.now();
    for (const s of [a, b]) {
      expect(await signedIn(s, current)).toBe(true);
      expect(await signedIn(s, legacy)).toBe(true);
    }

    const rotated = expectStatus(
      await apiClient(a.url)<{ generation: number }>("POST", org(t.nodes.slug, "staff/kitchen/rotate"), { key: t.nodes.apiKeys.manager }),
      200,
    );
    expect(rotated.generation).toBe(2);
    for (const token of [current, legacy]) {
      await toldBeforeExpiry("signed out on B", async () => !(await signedIn(b, token)), readAt, GENERATION_CACHE_MS);
      expect(await signedIn(a, token)).toBe(false);
    }
    // Another role is not affected; a session of the new generation works.
    expect(await signedIn(b, cashier, "kiosk")).toBe(true);
    expect(await signedIn(b, await signSession({ ...session, generation: 2 }, secret))).toBe(true);
  });

  it("a settings change made on node A is seen on node B", async () => {
    const onB = apiClient(b.url);
    const read = async () => expectStatus(await onB<Settings>("GET", org(t.nodes.slug, "settings"), { key: t.nodes.apiKeys.manager }), 200);
    expect((await read()).readyClearMinutes).toBe(10);
    expectStatus(
      await apiClient(a.url)("PUT", org(t.nodes.slug, "settings"), { key: t.nodes.apiKeys.manager, json: { readyClearMinutes: 4, name: "Seen Everywhere" } }),
      200,
    );
    // How soon is for a bench (B's tenant entry may be older than this test, so no TTL bound); 60 s only stops a hung test.
    await timeUntil(async () => (await read()).readyClearMinutes === 4, 60_000);
    expect((await read()).name).toBe("Seen Everywhere");
  });
});

describe("a schedule saved through the API", () => {
  it("does not fire a slot whose time had already passed when it was saved; the same slot set before it came does fire", async () => {
    const [viaApi, before] = [uniqueSlug("adm-sched-api"), uniqueSlug("adm-sched-before")];
    const sentinelSlugs = [uniqueSlug("adm-sched-s1"), uniqueSlug("adm-sched-s2")] as const;
    const made = await provisionTenants(
      databaseUrl,
      [viaApi, before, ...sentinelSlugs].map((s) => stableDaySpec(s)),
    );
    // A minute ago, in UTC (the tenants' zone; their day started about 12 hours ago).
    const slot = new Date(Date.now() - 60_000).toISOString().slice(11, 16);
    const db = createPrisma(databaseUrl, { max: 2 });
    try {
      // The control: written straight to the table, as if saved before the slot came (no change time).
      await db.tenant.update({ where: { id: made[before]!.id }, data: { schedule: [slot] } });
      expectStatus(await call("PUT", org(viaApi, "settings"), { key: made[viaApi]!.apiKeys.manager, json: { schedule: [slot] } }), 200);

      const started = async (id: string) => db.shift.count({ where: { tenantId: id, slot } });
      // 60 s only stops a hung test.
      await timeUntil(async () => (await started(made[before]!.id)) > 0, 60_000).catch(() => {
        throw new Error("the control slot never started: is a scheduler leading?");
      });
      // A whole round that began after the control started has ended: it went through both tenants.
      await aWholeRoundLater(db, [made[sentinelSlugs[0]]!.id, made[sentinelSlugs[1]]!.id], "UTC");
      expect(await started(made[viaApi]!.id)).toBe(0);
      expect(await db.auditEntry.count({ where: { tenantId: made[viaApi]!.id, action: { startsWith: "shift." } } })).toBe(0);
    } finally {
      await db.$disconnect();
    }
  });
});
