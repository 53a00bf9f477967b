/**
 * The roles the OpenAPI contract lists for each keyed operation are the roles the running
 * route takes: every operation is called with a key of each role, against the run's app
 * server, and the role refusal (403 "may not do this") tells which keys it turns away. No
 * body and made-up ids, so a key the route takes meets a 400 or 404 after `authorize`, not a
 * change — but for the few operations that need neither (starting a shift), in a restaurant
 * of this test's own.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { openApiDocument } from "@/lib/edges/http/openapi/document";
import type { StaffRole } from "@/lib/core/tenants";
import { uniqueSlug, stableDaySpec } from "../support/fixtures";
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

/** Every operation whose security takes API keys, with the roles the document lists. */
function keyedOperations(): { method: string; template: string; roles: string[] }[] {
  const found: { method: string; template: string; roles: string[] }[] = [];
  for (const [template, item] of Object.entries(openApiDocument().paths ?? {})) {
    for (const method of METHODS) {
      const keyed = item?.[method]?.security?.find((s) => "apiKey" in s);
      if (keyed) found.push({ method: method.toUpperCase(), template, roles: [...keyed.apiKey!].sort() });
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

describe("the roles of every keyed operation", () => {
  it("are the roles whose keys the route takes", async () => {
    const operations = keyedOperations();
    expect(operations.length).toBeGreaterThan(40);
    const mismatches: string[] = [];
    for (const op of operations) {
      const takes: string[] = [];
      for (const role of ROLES) {
        const res = await call<ErrorJson>(op.method, pathOf(op.template), { key: keyOf(role) });
        expect(res.status, `${op.method} ${op.template} with a ${role} key`).not.toBe(401);
        const refused = res.status === 403 && /may not do this/.test(res.body.error.message);
        if (!refused) takes.push(role);
      }
      takes.sort();
      if (takes.join() !== op.roles.join())
        mismatches.push(`${op.method} ${op.template}: the document lists ${op.roles.join(", ")}, the route takes ${takes.join(", ")}`);
    }
    expect(mismatches).toEqual([]);
  });
});
