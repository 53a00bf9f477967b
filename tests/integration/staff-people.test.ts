/**
 * People with their own PIN (issue #38, decision 0051) against the real PostgreSQL, Redis and
 * two app nodes: the staff REST (manager only, PIN rules, names unique, no PIN in any answer,
 * only an argon2id hash stored), a person's session ended on every node when they are let go
 * or get a new PIN while a colleague's goes on, shared codes turned off, and wrong PINs tried
 * at once from many connections counted exactly: the row lock in PostgreSQL is the fence.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { MEMBER_CACHE_MS } from "@/lib/auth/access.server";
import { verifySecret } from "@/lib/auth/secrets.server";
import { PrismaStaffMemberStore } from "@/lib/adapters/postgres/staff-member-store.server";
import { PrismaTenantRepository } from "@/lib/adapters/postgres/tenant-repository.server";
import { createPrisma } from "@/lib/adapters/postgres/prisma.server";
import { isAppError } from "@/lib/core/errors";
import { StaffService } from "@/lib/core/staff/staff-service";
import type { Tenant } from "@/lib/core/tenants";
import { startAppServer, testKeyPrefix, type AppServer } from "../support/app-server";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { hiddenFields, opensWith, postForm, signInOverHttp, signInWithPinOverHttp } from "../support/forms";
import { apiClient, expectApiError, expectManagerOnly, expectStatus, UUID } from "../support/http";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { toldBeforeExpiry } from "../support/until";

const databaseUrl = inject("databaseUrl");
const keyPrefix = testKeyPrefix("staff-people");
const secret = randomBytes(32).toString("hex");
let a: AppServer;
let b: AppServer;
let t: TestTenant;
let other: TestTenant;
const prisma = createPrisma(databaseUrl, { max: 4 });
const sql = new pg.Pool({ connectionString: databaseUrl, max: 2 });
const store = new PrismaStaffMemberStore(prisma);
const staff = new StaffService({ store, hash: async () => "unused", verify: verifySecret, invalidate: {} as never, clock: { now: () => new Date() } });

interface Person {
  id: string;
  name: string;
  role: string;
  active: boolean;
  createdAt: string;
  updatedAt: string;
}

beforeAll(async () => {
  const [s1, s2] = [uniqueSlug("people"), uniqueSlug("people-other")];
  const made = await provisionTenants(databaseUrl, [stableDaySpec(s1), stableDaySpec(s2)]);
  [t, other] = [made[s1]!, made[s2]!];
  const start = () => startAppServer({ databaseUrl, keyPrefix, env: { SESSION_SECRET: secret } });
  [a, b] = await Promise.all([start(), start()]);
});

afterAll(async () => {
  for (const s of [a, b]) {
    const code = await s?.stop();
    if (s && code !== 0) console.error(`node exited with ${code}:\n${s.output().slice(-4000)}`);
  }
  await prisma.$disconnect();
  await sql.end();
});

const path = (rest = "") => `/api/v1/orgs/${t.slug}/staff${rest}`;
const tenantRow = async (): Promise<Tenant> => (await new PrismaTenantRepository(prisma).findBySlug(t.slug))!;

async function add(name: string, role: string, pin: string): Promise<Person> {
  return expectStatus(await apiClient(a.url)<Person>("POST", path(), { key: t.apiKeys.manager, json: { name, role, pin } }), 201);
}

/** A person's session as the sign-in page makes it (its real form, on node `on`); a refusal throws the page's answer. */
async function sessionOf(id: string, pin: string, on: AppServer = a): Promise<string> {
  const res = await signInWithPinOverHttp(on.url, t.slug, id, pin);
  if (res.status !== 303 || !res.sessionCookie) throw new Error(`sign-in refused (${res.status})`);
  return res.sessionCookie;
}

/** Where `screen` opened with `token` sends the visitor, and the reason the sign-in page there says (its status line). */
async function reasonShown(node: AppServer, token: string, screen: string): Promise<{ location: string; said: string | null }> {
  const res = await fetch(`${node.url}/${t.slug}/${screen}`, { headers: { cookie: `nextup_session=${token}` }, redirect: "manual" });
  await res.body?.cancel();
  const location = res.headers.get("location") ?? "";
  const page = await (await fetch(new URL(`${location}&lang=en`, node.url), { headers: { cookie: `nextup_session=${token}` } })).text();
  const said = /<p role="status"[^>]*>([^<]*)<\/p>/.exec(page)?.[1] ?? null;
  return { location, said };
}

/** True when `screen` opens with `token`; false when it sends the visitor to sign in. */
const signedIn = (node: AppServer, token: string, screen = "kitchen"): Promise<boolean> => opensWith(node.url, t.slug, token, screen);

describe("the staff REST", () => {
  it("a manager adds people; the answer never holds the PIN; only an argon2id hash is stored", async () => {
    const p = await add("Li Wei", "kitchen", "2580");
    expect(p).toEqual({
      id: expect.stringMatching(UUID),
      name: "Li Wei",
      role: "KITCHEN",
      active: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const { rows } = await sql.query<{ pinHash: string }>(`SELECT "pinHash" FROM "StaffMember" WHERE id = $1`, [p.id]);
    expect(rows[0]!.pinHash).toMatch(/^\$argon2id\$/);
    expect(rows[0]!.pinHash).not.toContain("2580");
    const list = expectStatus(await apiClient(b.url)<{ staff: Person[] }>("GET", path(), { key: t.apiKeys.manager }), 200);
    expect(list.staff.map((s) => s.name)).toContain("Li Wei");
    expect(JSON.stringify(list)).not.toMatch(/pin|argon/i);
    // The audit names who added whom.
    const { rows: audit } = await sql.query<{ action: string; details: { name: string } }>(
      `SELECT action, details FROM "AuditEntry" WHERE "tenantId" = $1 AND action = 'staff.add'`,
      [t.id],
    );
    expect(audit.map((e) => e.details.name)).toContain("Li Wei");
  });

  it("only a manager: no key 401, a cashier's or kitchen key or another restaurant's manager 403", async () => {
    await expectManagerOnly(
      apiClient(a.url),
      "POST",
      path(),
      { name: "Nobody", role: "cashier", pin: "2580" },
      {
        cashier: t.apiKeys.cashier,
        kitchen: t.apiKeys.kitchen,
        otherManager: other.apiKeys.manager,
      },
    );
    await expectManagerOnly(apiClient(a.url), "GET", path(), undefined, {
      cashier: t.apiKeys.cashier,
      kitchen: t.apiKeys.kitchen,
      otherManager: other.apiKeys.manager,
    });
  });

  it("400 for a guessable PIN, a bad role or name, nothing stored; 409 for a name taken (case and spacing aside); 404 for nobody", async () => {
    const call = apiClient(a.url);
    const before = (await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "StaffMember" WHERE "tenantId" = $1`, [t.id])).rows[0]!.n;
    for (const json of [
      { name: "Ana", role: "cashier", pin: "1234" },
      { name: "Ana", role: "cashier", pin: "0000" },
      { name: "Ana", role: "cashier", pin: "123" },
      { name: "Ana", role: "cashier", pin: "12ab" },
      { name: "Ana", role: "chef", pin: "2580" },
      { name: "", role: "cashier", pin: "2580" },
      { name: "Ana", role: "cashier" },
    ]) {
      expectApiError(await call("POST", path(), { key: t.apiKeys.manager, json }), 400, "BAD_INPUT");
    }
    expect((await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "StaffMember" WHERE "tenantId" = $1`, [t.id])).rows[0]!.n).toBe(before);
    await add("Sam Lee", "cashier", "4682");
    expectApiError(await call("POST", path(), { key: t.apiKeys.manager, json: { name: " sam  LEE ", role: "kitchen", pin: "7391" } }), 409, "CONFLICT");
    // Another restaurant may have its own Sam Lee.
    expectStatus(
      await call("POST", `/api/v1/orgs/${other.slug}/staff`, { key: other.apiKeys.manager, json: { name: "Sam Lee", role: "kitchen", pin: "7391" } }),
      201,
    );
    expectApiError(
      await call("PATCH", path(`/${"0".repeat(8)}-0000-4000-8000-${"0".repeat(12)}`), { key: t.apiKeys.manager, json: { active: false } }),
      404,
      "NOT_FOUND",
    );
    expectApiError(await call("PATCH", path("/not-an-id"), { key: t.apiKeys.manager, json: { active: false } }), 404, "NOT_FOUND");
    const sam = (await call<{ staff: Person[] }>("GET", path(), { key: t.apiKeys.manager })).body.staff.find((s) => s.name === "Sam Lee")!;
    expectApiError(await call("PATCH", path(`/${sam.id}`), { key: t.apiKeys.manager, json: {} }), 400, "BAD_INPUT");
    expectApiError(await call("PATCH", path(`/${sam.id}`), { key: t.apiKeys.manager, json: { pin: "9876" } }), 400, "BAD_INPUT");
    // Another restaurant's manager cannot touch this one's people.
    expectApiError(
      await call("PATCH", `/api/v1/orgs/${other.slug}/staff/${sam.id}`, { key: other.apiKeys.manager, json: { active: false } }),
      404,
      "NOT_FOUND",
    );
  });
});

describe("a person's sessions", () => {
  it("end on every node within seconds when they are let go or get a new PIN; a colleague stays signed in", async () => {
    const cook = await add("Ravi", "kitchen", "5831");
    const colleague = await add("Mei", "kitchen", "9047");
    const readAt = Date.now();
    const [ravi, mei] = [await sessionOf(cook.id, "5831"), await sessionOf(colleague.id, "9047")];
    // Both nodes have seen (and cached) both sessions as valid.
    for (const node of [a, b]) for (const token of [ravi, mei]) expect(await signedIn(node, token)).toBe(true);

    const gone = expectStatus(await apiClient(a.url)<Person>("PATCH", path(`/${cook.id}`), { key: t.apiKeys.manager, json: { active: false } }), 200);
    expect(gone.active).toBe(false);
    await toldBeforeExpiry("Ravi signed out on B", async () => !(await signedIn(b, ravi)), readAt, MEMBER_CACHE_MS);
    expect(await signedIn(a, ravi)).toBe(false);
    for (const node of [a, b]) expect(await signedIn(node, mei)).toBe(true);
    // Let go: the PIN no longer signs in; the page says so in a sentence, and sets no cookie.
    const refused = await signInWithPinOverHttp(b.url, t.slug, cook.id, "5831");
    expect(refused.sessionCookie).toBeNull();
    expect(refused.html).toContain("This name cannot sign in here");

    // A new PIN ends Mei's sessions too; the new PIN signs in, the old one does not.
    const readAgain = Date.now();
    expect(await signedIn(b, mei)).toBe(true);
    expectStatus(await apiClient(b.url)<Person>("PATCH", path(`/${colleague.id}`), { key: t.apiKeys.manager, json: { pin: "3917" } }), 200);
    await toldBeforeExpiry("Mei's old session ended on A", async () => !(await signedIn(a, mei)), readAgain, MEMBER_CACHE_MS);
    expect(await signedIn(b, await sessionOf(colleague.id, "3917", b))).toBe(true);
    const old = await signInWithPinOverHttp(a.url, t.slug, colleague.id, "9047");
    expect(old.sessionCookie).toBeNull();
    expect(old.html).toContain("Wrong PIN for Mei.");
  });

  it("shared codes off: refused without a manager of one's own, then shared-code sessions end and codes no longer sign in", async () => {
    const call = apiClient(a.url);
    const shared = await signInOverHttp(a.url, t.slug, "KITCHEN", t.staff.kitchen);
    expect(shared.sessionCookie).toBeTruthy();
    // A sign-in page left open on a tablet: its code form, as it was before the change.
    const stale = hiddenFields(await (await fetch(`${b.url}/${t.slug}/sign-in?lang=en`)).text(), (f) => f.tenant === t.slug, 'name="code"');
    const readAt = Date.now();
    expect(await signedIn(b, shared.sessionCookie!)).toBe(true);

    expectApiError(await call("PUT", `/api/v1/orgs/${t.slug}/settings`, { key: t.apiKeys.manager, json: { sharedCodes: false } }), 409, "CONFLICT");
    const boss = await add("Boss Wu", "manager", "6150");
    const off = expectStatus(
      await call<{ sharedCodes: boolean }>("PUT", `/api/v1/orgs/${t.slug}/settings`, { key: t.apiKeys.manager, json: { sharedCodes: false } }),
      200,
    );
    expect(off.sharedCodes).toBe(false);
    await toldBeforeExpiry("the shared-code session ended on B", async () => !(await signedIn(b, shared.sessionCookie!)), readAt, MEMBER_CACHE_MS);
    // The tablet that still had it is sent to sign in with the reason (a refresh lands there, not on the notice), in words
    // that fit a restaurant without codes.
    const ended = await reasonShown(b, shared.sessionCookie!, "kitchen");
    expect(ended.location).toContain("why=signedOut");
    expect(ended.said).toBe("This screen was signed out: this restaurant signs in by name and PIN only. Choose your name.");
    // A cashier of one's own opening the kitchen is told to sign in as a person of that role, not with a code there is none of.
    const till = await add("Till Ho", "cashier", "3806");
    const needs = await reasonShown(b, await sessionOf(till.id, "3806", b), "kitchen");
    expect(needs.location).toContain("why=roleNeeded");
    expect(needs.said).toBe("This screen needs kitchen: sign in as a person with that role, with your name and PIN.");
    // The page offers no code any more; the stale page's form is refused by the action itself.
    expect(await (await fetch(`${b.url}/${t.slug}/sign-in?lang=en`)).text()).not.toContain('name="code"');
    const again = await postForm(`${b.url}/${t.slug}/sign-in?lang=en`, { ...stale, role: "KITCHEN", code: t.staff.kitchen });
    expect(again.sessionCookie).toBeNull();
    expect(again.html).toContain("This restaurant signs in by name and PIN only");
    // The last manager of one's own cannot be let go while shared codes are off.
    expectApiError(await call("PATCH", path(`/${boss.id}`), { key: t.apiKeys.manager, json: { active: false } }), 409, "CONFLICT");
    expectApiError(await call("PATCH", path(`/${boss.id}`), { key: t.apiKeys.manager, json: { role: "kitchen" } }), 409, "CONFLICT");
    // The manager signs in with their own PIN and opens the console.
    expect(await signedIn(b, await sessionOf(boss.id, "6150"), "manager")).toBe(true);
    expectStatus(await call("PUT", `/api/v1/orgs/${t.slug}/settings`, { key: t.apiKeys.manager, json: { sharedCodes: true } }), 200);
  });
});

describe("wrong PINs tried at once", () => {
  it("are counted one by one under the row lock: 12 at once from many connections, 5 checked, 7 told to wait; a colleague is not", async () => {
    const target = await add("Tomás", "cashier", "8264");
    const colleague = await add("Yuki", "cashier", "1593");
    const tenant = await tenantRow();
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        staff.signInWithPin(tenant, target.id, "0852", `203.0.113.${i}`).then(
          () => "signed in",
          (e: unknown) => (isAppError(e) ? `${e.code}:${e.reason}` : String(e)),
        ),
      ),
    );
    const counts = outcomes.reduce<Record<string, number>>((m, o) => ({ ...m, [o]: (m[o] ?? 0) + 1 }), {});
    expect(counts).toEqual({ "UNAUTHENTICATED:wrongPin": 4, "UNAUTHENTICATED:wrongPinWait": 1, "RATE_LIMITED:pinWaitPerson": 7 });
    const { rows } = await sql.query<{ failures: number }>(`SELECT failures FROM "PinCount" WHERE "tenantId" = $1 AND key = $2`, [t.id, `person:${target.id}`]);
    expect(rows[0]!.failures).toBe(5);
    // The right PIN waits too (it is not even checked) …
    const right = await staff.signInWithPin(tenant, target.id, "8264", "203.0.113.200").catch((e: unknown) => e);
    expect(isAppError(right) && right.reason).toBe("pinWaitPerson");
    // … but a colleague on one of those very devices signs in.
    expect((await staff.signInWithPin(tenant, colleague.id, "1593", "203.0.113.3")).name).toBe("Yuki");
    const { rows: audit } = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "AuditEntry" WHERE "tenantId" = $1 AND action = 'staff.pinWait'`, [
      t.id,
    ]);
    expect(audit[0]!.n).toBe(1);
    // Every sign-in by PIN is in the audit log, named, with where from.
    const { rows: signIns } = await sql.query<{ actor: string; details: { name: string; address: string } }>(
      `SELECT actor, details FROM "AuditEntry" WHERE "tenantId" = $1 AND action = 'staff.signIn' AND details->>'name' = 'Yuki'`,
      [t.id],
    );
    expect(signIns).toEqual([{ actor: "Yuki (staff)", details: expect.objectContaining({ name: "Yuki", role: "CASHIER", address: "203.0.113.3" }) }]);
  });
});
