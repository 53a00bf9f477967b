/**
 * The customer's page behind the ticket's QR code, on a phone: the orders ahead count down
 * live as the kitchen works, the page chimes, buzzes and retitles itself when the order is
 * ready, and it never shows anything of other customers' orders.
 */
import type { APIRequestContext, APIResponse, Page } from "@playwright/test";
import pg from "pg";
import { expect, test } from "./fixtures";
import { insertSeries, type TestTenant } from "../support/tenants";

const SHOTS = "test-results/screenshots";
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

interface Placed {
  id: string;
  number: number;
  display: string;
  businessDay: string;
  shift: number;
}

async function placeOrder(request: APIRequestContext, t: TestTenant, items: { name: string; qty: number }[], note?: string, series?: string): Promise<Placed> {
  const res = await request.post(`/api/v1/orgs/${t.slug}/orders`, {
    headers: { authorization: `Bearer ${t.apiKeys.cashier}` },
    data: { items, ...(note ? { note } : {}), ...(series ? { series } : {}) },
  });
  expect(res.status()).toBe(201);
  return (await res.json()) as Placed;
}

async function setStatus(request: APIRequestContext, t: TestTenant, id: string, status: string) {
  const res = await request.post(`/api/v1/orgs/${t.slug}/orders/${id}/status`, { headers: { authorization: `Bearer ${t.apiKeys.kitchen}` }, data: { status } });
  expect(res.status()).toBe(200);
}

/** Records what the page tries to play and how it tries to buzz (headless Chromium has neither). */
async function recordAlerts(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { played: string[]; buzzed: unknown[] };
    w.played = [];
    w.buzzed = [];
    HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
      if (!this.muted) w.played.push(this.src);
      return Promise.resolve();
    };
    Object.defineProperty(Navigator.prototype, "vibrate", {
      configurable: true,
      value: (pattern: unknown) => {
        w.buzzed.push(pattern);
        return true;
      },
    });
  });
}

const played = (page: Page) => page.evaluate(() => (window as unknown as { played: string[] }).played);
const buzzed = (page: Page) => page.evaluate(() => (window as unknown as { buzzed: unknown[] }).buzzed.length);

test("the orders ahead count down live, and the page chimes, buzzes and retitles itself when the order is ready", async ({ page, request, newTenant }) => {
  const t = await newTenant({ name: "Golden Wok" });
  const first = await placeOrder(request, t, [{ name: "Alpha soup", qty: 1 }]);
  const second = await placeOrder(request, t, [{ name: "Beta rice", qty: 2 }]);
  const mine = await placeOrder(
    request,
    t,
    [
      { name: "Gamma noodles", qty: 2 },
      { name: "Jasmine tea", qty: 1 },
    ],
    "No coriander",
  );

  // Nothing of the other orders in what the server sends: no ids (each opens its page) and no items.
  // Their keys may be there: they hold only the numbers every board shows.
  const html = await (await request.get(`/${t.slug}/o/${mine.id}?lang=en`)).text();
  expect(html).toContain("Gamma noodles");
  for (const other of [first, second]) {
    expect(html).not.toContain(other.id);
  }
  expect(html).not.toContain("Alpha soup");
  expect(html).not.toContain("Beta rice");

  await recordAlerts(page);
  await page.goto(`/${t.slug}/o/${mine.id}?lang=en`);
  await expect(page.getByTestId("order-number")).toHaveText(String(mine.number));
  await expect(page.getByTestId("order-status")).toContainText("Preparing your order");
  await expect(page.getByTestId("order-items")).toContainText("2×Gamma noodles");
  await expect(page.getByTestId("order-items")).toContainText("No coriander");
  await expect(page.getByTestId("ahead")).toHaveText("2 orders ahead of you");
  await expect(page.getByTestId("live")).toHaveText("Updates by itself");
  await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
  await page.screenshot({ path: `${SHOTS}/customer-preparing-en.png` });

  await setStatus(request, t, first.id, "READY");
  await expect(page.getByTestId("ahead")).toHaveText("1 order ahead of you");
  await setStatus(request, t, second.id, "READY");
  await expect(page.getByTestId("ahead")).toHaveText("You're next!");
  expect(await played(page)).toEqual([]);

  await setStatus(request, t, mine.id, "READY");
  await expect(page.getByTestId("order-status")).toHaveAttribute("data-stage", "ready");
  await expect(page.getByTestId("order-status")).toContainText("Ready! Please collect it");
  await expect(page).toHaveTitle(`Ready! Number ${mine.number}`);
  await expect.poll(() => played(page)).toEqual([expect.stringMatching(/\/sounds\/chime\.wav$/)]);
  await expect.poll(() => buzzed(page)).toBe(1);
  await page.screenshot({ path: `${SHOTS}/customer-ready-en.png` });

  await setStatus(request, t, mine.id, "COLLECTED");
  await expect(page.getByTestId("order-status")).toContainText("Collected");
  await expect(page.getByTestId("order-status")).toContainText("Enjoy your meal!");
  await expect(page).not.toHaveTitle(/Ready!/);
  await page.screenshot({ path: `${SHOTS}/customer-collected-en.png` });
  // All of it live, on the page first loaded.
  expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  // The chime rang once only.
  expect(await played(page)).toHaveLength(1);
});

test("the sound button plays the chime once and is remembered on the phone", async ({ page, request, newTenant }) => {
  const t = await newTenant();
  const order = await placeOrder(request, t, [{ name: "Tea", qty: 1 }]);
  await recordAlerts(page);
  await page.goto(`/${t.slug}/o/${order.id}?lang=en`);
  const button = page.getByTestId("sound-button");
  await expect(button).toHaveText(/Turn on sound/);
  await expect(button).toHaveAttribute("aria-pressed", "false");
  await button.click();
  await expect(button).toHaveText(/Sound on/);
  await expect(button).toHaveAttribute("aria-pressed", "true");
  expect(await played(page)).toEqual([expect.stringMatching(/\/sounds\/chime\.wav$/)]);
  await page.reload();
  await expect(page.getByTestId("sound-button")).toHaveText(/Sound on/);
});

test("a cancelled order and an order cleared at a new shift say so plainly", async ({ page, request, newTenant }) => {
  const t = await newTenant();
  const cancelled = await placeOrder(request, t, [{ name: "Tea", qty: 1 }]);
  const cleared = await placeOrder(request, t, [{ name: "Cake", qty: 1 }]);
  await setStatus(request, t, cancelled.id, "CANCELLED");
  await page.goto(`/${t.slug}/o/${cancelled.id}?lang=en`);
  await expect(page.getByTestId("order-status")).toHaveAttribute("data-stage", "cancelled");
  await expect(page.getByTestId("order-status")).toContainText("This order was cancelled");

  await page.goto(`/${t.slug}/o/${cleared.id}?lang=en`);
  await expect(page.getByTestId("ahead")).toHaveText("You're next!");
  await expect(page.getByTestId("live")).toHaveText("Updates by itself");
  const res = await request.post(`/api/v1/orgs/${t.slug}/shifts`, { headers: { authorization: `Bearer ${t.apiKeys.manager}` }, data: { openOrders: "clear" } });
  expect(res.status()).toBeLessThan(300);
  await expect(page.getByTestId("order-status")).toHaveAttribute("data-stage", "cleared");
  await expect(page.getByTestId("order-status")).toContainText("No longer on the list");
});

test("an unknown order is a 404 page", async ({ page, newTenant }) => {
  const t = await newTenant();
  for (const id of ["00000000-0000-4000-8000-000000000000", "not-an-id"]) {
    const res = await page.goto(`/${t.slug}/o/${id}?lang=en`);
    expect(res?.status()).toBe(404);
    await expect(page.getByTestId("order-number")).toHaveCount(0);
  }
});

test("an open page whose order the restaurant no longer has (its database restored from an older backup) says so instead of its last status", async ({
  page,
  browser,
  request,
  newTenant,
}) => {
  const t = await newTenant({ name: "Golden Wok" });
  const earlier = await placeOrder(request, t, [{ name: "Tea", qty: 1 }]);
  const lost = await placeOrder(request, t, [{ name: "Beef noodles", qty: 2 }]);
  await setStatus(request, t, lost.id, "READY");
  const zhCtx = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const zh = await zhCtx.newPage();
  const phones = [
    { phone: page, lang: "en", title: "Order not found", text: "Please show your ticket at the counter.", tab: `Number ${lost.display} · Golden Wok` },
    { phone: zh, lang: "zh-CN", title: "找不到此订单", text: "请到柜台出示小票", tab: `${lost.display} 号 · Golden Wok` },
  ];
  for (const { phone, lang } of phones) {
    await phone.goto(`/${t.slug}/o/${lost.id}?lang=${lang}`);
    await expect(phone.getByTestId("order-status")).toHaveAttribute("data-stage", "ready");
    await expect(phone.getByTestId("live")).toBeVisible();
  }

  // The machine dies; its database is restored from a backup taken before this order: the row is gone
  // (the order before it is still there).
  const db = new pg.Client({ connectionString: process.env.E2E_DATABASE_URL });
  await db.connect();
  try {
    await db.query(`DELETE FROM "Order" WHERE id = $1`, [lost.id]);
  } finally {
    await db.end();
  }

  // The page reads its order again on every reconnect and when the phone wakes up: "Ready" is no longer
  // true, and the customer holds a ticket nobody is preparing.
  for (const { phone, lang, title, text, tab } of phones) {
    await phone.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));
    const status = phone.getByTestId("order-status");
    await expect(status).toHaveAttribute("data-stage", "unknown");
    await expect(status).toContainText(title);
    await expect(status).toContainText(text);
    // The number stays: it is what the customer shows at the counter, with what was ordered.
    await expect(phone.getByTestId("order-number")).toHaveText(lost.display);
    await expect(phone.getByTestId("order-items")).toContainText("Beef noodles");
    await expect(phone).toHaveTitle(tab);
    await phone.screenshot({ path: `${SHOTS}/customer-unknown-${lang}.png` });
  }
  await zhCtx.close();

  // A page whose read fails (offline) keeps what it shows: only "no such order" changes it.
  await page.goto(`/${t.slug}/o/${earlier.id}?lang=en`);
  await expect(page.getByTestId("order-status")).toHaveAttribute("data-stage", "preparing");
  await page.route(`**/${t.slug}/o/${earlier.id}**`, (route) => (route.request().method() === "POST" ? route.abort("connectionreset") : route.continue()));
  await page.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));
  await page.waitForTimeout(500);
  await expect(page.getByTestId("order-status")).toHaveAttribute("data-stage", "preparing");
  await page.unroute(`**/${t.slug}/o/${earlier.id}**`);
});

test("an order made ready while the page re-reads it (a phone reconnecting) stays ready: the older answer does not win", async ({
  page,
  request,
  newTenant,
}) => {
  const t = await newTenant();
  const mine = await placeOrder(request, t, [{ name: "Beef noodles", qty: 1 }]);
  await recordAlerts(page);
  // The page's first re-read (when its socket connects) is taken by the server at once, before the
  // kitchen's tap, and its answer held until the page has shown the tap's event.
  let held: APIResponse | null = null;
  let release = () => {};
  const gate = new Promise<void>((r) => (release = r));
  await page.route(
    (url) => url.pathname === `/${t.slug}/o/${mine.id}`,
    async (route) => {
      if (route.request().method() !== "POST" || held) return route.continue();
      held = await route.fetch();
      await gate;
      await route.fulfill({ response: held });
    },
  );
  await page.goto(`/${t.slug}/o/${mine.id}?lang=en`);
  await expect(page.getByTestId("live")).toBeVisible();
  await expect.poll(() => held !== null).toBe(true);
  await setStatus(request, t, mine.id, "READY");
  await expect(page.getByTestId("order-status")).toHaveAttribute("data-stage", "ready");
  await expect.poll(() => played(page)).toHaveLength(1);
  release();
  // The held answer (PLACED) arrives after the event: the page reads again rather than go back.
  await page.waitForTimeout(1_000);
  await expect(page.getByTestId("order-status")).toHaveAttribute("data-stage", "ready");
  await expect(page).toHaveTitle(`Ready! Number ${mine.display}`);
  // Chimed once, not again on the way back from a stale "preparing".
  expect(await played(page)).toHaveLength(1);
  await page.unroute((url) => url.pathname === `/${t.slug}/o/${mine.id}`);
});

test("the page in Chinese", async ({ page, request, newTenant }) => {
  const t = await newTenant({ name: "金龙餐厅" });
  const first = await placeOrder(request, t, [{ name: "牛肉面", qty: 1 }]);
  const mine = await placeOrder(request, t, [{ name: "饺子", qty: 2 }], "不要香菜");
  await recordAlerts(page);
  await page.goto(`/${t.slug}/o/${mine.id}?lang=zh-CN`);
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
  await expect(page.getByTestId("order-status")).toContainText("制作中");
  await expect(page.getByTestId("ahead")).toHaveText("前面还有 1 单");
  await expect(page.getByTestId("live")).toHaveText("自动更新");
  await page.screenshot({ path: `${SHOTS}/customer-preparing-zh-CN.png` });

  await setStatus(request, t, first.id, "READY");
  await expect(page.getByTestId("ahead")).toHaveText("下一个就是您！");
  await setStatus(request, t, mine.id, "READY");
  await expect(page.getByTestId("order-status")).toContainText("请取餐");
  await expect(page).toHaveTitle(`请取餐！${mine.number} 号`);
  await page.screenshot({ path: `${SHOTS}/customer-ready-zh-CN.png` });

  await setStatus(request, t, mine.id, "COLLECTED");
  await expect(page.getByTestId("order-status")).toContainText("已取餐");
  await page.screenshot({ path: `${SHOTS}/customer-collected-zh-CN.png` });
});

test("a number of a series with a prefix: the page shows K1 whole, in its title too, in English and Chinese", async ({ page, request, newTenant }) => {
  const t = await newTenant({ name: "Golden Wok" });
  // Before anything reads the new restaurant: a node reads its series with it.
  await insertSeries(process.env.E2E_DATABASE_URL!, t.id, { name: "Kiosk", prefix: "K", first: 1, last: 99 });
  await insertSeries(process.env.E2E_DATABASE_URL!, t.id, { name: "Web", prefix: "WM", first: 100, last: 199 });
  const plain = await placeOrder(request, t, [{ name: "Tea", qty: 1 }]);
  const mine = await placeOrder(request, t, [{ name: "Gamma noodles", qty: 1 }], undefined, "Kiosk");
  expect([plain.display, mine.display]).toEqual(["1", "K1"]);

  await page.goto(`/${t.slug}/o/${mine.id}?lang=en`);
  await expect(page.getByTestId("order-number")).toHaveText("K1");
  // The tab says it from the first load, not only once the order changes.
  await expect(page).toHaveTitle("Number K1 · Golden Wok");
  // Order 1 of the default series was taken first: one ahead, whatever its series.
  await expect(page.getByTestId("ahead")).toHaveText("1 order ahead of you");
  await expect(page.getByTestId("live")).toHaveText("Updates by itself");
  await page.screenshot({ path: `${SHOTS}/customer-series-en.png` });

  // Live: the order of the default series with the same number moves nobody's "K1".
  await setStatus(request, t, plain.id, "READY");
  await expect(page.getByTestId("ahead")).toHaveText("You're next!");
  await expect(page.getByTestId("order-status")).toHaveAttribute("data-stage", "preparing");
  await setStatus(request, t, mine.id, "READY");
  await expect(page.getByTestId("order-status")).toHaveAttribute("data-stage", "ready");
  await expect(page).toHaveTitle("Ready! Number K1");
  await expect(page.getByTestId("order-number")).toHaveText("K1");

  await page.goto(`/${t.slug}/o/${mine.id}?lang=zh-CN`);
  await expect(page.getByTestId("order-number")).toHaveText("K1");
  await expect(page).toHaveTitle("请取餐！K1 号");
  await expect(page.getByTestId("live")).toHaveText("自动更新");
  await page.screenshot({ path: `${SHOTS}/customer-series-zh-CN.png` });

  // The widest number a series can show here (wide letters, three digits) fits the phone's width.
  const wide = await placeOrder(request, t, [{ name: "Tea", qty: 1 }], undefined, "Web");
  expect(wide.display).toBe("WM100");
  await page.goto(`/${t.slug}/o/${wide.id}?lang=en`);
  await expect(page.getByTestId("order-number")).toHaveText("WM100");
  const box = (await page.getByTestId("order-number").boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  expect(await page.getByTestId("order-number").evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await page.screenshot({ path: `${SHOTS}/customer-series-wide-en.png` });
});
