/**
 * Sold out at the pass, in a real browser: the kitchen (1280×800) marks a dish sold out in
 * one tap from a 40-dish menu, and a kiosk open in another page (1024×768) shows it at once
 * without a reload; marked back (by keyboard alone), the kiosk takes an order for it again.
 * Screenshots of the panel in English and Chinese.
 */
import type { APIRequestContext, Browser, Page } from "@playwright/test";
import type { TestTenant } from "../support/tenants";
import { expect, signIn, test } from "./fixtures";

const KITCHEN = { width: 1280, height: 800 };
const KIOSK = { width: 1024, height: 768 };
test.use({ viewport: KITCHEN });

const MENU_EN = {
  Noodles: ["Dan dan noodles", "Beef noodles", "Zhajiang noodles", "Cold sesame noodles", "Wonton noodle soup", "Chow mein", "Rice noodle roll", "Udon"],
  Dumplings: ["Pork buns", "Shrimp dumplings", "Pot stickers", "Soup dumplings", "Leek dumplings", "Chive boxes", "Steamed buns", "Spring rolls"],
  Rice: ["Fried rice", "Claypot rice", "Congee", "Chicken rice", "Curry rice", "Egg fried rice", "Sticky rice", "Rice bowl"],
  Sides: ["Cucumber salad", "Tofu skin", "Pickles", "Edamame", "Seaweed", "Fried tofu", "Tea eggs", "Greens"],
  Drinks: ["Jasmine tea", "Soy milk", "Lemon tea", "Plum juice", "Milk tea", "Cola", "Water", "Beer"],
};
const MENU_ZH = {
  面食: ["担担面", "牛肉面", "炸酱面", "麻酱凉面", "云吞面", "炒面", "肠粉", "乌冬面"],
  点心: ["肉包", "虾饺", "锅贴", "小笼包", "韭菜饺", "韭菜盒子", "馒头", "春卷"],
  米饭: ["炒饭", "煲仔饭", "白粥", "鸡饭", "咖喱饭", "蛋炒饭", "糯米饭", "盖饭"],
  小菜: ["拍黄瓜", "豆皮", "泡菜", "毛豆", "海带", "炸豆腐", "茶叶蛋", "青菜"],
  饮品: ["茉莉花茶", "豆浆", "柠檬茶", "酸梅汤", "奶茶", "可乐", "矿泉水", "啤酒"],
};

/** The menu, as a manager's POS would set it up. */
async function makeMenu(request: APIRequestContext, t: TestTenant, menu: Record<string, string[]>) {
  const headers = { authorization: `Bearer ${t.apiKeys.manager}` };
  for (const [category, dishes] of Object.entries(menu)) {
    const res = await request.post(`/api/v1/orgs/${t.slug}/menu/categories`, { headers, data: { name: category } });
    expect(res.status()).toBe(201);
    const { id } = (await res.json()) as { id: string };
    for (const [i, name] of dishes.entries()) {
      const item = await request.post(`/api/v1/orgs/${t.slug}/menu/items`, { headers, data: { categoryId: id, name, priceCents: 800 + i * 50 } });
      expect(item.status()).toBe(201);
    }
  }
}

async function openKitchen(page: Page, t: TestTenant, lang: "en" | "zh-CN") {
  await signIn(page, t.slug, "Kitchen", t.staff.kitchen);
  await page.goto(`/${t.slug}/kitchen?lang=${lang}`);
  await expect(page.locator("[data-connection=live]")).toBeVisible();
}

async function openKiosk(browser: Browser, baseURL: string | undefined, t: TestTenant): Promise<Page> {
  const kiosk = await (await browser.newContext({ baseURL, viewport: KIOSK })).newPage();
  await signIn(kiosk, t.slug, "Cashier", t.staff.cashier);
  await kiosk.goto(`/${t.slug}/kiosk?lang=en`);
  await expect(kiosk.locator("[data-connection=live]")).toBeVisible();
  return kiosk;
}

/** Every dish toggle lies inside the kitchen's screen: the whole menu reads at a glance, no scrolling. */
async function expectAllInView(page: Page, count: number) {
  const dishes = page.getByTestId("sold-out-dish");
  await expect(dishes).toHaveCount(count);
  for (const box of await Promise.all((await dishes.all()).map((d) => d.boundingBox()))) {
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expect(box!.y + box!.height).toBeLessThanOrEqual(KITCHEN.height);
    expect(box!.x + box!.width).toBeLessThanOrEqual(KITCHEN.width);
    // A target a cook hits with a wet finger.
    expect(box!.height).toBeGreaterThanOrEqual(40);
  }
}

test("a cook marks a dish sold out in one tap; the open kiosk shows it live; marked back by keyboard, it is orderable again", async ({
  page,
  browser,
  baseURL,
  request,
  newTenant,
}) => {
  const t = await newTenant();
  await makeMenu(request, t, MENU_EN);
  const kiosk = await openKiosk(browser, baseURL, t);
  const danDanOnKiosk = kiosk.getByTestId("menu-button").filter({ hasText: "Dan dan noodles" });
  await expect(danDanOnKiosk).toBeEnabled();
  // Set on the kiosk's page itself: still there afterwards means the page was never reloaded.
  await kiosk.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

  await openKitchen(page, t, "en");
  await page.getByRole("button", { name: "Sold out" }).click();
  const panel = page.getByRole("dialog", { name: "Sold out" });
  await expect(panel).toBeVisible();
  await expectAllInView(page, 40);
  await expect(page.getByTestId("sold-out-count")).toHaveText("Nothing sold out");

  // One tap.
  const danDan = panel.getByRole("button", { name: /^Dan dan noodles/ });
  await expect(danDan).toHaveAttribute("aria-pressed", "false");
  await danDan.click();
  await expect(danDan).toHaveAttribute("aria-pressed", "true");
  await expect(danDan).toContainText("Sold out");
  await expect(page.getByTestId("sold-out-status")).toHaveText("Dan dan noodles: sold out");
  await expect(page.getByTestId("sold-out-count")).toHaveText("1 dish sold out");

  // The kiosk, open all along, shows it sold out without a reload.
  await expect(danDanOnKiosk).toBeDisabled();
  await expect(danDanOnKiosk).toContainText("Sold out");
  expect(await kiosk.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);

  await page.getByRole("button", { name: "Pot stickers" }).click();
  await expect(page.getByTestId("sold-out-count")).toHaveText("2 dishes sold out");
  await page.screenshot({ path: "test-results/screenshots/kitchen-sold-out-en.png" });

  // Esc folds the panel and gives focus back to its button; Enter opens it again, with the keyboard alone.
  await page.keyboard.press("Escape");
  await expect(panel).toBeHidden();
  const toggle = page.getByRole("button", { name: "Sold out", exact: true });
  await expect(toggle).toBeFocused();
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await page.keyboard.press("Enter");
  await expect(panel).toBeVisible();
  await expect(panel).toBeFocused();
  // Close, then the first dish (Dan dan noodles): Space marks it back.
  await page.keyboard.press("Tab");
  await expect(panel.getByRole("button", { name: "Close" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(danDan).toBeFocused();
  await expect(danDan).toHaveAttribute("aria-pressed", "true");
  await page.keyboard.press("Space");
  await expect(danDan).toHaveAttribute("aria-pressed", "false");
  await expect(page.getByTestId("sold-out-status")).toHaveText("Dan dan noodles: available again");

  // Back on the kiosk, live: it takes an order for it.
  await expect(danDanOnKiosk).toBeEnabled();
  await danDanOnKiosk.click();
  await kiosk.getByRole("button", { name: "Take order" }).click();
  await expect(kiosk.getByTestId("issued-number")).toHaveText("1");
  await kiosk.context().close();

  // The console's audit names who did it.
  const audit = await request.get(`/api/v1/orgs/${t.slug}/audit?limit=10`, { headers: { authorization: `Bearer ${t.apiKeys.manager}` } });
  const { entries } = (await audit.json()) as { entries: { actor: string; action: string; details: { name: string; available: boolean } }[] };
  const taps = entries.filter((e) => e.action === "menu.available").reverse();
  expect(taps.map((e) => [e.actor, e.details.name, e.details.available])).toEqual([
    ["Kitchen (staff)", "Dan dan noodles", false],
    ["Kitchen (staff)", "Pot stickers", false],
    ["Kitchen (staff)", "Dan dan noodles", true],
  ]);
});

test("the sold-out panel in Chinese", async ({ page, request, newTenant }) => {
  const t = await newTenant();
  await makeMenu(request, t, MENU_ZH);
  await openKitchen(page, t, "zh-CN");
  await page.getByRole("button", { name: "售罄" }).click();
  const panel = page.getByRole("dialog", { name: "售罄" });
  await expect(panel).toBeVisible();
  await expectAllInView(page, 40);
  await expect(page.getByTestId("sold-out-count")).toHaveText("没有售罄的菜品");
  const dish = panel.getByRole("button", { name: /^小笼包/ });
  await dish.click();
  await expect(dish).toHaveAttribute("aria-pressed", "true");
  await expect(dish).toContainText("已售罄");
  await expect(page.getByTestId("sold-out-status")).toHaveText("小笼包：已售罄");
  await expect(page.getByTestId("sold-out-count")).toHaveText("1 道菜已售罄");
  await page.screenshot({ path: "test-results/screenshots/kitchen-sold-out-zh-CN.png" });
});
