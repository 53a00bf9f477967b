/**
 * The console tells the truth and reads well (issue #25, item 6): the overview says which
 * scheduled slots started and which were skipped (and why), the audit log reads in
 * sentences in the screen's language with the locale's dates, a settings change reaches an
 * open board without a reload. Screenshots of each page at 1280×800 in both languages.
 */
import type { Page } from "@playwright/test";
import { createPrisma } from "@/lib/adapters/postgres/prisma.server";
import { businessDayAt } from "@/lib/core/business-day";
import { expect, signIn, test } from "./fixtures";
import type { TestTenant } from "../support/tenants";

const SHOTS = "test-results/screenshots";
const api = (baseURL: string | undefined, t: TestTenant, key: string, method: string, path: string, json?: unknown) =>
  fetch(new URL(`/api/v1/orgs/${t.slug}/${path}`, baseURL), {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: json === undefined ? undefined : JSON.stringify(json),
  }).then(async (r) => {
    if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
    return r.json() as Promise<Record<string, unknown>>;
  });

/** Writes what the scheduler writes when it skips a slot (shift.scheduleSkipped), for today. */
async function recordSkips(tenantId: string, timeZone: string, slots: { slot: string; reason: string }[]) {
  const url = process.env.E2E_DATABASE_URL!;
  const db = createPrisma(url, { max: 1 });
  try {
    const day = businessDayAt(new Date(), { timeZone, dayStartMinutes: 4 * 60 });
    for (const s of slots)
      await db.auditEntry.create({
        data: { tenantId, actor: "scheduler", action: "shift.scheduleSkipped", details: { businessDay: day, slot: s.slot, reason: s.reason, term: 1 } },
      });
  } finally {
    await db.$disconnect();
  }
}

async function shot(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

/** A fixed-offset zone in which it is now about 13:00, so that 11:00 and 12:00 are past and 17:00 to come. */
function zoneAtAboutOne(): string {
  const k = ((13 - new Date().getUTCHours() + 36) % 24) - 12;
  return k === 0 ? "Etc/GMT" : k > 0 ? `Etc/GMT-${k}` : `Etc/GMT+${-k}`;
}

test("the overview says a skipped scheduled shift was skipped, and why, in both languages", async ({ page, baseURL, newTenant }) => {
  const zone = zoneAtAboutOne();
  const t = await newTenant({ name: "Truthful Noodles", timeZone: zone });
  await api(baseURL, t, t.apiKeys.manager, "PUT", "settings", { schedule: ["11:00", "12:00", "17:00"] });
  // Both past slots skipped, as the scheduler records it; the shift stayed 1 (the bug said "have started").
  await recordSkips(t.id, zone, [
    { slot: "11:00", reason: "pastGrace" },
    { slot: "12:00", reason: "pastGrace" },
  ]);
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, t.slug, "Manager", t.staff.manager);
  await page.goto(`/${t.slug}/manager`);
  const line = page.getByTestId("schedule-line");
  await expect(line).not.toContainText("have started");
  await expect(page.getByTestId("slot-11:00")).toHaveText("11:00 skipped: started too late");
  await expect(page.getByTestId("slot-12:00")).toHaveText("12:00 skipped: started too late");
  await expect(page.getByTestId("slot-17:00")).toHaveText("17:00 next: starts by itself");
  await expect(page.getByTestId("current-shift")).toHaveText("1");
  await shot(page, "console-overview-en");
  await page.goto(`/${t.slug}/manager?lang=zh-CN`);
  await expect(page.getByTestId("slot-11:00")).toHaveText("11:00 已跳过：开始得太晚");
  await expect(page.getByTestId("slot-17:00")).toHaveText("17:00 下一个：将自动开始");
  await shot(page, "console-overview-zh-CN");
});

test("the audit log reads in sentences in the screen's language, with the locale's dates and translated actors", async ({ page, baseURL, newTenant }) => {
  const t = await newTenant({ name: "Sentence Diner", timeZone: "Europe/Berlin" });
  const m = t.apiKeys.manager;
  // An open order, a menu with an item marked sold out, a time zone change, a shift that kept the order.
  await api(baseURL, t, t.apiKeys.cashier, "POST", "orders", { items: [{ name: "Tea", qty: 1 }] });
  const cat = await api(baseURL, t, m, "POST", "menu/categories", { name: "Mains" });
  const item = await api(baseURL, t, m, "POST", "menu/items", { categoryId: cat.id, name: "Dumplings", priceCents: 850 });
  await api(baseURL, t, m, "PATCH", `menu/items/${String(item.id)}`, { available: false });
  await api(baseURL, t, m, "PUT", "settings", { timezone: "Asia/Shanghai" });
  await recordSkips(t.id, "Asia/Shanghai", [{ slot: "11:00", reason: "pastGrace" }]);

  await signIn(page, t.slug, "Manager", t.staff.manager);
  await page.goto(`/${t.slug}/manager`);
  await page.getByRole("button", { name: "Start new shift…" }).click();
  await page.getByRole("button", { name: /^Yes, start shift 2/ }).click();
  await expect(page.getByTestId("current-shift")).toHaveText("2");

  await page.goto(`/${t.slug}/manager/audit`);
  const log = page.getByTestId("audit-log");
  await expect(log).not.toContainText('{"');
  await expect(log.getByRole("row").nth(1)).toContainText("Shift 2 started, 1 open order kept");
  await expect(log.getByRole("row").nth(1)).toContainText("Manager (staff)");
  await expect(log).toContainText("Scheduled shift 11:00 skipped: started too late");
  await expect(log).toContainText("Time zone Europe/Berlin → Asia/Shanghai");
  await expect(log).toContainText("Dumplings marked sold out");
  await expect(log).toContainText("Scheduler");
  // en: day first, 24-hour.
  await expect(log.getByRole("row").nth(1).locator("time")).toHaveText(/^\d\d\/\d\d\/\d{4}, \d\d:\d\d:\d\d$/);
  await shot(page, "console-audit-en");

  await page.goto(`/${t.slug}/manager/audit?lang=zh-CN`);
  await expect(log.getByRole("row").nth(1)).toContainText("第 2 班开始，保留了 1 个未完成订单");
  await expect(log.getByRole("row").nth(1)).toContainText("经理（员工）");
  await expect(log).not.toContainText("Manager (staff)");
  await expect(log).toContainText("已跳过 11:00 的定时班次：开始得太晚");
  await expect(log).toContainText("时区 Europe/Berlin → Asia/Shanghai");
  await expect(log).toContainText("Dumplings 已标为售罄");
  await expect(log).toContainText("API 密钥");
  // zh-CN: year first (2026/11/25), 24-hour.
  await expect(log.getByRole("row").nth(1).locator("time")).toHaveText(/^\d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d$/);
  await shot(page, "console-audit-zh-CN");
});

test("settings reach an open board without a reload: ready numbers leave after the new time, the new default language shows", async ({
  page,
  browser,
  baseURL,
  newTenant,
}) => {
  const t = await newTenant({ name: "Live Settings Cafe", floor: { readyClearMinutes: 10 } });
  const order = await api(baseURL, t, t.apiKeys.cashier, "POST", "orders", { items: [{ name: "Tea", qty: 1 }] });
  await api(baseURL, t, t.apiKeys.kitchen, "POST", `orders/${String(order.id)}/status`, { status: "READY" });
  // Ready three minutes ago: on the board under a 10-minute rule, gone under a 2-minute one.
  const db = createPrisma(process.env.E2E_DATABASE_URL!, { max: 1 });
  try {
    await db.order.update({ where: { id: String(order.id) }, data: { readyAt: new Date(Date.now() - 3 * 60_000) } });
  } finally {
    await db.$disconnect();
  }

  const tv = await browser.newContext({ baseURL, viewport: { width: 1280, height: 720 }, locale: "en-US" });
  const board = await tv.newPage();
  await board.goto(`/${t.slug}/board`);
  await expect(board.getByRole("heading", { name: "Ready" })).toBeVisible();
  const ready = board.getByTestId("ready").getByTestId("board-number");
  await expect(ready).toHaveCount(1);
  await board.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));

  await signIn(page, t.slug, "Manager", t.staff.manager);
  await page.goto(`/${t.slug}/manager/settings`);
  await page.getByLabel("Ready numbers leave the board after (minutes)").fill("2");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByTestId("settings-saved")).toHaveText("Settings saved.");
  // Well within the board's one-minute safety resync: the event did it.
  await expect(ready).toHaveCount(0, { timeout: 10_000 });

  await page.getByLabel("Default language").selectOption("zh-CN");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByTestId("settings-saved")).toHaveText("Settings saved.");
  await expect(board.getByRole("heading", { name: "请取餐" })).toBeVisible({ timeout: 10_000 });
  expect(await board.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
  await tv.close();
});
