import { randomBytes } from "node:crypto";
import { test as base, expect, type Page } from "@playwright/test";
import type { FloorSettings } from "@/lib/core/tenants";
import { provisionTenants, type TestTenant } from "../support/tenants";

export function e2eEnv(): { baseUrl: string; tenants: Record<string, TestTenant> } {
  const baseUrl = process.env.E2E_BASE_URL;
  const tenants = process.env.E2E_TENANTS;
  if (!baseUrl || !tenants) throw new Error("E2E_BASE_URL/E2E_TENANTS missing: run through `playwright test` (global setup)");
  return { baseUrl, tenants: JSON.parse(tenants) as Record<string, TestTenant> };
}

export type NewTenant = (spec?: { name?: string; timeZone?: string; dayStart?: string; floor?: Partial<FloorSettings> }) => Promise<TestTenant>;

export const test = base.extend<{ env: ReturnType<typeof e2eEnv>; newTenant: NewTenant }>({
  env: async ({}, use) => use(e2eEnv()),
  /** A restaurant of the test's own, so that tests never see each other's orders or shifts. */
  newTenant: async ({}, use) => {
    const url = process.env.E2E_DATABASE_URL;
    if (!url) throw new Error("E2E_DATABASE_URL missing: run through `playwright test` (global setup)");
    await use(async (spec = {}) => {
      const slug = `e2e-${randomBytes(4).toString("hex")}`;
      const made = await provisionTenants(url, [
        { slug, name: spec.name ?? "Test Kitchen", timeZone: spec.timeZone ?? "Europe/Berlin", dayStart: spec.dayStart, floor: spec.floor },
      ]);
      return made[slug]!;
    });
  },
  baseURL: async ({}, use) => use(e2eEnv().baseUrl),
});

export { expect };

/** Signs in on the tenant's sign-in page with a role and its code. */
export async function signIn(page: Page, slug: string, role: "Cashier" | "Kitchen" | "Manager", code: string) {
  // The helper reads the English labels; `?lang=en` also makes English this device's language.
  await page.goto(`/${slug}/sign-in?lang=en`);
  await page.getByRole("radio", { name: role }).check();
  await page.getByLabel("Sign-in code").fill(code);
  await page.getByRole("button", { name: "Sign in" }).click();
  // Wait for the outcome: the redirect away from sign-in (cookie set) or the error.
  await Promise.race([page.waitForURL((u) => !u.pathname.endsWith("/sign-in")), page.getByTestId("sign-in-error").waitFor()]);
}
