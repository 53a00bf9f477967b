/**
 * Every page, in both languages, at the size of the device it runs on: axe finds no
 * serious or critical violation, `<html lang>` matches the language shown, and a
 * screenshot of it is kept as a test artifact (test-results/screenshots/).
 */
import { seriousAxeViolations } from "./axe";
import type { Page } from "@playwright/test";
import { LOCALES } from "@/lib/core/locales";
import pg from "pg";
import { expect, signIn, test } from "./fixtures";

const SIZES = {
  board: { width: 1920, height: 1080 },
  kiosk: { width: 1024, height: 768 },
  kitchen: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

async function audit(page: Page, name: string, locale: string) {
  await expect(page.locator("html")).toHaveAttribute("lang", locale);
  // Next streams the <title> of dynamic pages in after the body: wait for it as a browser would.
  await expect(page).toHaveTitle(/\S/);
  const bad = await seriousAxeViolations(page);
  await page.screenshot({ path: `test-results/screenshots/${name}-${locale}.png` });
  expect(bad, `${name} (${locale})`).toEqual([]);
}

for (const locale of LOCALES) {
  test(`every screen passes axe in ${locale}`, async ({ browser, newTenant, request }) => {
    test.setTimeout(180_000);
    const t = await newTenant({ name: locale === "en" ? "Axe Diner" : "斧头面馆" });
    const post = async (name: string) => {
      const res = await request.post(`/api/v1/orgs/${t.slug}/orders`, {
        headers: { authorization: `Bearer ${t.apiKeys.cashier}` },
        data: { items: [{ name, qty: 2 }] },
      });
      expect(res.status()).toBe(201);
      return (await res.json()) as { id: string };
    };
    const ready = await post("Dumplings");
    await post("Noodles");
    await request.post(`/api/v1/orgs/${t.slug}/orders/${ready.id}/status`, {
      headers: { authorization: `Bearer ${t.apiKeys.kitchen}` },
      data: { status: "READY" },
    });
    const mine = await post("Tea");

    const contexts: Awaited<ReturnType<typeof browser.newContext>>[] = [];
    const open = async (size: keyof typeof SIZES, path: string) => {
      const ctx = await browser.newContext({ viewport: SIZES[size] });
      contexts.push(ctx);
      const page = await ctx.newPage();
      await page.goto(`${path}${path.includes("?") ? "&" : "?"}lang=${locale}`);
      return page;
    };

    const home = await open("kitchen", "/");
    await audit(home, "home", locale);
    const board = await open("board", `/${t.slug}/board`);
    await expect(board.getByTestId("ready").getByTestId("board-number")).toHaveCount(1);
    await audit(board, "board", locale);
    const customer = await open("phone", `/${t.slug}/o/${mine.id}`);
    await audit(customer, "customer", locale);
    const notFound = await open("phone", `/${t.slug}/o/00000000-0000-4000-8000-000000000000`);
    await audit(notFound, "not-found", locale);

    const staff = await open("kiosk", `/${t.slug}/sign-in`);
    await audit(staff, "sign-in", locale);
    await signIn(staff, t.slug, "Manager", t.staff.manager);
    for (const [screen, size] of [
      ["kiosk", "kiosk"],
      ["kitchen", "kitchen"],
      ["manager", "kitchen"],
    ] as const) {
      await staff.setViewportSize(SIZES[size]);
      await staff.goto(`/${t.slug}/${screen}?lang=${locale}`);
      await expect(staff.getByRole("main")).toBeVisible();
      await audit(staff, screen, locale);
    }
    for (const ctx of contexts) await ctx.close();
  });
}

for (const locale of LOCALES) {
  test(`every stage of the customer's page passes axe in ${locale}: preparing, ready, collected, cancelled, cleared, of an earlier day`, async ({
    browser,
    newTenant,
    request,
  }) => {
    test.setTimeout(180_000);
    const t = await newTenant({ name: locale === "en" ? "Stage Diner" : "阶段面馆" });
    const as = (key: string) => ({ authorization: `Bearer ${key}` });
    const post = async () => {
      const res = await request.post(`/api/v1/orgs/${t.slug}/orders`, { headers: as(t.apiKeys.cashier), data: { items: [{ name: "Tea", qty: 1 }] } });
      expect(res.status()).toBe(201);
      return ((await res.json()) as { id: string }).id;
    };
    const move = async (id: string, ...statuses: string[]) => {
      for (const status of statuses) {
        expect((await request.post(`/api/v1/orgs/${t.slug}/orders/${id}/status`, { headers: as(t.apiKeys.kitchen), data: { status } })).status()).toBe(200);
      }
    };
    const cleared = await post();
    expect((await request.post(`/api/v1/orgs/${t.slug}/shifts`, { headers: as(t.apiKeys.manager), data: { openOrders: "clear" } })).status()).toBe(201);
    const stages: [string, string][] = [["cleared", cleared]];
    stages.push(["preparing", await post()]);
    const ready = await post();
    await move(ready, "READY");
    stages.push(["ready", ready]);
    const collected = await post();
    await move(collected, "READY", "COLLECTED");
    stages.push(["collected", collected]);
    const cancelled = await post();
    await move(cancelled, "CANCELLED");
    stages.push(["cancelled", cancelled]);
    // An order still open from yesterday's business day: written as the day turned over.
    const db = new pg.Client({ connectionString: process.env.E2E_DATABASE_URL });
    await db.connect();
    const earlier = await db.query<{ id: string }>(
      `INSERT INTO "Order" (id, "tenantId", "businessDay", shift, number, status, items, channel, "createdAt", "readyAt")
       VALUES (gen_random_uuid(), $1, (SELECT "businessDay" - 1 FROM "Order" WHERE id = $2), 1, 41, 'READY', '[{"name":"Tea","qty":1}]', 'kiosk', now() - interval '2 hours', now())
       RETURNING id`,
      [t.id, ready],
    );
    await db.end();
    stages.push(["earlier-day", earlier.rows[0]!.id]);

    const ctx = await browser.newContext({ viewport: SIZES.phone });
    const phone = await ctx.newPage();
    for (const [stage, id] of stages) {
      await phone.goto(`/${t.slug}/o/${id}?lang=${locale}`);
      await expect(phone.getByTestId("order-status")).toHaveAttribute("data-stage", stage === "earlier-day" ? "ready" : stage);
      if (stage === "earlier-day") await expect(phone.getByTestId("earlier-day")).toBeVisible();
      await audit(phone, `customer-${stage}`, locale);
    }
    await ctx.close();
  });
}
