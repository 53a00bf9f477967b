/**
 * The kiosk a cashier expects (issue #25, item 5): an empty "Take order" spends no number
 * and "Number only" issues a bare one; Enter adds a line and Ctrl+Enter takes the order;
 * the total in the restaurant's currency on screen and ticket; a number-only kiosk; menu
 * and settings changes reach an open kiosk live; at 1024×768 nothing is covered.
 */
import type { APIRequestContext, Page } from "@playwright/test";
import type { TestTenant } from "../support/tenants";
import { expect, signIn, test } from "./fixtures";

const SHOTS = "test-results/screenshots";
test.use({ viewport: { width: 1024, height: 768 } });

const LABELS = {
  en: {
    take: "Take order",
    numberOnly: "Number only",
    next: "Next number",
    nextOrder: "Next order",
    total: "Total",
    soldOut: "Sold out",
    empty: "Nothing to take yet",
  },
  "zh-CN": { take: "下单", numberOnly: "仅取号", next: "下一个号码", nextOrder: "下一单", total: "合计", soldOut: "已售罄", empty: "还没有可下单的内容" },
} as const;

/** Dishes as each restaurant would name them (the screenshots show them). */
const DISHES = {
  en: {
    noodles: "Noodles",
    beef: "Beef noodles",
    danDan: "Dan dan noodles",
    wonton: "Wonton soup",
    cold: "Cold noodles",
    drinks: "Drinks",
    tea: "Jasmine tea",
    lemonade: "Lemonade",
    water: "Water",
    extra: "Extra chili oil",
  },
  "zh-CN": {
    noodles: "面食",
    beef: "红烧牛肉面",
    danDan: "担担面",
    wonton: "鲜肉馄饨",
    cold: "四川凉面",
    drinks: "饮品",
    tea: "茉莉花茶",
    lemonade: "柠檬水",
    water: "矿泉水",
    extra: "加辣油",
  },
} as const;

/** The manager's REST API, for what a second screen would do. */
function manager(request: APIRequestContext, t: TestTenant) {
  const headers = { authorization: `Bearer ${t.apiKeys.manager}` };
  return async <T = Record<string, unknown>>(method: "POST" | "PATCH" | "PUT", path: string, data: unknown): Promise<T> => {
    const res = await request.fetch(`/api/v1/orgs/${t.slug}/${path}`, { method, headers, data });
    expect(res.status(), `${method} ${path}: ${await res.text()}`).toBeLessThan(300);
    return (await res.json()) as T;
  };
}

/** A menu of `categories`, each `[name, [[item, priceCents | null], …]]`; the items' ids by name. */
async function seedMenu(request: APIRequestContext, t: TestTenant, categories: [string, [string, number | null][]][]) {
  const api = manager(request, t);
  const ids: Record<string, string> = {};
  for (const [name, items] of categories) {
    const category = await api<{ id: string }>("POST", "menu/categories", { name });
    for (const [item, priceCents] of items)
      ids[item] = (await api<{ id: string }>("POST", "menu/items", { categoryId: category.id, name: item, priceCents })).id;
  }
  return ids;
}

async function openKiosk(page: Page, t: TestTenant, locale: keyof typeof LABELS = "en") {
  await signIn(page, t.slug, "Cashier", t.staff.cashier);
  await page.goto(`/${t.slug}/kiosk?lang=${locale}`);
  await expect(page.locator("main")).toHaveAttribute("data-connection", "live");
  // A reload would lose this: the checks below prove changes arrive without one.
  await page.evaluate(() => ((window as unknown as { sameLoad: boolean }).sameLoad = true));
}
const sameLoad = (page: Page) => page.evaluate(() => (window as unknown as { sameLoad?: boolean }).sameLoad === true);

test("Take order with nothing entered is refused on screen and spends no number; Number only issues a bare number", async ({ page, newTenant }) => {
  const t = await newTenant();
  await openKiosk(page, t);
  await page.getByRole("button", { name: "Take order", exact: true }).click();
  await expect(page.getByTestId("order-error")).toHaveText(
    "Nothing to take yet: add an item or a note, or press “Number only” for a bare number. No number was used.",
  );
  await expect(page.getByTestId("issued-number")).toHaveCount(0);
  // Ctrl+Enter on the empty form: refused the same way.
  await page.keyboard.press("Control+Enter");
  await expect(page.getByTestId("issued-number")).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/kiosk-refused-en.png` });

  // Number only: a bare number, and it is 1 — the refusals spent none.
  await page.getByRole("button", { name: "Number only", exact: true }).click();
  await expect(page.getByTestId("issued-number")).toHaveText("1");
  await expect(page.getByTestId("ticket").first()).not.toContainText("×");
  await page.getByRole("button", { name: "Next order" }).click();

  // Number only with an item typed is refused (the item would be lost), nothing issued.
  await page.getByTestId("item-name-0").fill("Dumplings");
  await page.getByRole("button", { name: "Number only", exact: true }).click();
  await expect(page.getByTestId("order-error")).toContainText("This order has items or a note");
  await expect(page.getByTestId("issued-number")).toHaveCount(0);
  // A note alone is an order.
  await page.getByTestId("item-name-0").fill("");
  await page.getByLabel("Note").fill("Two coffees, paid at the bar");
  await expect(page.getByTestId("order-error")).toHaveCount(0);
  await page.getByRole("button", { name: "Take order", exact: true }).click();
  await expect(page.getByTestId("issued-number")).toHaveText("2");
});

test("keyboard: Enter adds a line and moves there, Enter never takes the order, Ctrl+Enter does", async ({ page, newTenant }) => {
  const t = await newTenant();
  await openKiosk(page, t);
  const take = page.getByRole("button", { name: "Take order", exact: true });
  await expect(take).toContainText("Ctrl+Enter");
  await expect(take).toHaveAttribute("aria-keyshortcuts", "Control+Enter Meta+Enter");

  await expect(page.getByTestId("item-name-0")).toBeFocused();
  // Enter in an empty field does nothing (no line, no order).
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("item-name-1")).toHaveCount(0);
  await page.keyboard.type("Dumplings");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("item-name-1")).toBeFocused();
  await page.keyboard.type("Rice");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("item-name-2")).toBeFocused();
  await expect(page.getByTestId("issued-number")).toHaveCount(0);
  // Enter in a quantity field does not take the order either.
  await page.getByLabel("Quantity").nth(1).fill("3");
  await page.getByLabel("Quantity").nth(1).press("Enter");
  await expect(page.getByTestId("issued-number")).toHaveCount(0);

  await page.getByTestId("item-name-2").focus();
  await page.keyboard.press("Control+Enter");
  await expect(page.getByTestId("issued-number")).toHaveText("1");
  const ticket = page.getByTestId("ticket").first();
  await expect(ticket).toContainText("1×Dumplings");
  await expect(ticket).toContainText("3×Rice");
  // Enter on the focused Next order, then straight on with the next order.
  await expect(page.getByRole("button", { name: "Next order" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("item-name-0")).toBeFocused();
  await page.keyboard.type("Tea");
  await page.keyboard.press("Control+Enter");
  await expect(page.getByTestId("issued-number")).toHaveText("2");
});

for (const locale of ["en", "zh-CN"] as const) {
  const L = LABELS[locale];
  test(`the total in the restaurant's currency on screen and ticket, the refusal, number-only mode (${locale})`, async ({ page, request, newTenant }) => {
    const t = await newTenant({ name: locale === "en" ? "Harbour Noodles" : "金龙面馆", floor: { currency: locale === "en" ? "EUR" : "CNY" } });
    const money = locale === "en" ? { beef: "€12.50", total: "€28.50" } : { beef: "¥12.50", total: "¥28.50" };
    const D = DISHES[locale];
    await seedMenu(request, t, [
      [
        D.noodles,
        [
          [D.beef, 1250],
          [D.danDan, 1100],
          [D.wonton, 900],
          [D.cold, 850],
        ],
      ],
      [
        D.drinks,
        [
          [D.tea, 350],
          [D.lemonade, 400],
          [D.water, null],
        ],
      ],
    ]);
    await openKiosk(page, t, locale);
    const buttons = page.getByTestId("menu-button");
    await expect(buttons.filter({ hasText: D.beef })).toContainText(money.beef);

    // The refusal, with the menu beside it.
    await page.getByRole("button", { name: L.take, exact: true }).click();
    await expect(page.getByTestId("order-error")).toContainText(L.empty);
    await page.screenshot({ path: `${SHOTS}/kiosk-refused-menu-${locale}.png` });

    await buttons.filter({ hasText: D.beef }).click();
    await buttons.filter({ hasText: D.beef }).click();
    await buttons.filter({ hasText: D.tea }).click();
    await page.getByTestId("item-name-0").fill(D.extra);
    // 2 × 12.50 + 3.50 = 28.50; the free-text line has no price and is said to be left out.
    await expect(page.getByTestId("order-total-amount")).toHaveText(money.total);
    await expect(page.getByTestId("order-total")).toContainText(locale === "en" ? "+ 1 item without a price" : "另有 1 项未标价");
    await expect(page.getByTestId("order-error")).toHaveCount(0);
    await page.screenshot({ path: `${SHOTS}/kiosk-total-${locale}.png` });

    await page.getByRole("button", { name: L.take, exact: true }).click();
    await expect(page.getByTestId("issued-number")).toHaveText("1");
    const ticket = page.getByTestId("ticket").first();
    await expect(ticket.getByTestId("ticket-total")).toContainText(L.total);
    await expect(ticket.getByTestId("ticket-total")).toContainText(money.total);
    await page.screenshot({ path: `${SHOTS}/kiosk-issued-total-${locale}.png` });
    // The printed ticket too.
    await page.emulateMedia({ media: "print" });
    const printed = page.getByTestId("print-root").getByTestId("ticket");
    await expect(printed.getByTestId("ticket-total")).toContainText(money.total);
    await printed.screenshot({ path: `${SHOTS}/kiosk-ticket-total-${locale}.png` });
    await page.emulateMedia({ media: "screen" });
    await page.getByRole("button", { name: L.nextOrder }).click();

    // The manager switches the kiosk to number only: the open kiosk follows, no reload.
    await manager(request, t)("PUT", "settings", { kioskNumberOnly: true });
    const next = page.getByRole("button", { name: L.next, exact: true });
    await expect(next).toBeVisible();
    await expect(page.getByTestId("menu-pad")).toHaveCount(0);
    expect(await sameLoad(page)).toBe(true);
    await page.screenshot({ path: `${SHOTS}/kiosk-number-only-${locale}.png` });
    await next.click();
    await expect(page.getByTestId("issued-number")).toHaveText("2");
    await expect(page.getByTestId("ticket").first().getByTestId("ticket-total")).toHaveCount(0);
  });
}

test("a number-only kiosk: one big Next number button, focused, Enter or a tap issues", async ({ page, newTenant }) => {
  const t = await newTenant({ floor: { kioskNumberOnly: true } });
  await openKiosk(page, t);
  const next = page.getByRole("button", { name: "Next number", exact: true });
  await expect(next).toBeFocused();
  await expect(page.getByTestId("item-name-0")).toHaveCount(0);
  const box = (await next.boundingBox())!;
  expect(box.height).toBeGreaterThanOrEqual(200);
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("issued-number")).toHaveText("1");
  await page.getByRole("button", { name: "Next order" }).click();
  await next.click();
  await expect(page.getByTestId("issued-number")).toHaveText("2");
  await page.getByRole("button", { name: "Next order" }).click();
  await expect(page.getByRole("button", { name: "Reprint last ticket" })).toBeVisible();
});

test("menu and settings changes reach an open kiosk live: sold out, a new dish, a price, the currency", async ({ page, request, newTenant }) => {
  const t = await newTenant();
  const ids = await seedMenu(request, t, [
    [
      "Noodles",
      [
        ["Beef noodles", 1250],
        ["Dan dan noodles", 1100],
      ],
    ],
  ]);
  await openKiosk(page, t);
  const buttons = page.getByTestId("menu-button");
  const danDan = buttons.filter({ hasText: "Dan dan noodles" });
  await expect(danDan).toBeEnabled();
  await danDan.click();

  const api = manager(request, t);
  await api("PATCH", `menu/items/${ids["Dan dan noodles"]}`, { available: false });
  await expect(danDan).toBeDisabled();
  await expect(danDan).toContainText("Sold out");
  // The line already in the order is flagged at once, before the cashier presses anything.
  await expect(page.getByTestId("order-line")).toContainText("Sold out");

  const category = await api<{ id: string }>("POST", "menu/categories", { name: "Drinks" });
  await api("POST", "menu/items", { categoryId: category.id, name: "Jasmine tea", priceCents: 300 });
  await expect(buttons.filter({ hasText: "Jasmine tea" })).toContainText("3.00");
  await api("PATCH", `menu/items/${ids["Beef noodles"]}`, { priceCents: 1390 });
  await expect(buttons.filter({ hasText: "Beef noodles" })).toContainText("13.90");
  await api("PUT", "settings", { currency: "USD" });
  await expect(buttons.filter({ hasText: "Beef noodles" })).toContainText("$13.90");
  expect(await sameLoad(page)).toBe(true);
});

for (const locale of ["en", "zh-CN"] as const) {
  test(`at 1024×768 every control is reachable and no sticky bar covers a field, Reprint last ticket included (${locale})`, async ({
    page,
    request,
    newTenant,
  }) => {
    const t = await newTenant({ floor: { currency: "EUR" } });
    await seedMenu(request, t, [
      [
        "Noodles",
        [
          ["Beef noodles", 1250],
          ["Dan dan noodles", 1100],
          ["Wonton soup", 900],
          ["Cold noodles", 850],
          ["Fried noodles", 1000],
        ],
      ],
      [
        "Rice",
        [
          ["Fried rice", 950],
          ["Curry rice", 1050],
          ["Egg rice", 700],
        ],
      ],
      [
        "Drinks",
        [
          ["Tea", 350],
          ["Lemonade", 400],
          ["Cola", 300],
          ["Water", null],
        ],
      ],
    ]);
    await openKiosk(page, t, locale);
    // A last ticket, so that Reprint shows; then a busy order: two menu lines, two typed lines, a note.
    await page.getByRole("button", { name: LABELS[locale].numberOnly, exact: true }).click();
    await page.getByRole("button", { name: LABELS[locale].nextOrder }).click();
    await page.getByTestId("menu-button").filter({ hasText: "Beef noodles" }).click();
    await page.getByTestId("menu-button").filter({ hasText: "Tea" }).click();
    await page.getByTestId("item-name-0").fill("Extra chili oil");
    await page.getByTestId("item-name-0").press("Enter");
    await page.getByTestId("item-name-1").fill("Spoon");
    await page.locator("#order-note").fill("Takeaway");
    await expect(page.getByTestId("reprint")).toBeVisible();

    const controls = page.locator("main").locator("button:visible, input:visible, textarea:visible, label:has(input.sr-only)");
    const count = await controls.count();
    expect(count).toBeGreaterThan(30);
    const covered: string[] = [];
    for (let i = 0; i < count; i++) {
      const control = controls.nth(i);
      await control.scrollIntoViewIfNeeded();
      const hit = await control.evaluate((el) => {
        const r = el.getBoundingClientRect();
        const x = r.left + r.width / 2;
        const y = r.top + r.height / 2;
        const top = document.elementFromPoint(x, y);
        const inView = x >= 0 && y >= 0 && x <= innerWidth && y <= innerHeight;
        return {
          ok: inView && !!top && (el === top || el.contains(top) || (el as HTMLInputElement).labels?.[0]?.contains(top) === true),
          what: el.outerHTML.slice(0, 90),
          top: top?.outerHTML.slice(0, 90) ?? null,
        };
      });
      if (!hit.ok) covered.push(`${hit.what} → ${hit.top}`);
    }
    expect(covered).toEqual([]);
    // Nothing on the kiosk sticks over the page any more.
    const sticky = await page.locator("main *").evaluateAll((els) => els.filter((el) => ["sticky", "fixed"].includes(getComputedStyle(el).position)).length);
    expect(sticky).toBe(0);
    await page.getByTestId("reprint").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/kiosk-1024x768-bottom-${locale}.png` });
  });
}

test("the manager sets the currency and number-only on the settings page; a bad code is refused in the page's language", async ({ page, newTenant }) => {
  const t = await newTenant();
  await signIn(page, t.slug, "Manager", t.staff.manager);
  await page.goto(`/${t.slug}/manager/settings?lang=zh-CN`);
  await page.getByLabel("菜单价格的货币").fill("xyz");
  await page.getByRole("button", { name: "保存设置" }).click();
  await expect(page.getByTestId("settings-error")).toHaveText("未知货币“XYZ”：请使用 ISO 4217 货币代码，例如 CNY、EUR 或 USD。");
  await page.getByLabel("菜单价格的货币").fill("cny");
  await page.getByLabel("点餐台仅取号").check();
  await page.getByRole("button", { name: "保存设置" }).click();
  await expect(page.getByTestId("settings-saved")).toBeVisible();
  await expect(page.getByLabel("菜单价格的货币")).toHaveValue("CNY");
  await expect(page.getByLabel("点餐台仅取号")).toBeChecked();
  await page.screenshot({ path: `${SHOTS}/manager-settings-kiosk-zh-CN.png` });

  await page.goto(`/${t.slug}/kiosk?lang=zh-CN`);
  await expect(page.getByRole("button", { name: "下一个号码", exact: true })).toBeVisible();
});
