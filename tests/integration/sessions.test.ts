/**
 * Sessions end for real (issue #10): signing out revokes that session — a copy of the
 * cookie is refused afterwards on every node, the other node told before its cached answer
 * runs out, pages send it to sign-in and the API answers 401 — while the same role's other
 * sessions go on. Two app nodes share PostgreSQL, Redis and the session secret; sign-in and
 * sign-out go through the real forms.
 */
import { randomBytes } from "node:crypto";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startAppServer, testKeyPrefix, type AppServer } from "../support/app-server";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { signInOverHttp, signOutOverHttp, opensWith } from "../support/forms";
import { toldBeforeExpiry } from "../support/until";
import { REVOCATION_CACHE_MS } from "@/lib/auth/access.server";
import { contractFetch } from "../support/http";

const databaseUrl = inject("databaseUrl");
const keyPrefix = testKeyPrefix("sessions");
const secret = randomBytes(32).toString("hex");
let a: AppServer;
let b: AppServer;
let t: TestTenant;

beforeAll(async () => {
  const slug = uniqueSlug("sessions");
  t = (await provisionTenants(databaseUrl, [stableDaySpec(slug)]))[slug]!;
  const start = () => startAppServer({ databaseUrl, keyPrefix, env: { SESSION_SECRET: secret } });
  [a, b] = await Promise.all([start(), start()]);
});

afterAll(async () => {
  for (const s of [a, b]) {
    const code = await s?.stop();
    if (s && code !== 0) console.error(`node exited with ${code}:\n${s.output().slice(-4000)}`);
  }
});

/** True when `screen` opens with `token`; false when it sends the visitor to sign in. */
const signedIn = (node: AppServer, token: string, screen = "kitchen"): Promise<boolean> => opensWith(node.url, t.slug, token, screen);

async function signIn(node: AppServer, role: "KITCHEN" | "MANAGER", code: string): Promise<string> {
  const res = await signInOverHttp(node.url, t.slug, role, code);
  expect(res.status).toBe(303);
  expect(res.sessionCookie).toBeTruthy();
  return res.sessionCookie!;
}

describe("signing out", () => {
  it("ends that session on every node, the other one told at once — a copied cookie is sent to sign in — and no other session", async () => {
    // Before any node can have cached anything about the session.
    const readAt = Date.now();
    const token = await signIn(a, "KITCHEN", t.staff.kitchen);
    const otherDevice = await signIn(b, "KITCHEN", t.staff.kitchen);
    // Both nodes know the session (and have cached that it is valid).
    for (const node of [a, b]) expect(await signedIn(node, token)).toBe(true);

    const out = await signOutOverHttp(a.url, t.slug, "kitchen", token);
    expect(out.status).toBe(303);
    expect(out.location).toContain(`/${t.slug}/sign-in`);
    expect(out.sessionCookie).toBe("");

    await toldBeforeExpiry("signed out on B", async () => !(await signedIn(b, token)), readAt, REVOCATION_CACHE_MS);
    expect(await signedIn(a, token)).toBe(false);
    // The kitchen's other tablet is still signed in.
    for (const node of [a, b]) expect(await signedIn(node, otherDevice)).toBe(true);
  });

  it("a signed-out manager's cookie gets 401 from the API on the other node", async () => {
    const readAt = Date.now();
    const token = await signIn(b, "MANAGER", t.staff.manager);
    const csv = (node: AppServer) =>
      contractFetch(`${node.url}/api/v1/orgs/${t.slug}/orders.csv?from=2026-01-01&to=2026-01-02`, { headers: { cookie: `nextup_session=${token}` } });
    expect((await csv(b)).status).toBe(200);
    expect((await signOutOverHttp(a.url, t.slug, "manager", token)).status).toBe(303);
    await toldBeforeExpiry("401 on B", async () => (await csv(b)).status === 401, readAt, REVOCATION_CACHE_MS);
    const refused = await csv(b);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("UNAUTHENTICATED");
  });

  it("a token signed before sessions had an id can be signed out too", async () => {
    const legacy = await new SignJWT({ slug: t.slug, role: "KITCHEN", name: "Kitchen", gen: 1 })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(t.id)
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode(secret));
    const readAt = Date.now();
    expect(await signedIn(b, legacy)).toBe(true);
    expect((await signOutOverHttp(a.url, t.slug, "kitchen", legacy)).status).toBe(303);
    await toldBeforeExpiry("signed out on B", async () => !(await signedIn(b, legacy)), readAt, REVOCATION_CACHE_MS);
  });

  it("stays ended on a node that starts afterwards, with nothing cached (the revocation is in PostgreSQL)", async () => {
    const token = await signIn(a, "KITCHEN", t.staff.kitchen);
    expect((await signOutOverHttp(b.url, t.slug, "kitchen", token)).status).toBe(303);
    const fresh = await startAppServer({ databaseUrl, keyPrefix: testKeyPrefix("sessions-fresh"), env: { SESSION_SECRET: secret } });
    try {
      expect(await signedIn(fresh, token)).toBe(false);
    } finally {
      await fresh.stop();
    }
  });
});
