import { test as base, expect, type Page } from "@playwright/test";
import type { TestTenant } from "../support/tenants";

export function e2eEnv(): { baseUrl: string; tenants: Record<string, TestTenant> } {
  const baseUrl = process.env.E2E_BASE_URL;
  const tenants = process.env.E2E_TENANTS;
  if (!baseUrl || !tenants) throw new Error("E2E_BASE_URL/E2E_TENANTS missing: run through `playwright test` (global setup)");
  return { baseUrl, tenants: JSON.parse(tenants) as Record<string, TestTenant> };
}

export const test = base.extend<{ env: ReturnType<typeof e2eEnv> }>({
  env: async ({}, use) => use(e2eEnv()),
  baseURL: async ({}, use) => use(e2eEnv().baseUrl),
});

export { expect };

/** Signs in on the tenant's sign-in page with a role and its code. */
export async function signIn(page: Page, slug: string, role: "Cashier" | "Kitchen" | "Manager", code: string) {
  await page.goto(`/${slug}/sign-in`);
  await page.getByRole("radio", { name: role }).check();
  await page.getByLabel("Sign-in code").fill(code);
  await page.getByRole("button", { name: "Sign in" }).click();
  // Wait for the outcome: the redirect away from sign-in (cookie set) or the error.
  await Promise.race([
    page.waitForURL((u) => !u.pathname.endsWith("/sign-in")),
    page.getByTestId("sign-in-error").waitFor(),
  ]);
}
