/**
 * Who the OpenAPI contract says may call each operation is who the running route lets in:
 * every keyed operation is called with a key of each role and with a manager's console
 * session, against the run's app server (the role refusal, 403 "may not do this", tells
 * which keys it turns away), and every operation without a requirement with nothing. No
 * body and made-up ids, so a key the route takes meets a 400 or 404 after `authorize`, not a
 * change — but for the few operations that need neither (starting a shift), in a restaurant
 * of this test's own.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { openApiDocument } from "@/lib/edges/http/openapi/document";
import type { StaffRole } from "@/lib/core/tenants";
import { uniqueSlug, stableDaySpec } from "../support/fixtures";
import { signInOverHttp } from "../support/forms";
import { apiClient, type ErrorJson } from "../support/http";
import { provisionTenants, type TestTenant } from "../support/tenants";

const baseUrl = inject("baseUrl");
const databaseUrl = inject("databaseUrl");
const call = apiClient(baseUrl);
const ROLES: StaffRole[] = ["MANAGER", "CASHIER", "KITCHEN"];
const METHODS = ["get", "put", "post", "patch", "delete"] as const;

let t: TestTenant;

beforeAll(async () => {
  const slug = uniqueSlug("openapi-roles");
  t = (await provisionTenants(databaseUrl, [stableDaySpec(slug)]))[slug]!;
});

interface Operation {
  method: string;
  template: string;
  /** The roles whose API keys it takes (null: none); whether the manager's console session does. */
  roles: string[] | null;
  session: boolean;
  /** No security requirement at all: anyone may call it. */
  open: boolean;
}

/** Every operation of the document, with what its security requirement says. */
function operations(): Operation[] {
  const found: Operation[] = [];
  for (const [template, item] of Object.entries(openApiDocument().paths ?? {})) {
    for (const method of METHODS) {
      const security = item?.[method]?.security;
      if (!security) continue;
      const keyed = security.find((s) => "apiKey" in s);
      found.push({
        method: method.toUpperCase(),
        template,
        roles: keyed ? [...keyed.apiKey!].sort() : null,
        session: security.some((s) => "managerSession" in s || "staffSession" in s),
        open: security.length === 0,
      });
    }
  }
  return found;
}

/** `template` with this test's restaurant and made-up values for the other parameters (never a real row). */
const pathOf = (template: string) =>
  template
    .replace("{slug}", t.slug)
    .replace(/\{role\}/g, "nobody")
    .replace(/\{[^}]+\}/g, () => randomUUID());

const keyOf = (role: StaffRole) => ({ MANAGER: t.apiKeys.manager, CASHIER: t.apiKeys.cashier, KITCHEN: t.apiKeys.kitchen })[role];

describe("who may call each operation", () => {
  it("the roles of every keyed operation are the roles whose keys the route takes", async () => {
    const keyed = operations().filter((o) => o.roles !== null);
    expect(keyed.length).toBeGreaterThan(40);
    const mismatches: string[] = [];
    for (const op of keyed) {
      const takes: string[] = [];
      for (const role of ROLES) {
        const res = await call<ErrorJson>(op.method, pathOf(op.template), { key: keyOf(role) });
        expect(res.status, `${op.method} ${op.template} with a ${role} key`).not.toBe(401);
        const refused = res.status === 403 && /may not do this/.test(res.body.error.message);
        if (!refused) takes.push(role);
      }
      takes.sort();
      if (takes.join() !== op.roles!.join())
        mismatches.push(`${op.method} ${op.template}: the document lists ${op.roles!.join(", ")}, the route takes ${takes.join(", ")}`);
    }
    expect(mismatches).toEqual([]);
  });

  it("a manager's console session, without a key, is taken exactly where the document says", async () => {
    const signedIn = await signInOverHttp(baseUrl, t.slug, "MANAGER", t.staff.manager);
    expect(signedIn.sessionCookie, `sign-in answered ${signedIn.status}`).toBeTruthy();
    const keyed = operations().filter((o) => o.roles !== null);
    const mismatches: string[] = [];
    for (const op of keyed) {
      const res = await call(op.method, pathOf(op.template), { headers: { cookie: `nextup_session=${signedIn.sessionCookie!}` } });
      const taken = res.status !== 401 && res.status !== 403;
      if (taken !== op.session)
        mismatches.push(`${op.method} ${op.template}: the document ${op.session ? "lists" : "does not list"} the session, the route answered ${res.status}`);
    }
    expect(mismatches).toEqual([]);
    expect(keyed.filter((o) => o.session).length).toBeGreaterThan(0);
  });

  it("an operation without a security requirement answers without a key", async () => {
    const open = operations().filter((o) => o.open);
    expect(open.length).toBeGreaterThan(3);
    const refused: string[] = [];
    for (const op of open) {
      const res = await call(op.method, pathOf(op.template));
      if (res.status === 401 || res.status === 403) refused.push(`${op.method} ${op.template}: ${res.status}`);
    }
    expect(refused).toEqual([]);
  });
});
