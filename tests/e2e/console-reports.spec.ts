/**
 * The manager's reports in a real browser: the shift history after a new shift, finding an
 * order by number, the CSV download with the page's own session, and the figures chart,
 * in English and Chinese. Each test has a restaurant of its own, in UTC with a day-start
 * 12 hours away, so its business day cannot roll over mid-test.
 */
import { readFile } from "node:fs/promises";
import type { APIRequestContext, Page } from "@playwright/test";
import type { TestTenant } from "../support/tenants";
import { stableDaySpec } from "../support/fixtures";
import { expectNoSeriousAxe } from "./axe";
import { expect, signIn, test, type NewTenant } from "./fixtures";

test.use({ viewport: { width: 1280, height: 900 } });

async function stableTenant(newTenant: NewTenant, name: string): Promise<TestTenant> {
  const { timeZone, dayStart } = stableDaySpec("x");
  return newTenant({ name, timeZone, dayStart });
}

async function expectAxeClean(page: Page, what: string) {
  await expect(page).toHaveTitle(/\S/);
  await expectNoSeriousAxe(page, what);
}

function api(request: APIRequestContext, t: TestTenant) {
  const as = (key: string) => ({ authorization: `Bearer ${key}` });
  return {
    async place(name: string, note?: string): Promise<{ id: string; number: number; businessDay: string }> {
      const res = await request.post(`/api/v1/orgs/${t.slug}/orders`, {
        headers: as(t.apiKeys.cashier),
        data: { items: [{ name, qty: 2 }], ...(note ? { note } : {}) },
      });
      expect(res.status()).toBe(201);
      return (await res.json()) as { id: string; number: number; businessDay: string };
    },
    async status(id: string, status: string, key = t.apiKeys.kitchen) {
      expect((await request.post(`/api/v1/orgs/${t.slug}/orders/${id}/status`, { headers: as(key), data: { status } })).status()).toBe(200);
    },
    /** A key with a label, as a manager makes one: the label is who an order's history names. */
    async key(role: string, name: string): Promise<string> {
      const res = await request.post(`/api/v1/orgs/${t.slug}/keys`, { headers: as(t.apiKeys.manager), data: { role, name } });
      expect(res.status()).toBe(201);
      return ((await res.json()) as { key: string }).key;
    },
    async newShift(reason: string) {
      expect((await request.post(`/api/v1/orgs/${t.slug}/shifts`, { headers: as(t.apiKeys.manager), data: { reason } })).status()).toBe(201);
    },
  };
}

test("history lists the day's shifts after a new shift, finds an order by number in every shift, and downloads the CSV", async ({
  page,
  newTenant,
  request,
}) => {
  const t = await stableTenant(newTenant, "History Diner");
  const a = api(request, t);
  const pass = await a.key("kitchen", "Pass screen");
  const noodles = await a.place("Beef noodles");
  await a.place("Tea", "=1+1");
  // 1 is collected before the new shift, so shift 2 gives it again; 2 (Tea) stays open, and a
  // number still open is never given again (decision 0027). The pass screen's key moves it: the page names it.
  await a.status(noodles.id, "READY", pass);
  await a.status(noodles.id, "COLLECTED", pass);
  await a.newShift("dinner");
  expect((await a.place("Dumplings")).number).toBe(1);

  await signIn(page, t.slug, "Manager", t.staff.manager);
  await page.goto(`/${t.slug}/manager/history?lang=en`);
  await expect(page.getByRole("heading", { level: 1, name: "Shift history" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Shift history" })).toHaveAttribute("aria-current", "page");
  const row1 = page.getByTestId("shift-row-1");
  const row2 = page.getByTestId("shift-row-2");
  await expect(row1).toContainText("New day");
  await expect(row1).toContainText("day start");
  await expect(row1).toContainText("1 – 2");
  await expect(row2).toContainText("Manual");
  await expect(row2).toContainText("dinner");
  await expect(row2).toContainText("1 – 1");
  await expect(row2.getByRole("cell").nth(4)).toHaveText("1"); // orders column

  // Number 1 exists in both shifts: both shown, each labelled by its shift.
  await page.getByLabel("Order number").fill("1");
  await page.getByRole("button", { name: "Find" }).click();
  const found = page.getByTestId("found-order");
  await expect(found).toHaveCount(2);
  await expect(found.nth(0)).toContainText("Shift 1");
  await expect(found.nth(0)).toContainText("Beef noodles");
  await expect(found.nth(1)).toContainText("Shift 2");
  await expect(found.nth(1)).toContainText("Dumplings");
  // Who marked it ready and collected it (the key's label); taken by a key without one: the time alone.
  await expect(found.nth(0).getByTestId("found-ready")).toHaveText(/^\d{2}:\d{2} · by Pass screen$/);
  await expect(found.nth(0).getByTestId("found-collected")).toHaveText(/^\d{2}:\d{2} · by Pass screen$/);
  // Taken through the cashier's key, which has no label: named by its prefix.
  await expect(found.nth(0).getByTestId("found-created")).toHaveText(/^\d{2}:\d{2} · by API key [0-9a-f]{16}$/);
  await expect(page.getByTestId("find-results")).toContainText("2 orders with number 1");
  await expectAxeClean(page, "history with found orders (en)");
  await page.screenshot({ path: "test-results/screenshots/manager-history-en.png", fullPage: true });

  await page.getByLabel("Order number").fill("99");
  await page.getByRole("button", { name: "Find" }).click();
  await expect(page.getByTestId("find-none")).toContainText("No order number 99");

  // The download uses the page's session cookie, not an API key.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV" }).click()]);
  expect(download.suggestedFilename()).toMatch(new RegExp(`^${t.slug}-orders-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
  const text = (await readFile(await download.path(), "utf8")).replace(/^\uFEFF/, "");
  const lines = text.split("\r\n");
  expect(lines[0]).toBe(
    "businessDay,shift,number,status,channel,createdAt,readyAt,collectedAt,cancelledAt,items,note,series,prefix,display,readyBy,service,currency,total,unpricedLines,unitPrices",
  );
  expect(lines).toHaveLength(5); // header, three orders, and the empty string after the last CRLF
  // Free-text lines: no service stated, no currency set, no total, one line without a price.
  expect(lines[1]).toMatch(/,2× Beef noodles,,Default,,1,Pass screen,,,,1,$/);
  expect(lines[2]).toMatch(/,2× Tea,'=1\+1,Default,,2,,,,,1,$/);

  // Chinese.
  await page.goto(`/${t.slug}/manager/history?lang=zh-CN`);
  await expect(page.getByRole("heading", { level: 1, name: "班次记录" })).toBeVisible();
  await expect(page.getByTestId("shift-row-2")).toContainText("手动");
  await page.getByLabel("取餐号").fill("1");
  await page.getByRole("button", { name: "查找" }).click();
  await expect(page.getByTestId("found-order").nth(0).getByTestId("found-ready")).toHaveText(/^\d{2}:\d{2} · Pass screen$/);
  await expectAxeClean(page, "history (zh-CN)");
  await page.screenshot({ path: "test-results/screenshots/manager-history-zh-CN.png", fullPage: true });
  await page.goto(`/${t.slug}/manager/history?lang=en`);
});

test("a bad day or number is said on the page, not a crash", async ({ page, newTenant }) => {
  const t = await stableTenant(newTenant, "Careful Diner");
  await signIn(page, t.slug, "Manager", t.staff.manager);
  await page.goto(`/${t.slug}/manager/history?lang=en&day=2026-02-30`);
  await expect(page.locator("main").getByRole("alert")).toHaveText("That is not a date. Showing today instead.");
  await expect(page.getByTestId("shift-row-1")).toBeVisible();
  await page.goto(`/${t.slug}/manager/history?lang=en&number=abc`);
  await expect(page.getByTestId("find-error")).toHaveText("Enter an order number as the ticket shows it, e.g. 12 or K12 (1 to 99999999).");
});

test("figures show orders per hour as a chart with the same figures in a table, and times per shift", async ({ page, newTenant, request }) => {
  const t = await stableTenant(newTenant, "Figures Diner");
  const a = api(request, t);
  const orders = [await a.place("Soup"), await a.place("Rice"), await a.place("Tea")];
  await a.status(orders[0]!.id, "READY");
  await a.status(orders[0]!.id, "COLLECTED");
  await a.status(orders[1]!.id, "READY");

  await signIn(page, t.slug, "Manager", t.staff.manager);
  await page.goto(`/${t.slug}/manager/figures?lang=en`);
  await expect(page.getByRole("heading", { level: 1, name: "Figures" })).toBeVisible();
  await expect(page.getByTestId("total-orders")).toHaveText("3 orders in total.");
  const chart = page.getByTestId("hour-chart");
  await expect(chart).toBeVisible();
  await expect(chart.getByTestId("hour-bar")).toHaveCount(24);
  await expect(chart.locator('[data-testid=hour-bar][data-orders="3"]')).toHaveCount(1);
  // The table for screen readers: every hour, with its count.
  const table = page.getByRole("table", { name: "Orders per hour" });
  await expect(table.getByRole("row")).toHaveCount(25);
  await expect(table.getByRole("cell", { name: "3", exact: true })).toHaveCount(1);
  const shifts = page.getByTestId("shift-times");
  await expect(shifts.getByRole("row", { name: /Shift 1/ })).toContainText("3");
  // One series only: no table per series.
  await expect(page.getByTestId("series-times")).toHaveCount(0);
  await expectAxeClean(page, "figures (en)");
  await page.screenshot({ path: "test-results/screenshots/manager-figures-en.png", fullPage: true });

  await page.goto(`/${t.slug}/manager/figures?lang=zh-CN`);
  await expect(page.getByRole("heading", { level: 1, name: "数据" })).toBeVisible();
  await expect(page.getByTestId("total-orders")).toHaveText("共 3 个订单。");
  await expectAxeClean(page, "figures (zh-CN)");
  await page.screenshot({ path: "test-results/screenshots/manager-figures-zh-CN.png", fullPage: true });
  await page.goto(`/${t.slug}/manager/figures?lang=en`);
});
