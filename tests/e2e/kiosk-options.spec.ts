/**
 * A noodle-shop order at the kiosk (issue #41): a dish's options in a dialog, a note per
 * line, eat in or take away, with the mouse and with the keyboard, at 1024×768 in English
 * and Chinese. The order the server took (read back over REST) has the options, the note,
 * the service and the unit price with the options in it.
 */
import type { APIRequestContext, Page } from "@playwright/test";
import type { FloorSettings } from "@/lib/core/tenants";
import type { TestTenant } from "../support/tenants";
import { expect, signIn, test, type NewTenant } from "./fixtures";

const SHOTS = "test-results/screenshots";
test.use({ viewport: { width: 1024, height: 768 } });

const WORDS = {
  en: {
    restaurant: "Harbour Noodles",
    currency: "EUR",
    noodles: "Noodles",
    beef: "Beef noodles",
    danDan: "Dan dan noodles",
    drinks: "Drinks",
    tea: "Jasmine tea",
    size: ["Size", ["Small", 0], ["Medium", 100], ["Large", 200], ["Family", 500]],
    spice: ["Spice", ["Mild", 0], ["Medium hot", 0], ["Hot", 0], ["Extra spicy", 0]],
    extras: ["Extras", ["Egg", 100], ["More beef", 300], ["Tofu", 80], ["Bok choy", 50]],
    note: "no coriander",
    label: "Beef noodles · Large · Extra spicy",
    labelSmall: "Beef noodles · Small · Mild",
    take: "Take order",
    add: "Add",
    save: "Save",
    more: "One more",
    less: "One less",
    edit: "Edit",
    eatIn: "Eat in",
    takeAway: "Take away",
    missing: "Still to choose: Size and Spice.",
    chooseService: "Eat in or take away? Choose one, then press Take order. No number was used.",
    nextOrder: "Next order",
    lineNote: "Note: no coriander",
    money: (cents: number) => `€${(cents / 100).toFixed(2)}`,
  },
  "zh-CN": {
    restaurant: "金龙面馆",
    currency: "CNY",
    noodles: "面食",
    beef: "红烧牛肉面",
    danDan: "担担面",
    drinks: "饮品",
    tea: "茉莉花茶",
    size: ["份量", ["小份", 0], ["中份", 100], ["大份", 200], ["家庭份", 500]],
    spice: ["辣度", ["微辣", 0], ["中辣", 0], ["辣", 0], ["特辣", 0]],
    extras: ["加料", ["加蛋", 100], ["加牛肉", 300], ["加豆腐", 80], ["加青菜", 50]],
    note: "不要香菜",
    label: "红烧牛肉面 · 大份 · 特辣",
    labelSmall: "红烧牛肉面 · 小份 · 微辣",
    take: "下单",
    add: "加入",
    save: "保存",
    more: "加一份",
    less: "减一份",
    edit: "修改",
    eatIn: "堂食",
    takeAway: "外带",
    missing: "还需选择：份量和辣度。",
    chooseService: "堂食还是外带？请先选择一项，再按“下单”。未占用号码。",
    nextOrder: "下一单",
    lineNote: "备注：不要香菜",
    money: (cents: number) => `¥${(cents / 100).toFixed(2)}`,
  },
} as const;
type Locale = keyof typeof WORDS;
type Group = readonly [string, ...(readonly [string, number])[]];

const group = ([name, ...options]: Group, rule: { required: boolean; max?: number }) => ({
  name,
  ...rule,
  options: options.map(([option, priceCents]) => ({ name: option, priceCents })),
});

interface OrderJson {
  id: string;
  number: number;
  service: string | null;
  items: { name: string; qty: number; priceCents?: number; note?: string; options?: { group: string; name: string; priceCents: number }[] }[];
}

function api(request: APIRequestContext, t: TestTenant) {
  return async <T>(method: "GET" | "POST", path: string, data?: unknown): Promise<T> => {
    const res = await request.fetch(`/api/v1/orgs/${t.slug}/${path}`, { method, headers: { authorization: `Bearer ${t.apiKeys.manager}` }, data });
    expect(res.status(), `${method} ${path}: ${await res.text()}`).toBeLessThan(300);
    return (await res.json()) as T;
  };
}

/** A noodle shop: Size shared by the noodles category; Spice and Extras of the beef noodles' own; tea without options. */
async function noodleShop(request: APIRequestContext, newTenant: NewTenant, locale: Locale, floor: Partial<FloorSettings>) {
  const W = WORDS[locale];
  const t = await newTenant({ name: W.restaurant, floor: { currency: W.currency, ...floor } });
  const call = api(request, t);
  const noodles = await call<{ id: string }>("POST", "menu/categories", { name: W.noodles, optionGroups: [group(W.size, { required: true })] });
  await call("POST", "menu/items", {
    categoryId: noodles.id,
    name: W.beef,
    priceCents: 1250,
    optionGroups: [group(W.spice, { required: true }), group(W.extras, { required: false, max: 4 })],
  });
  await call("POST", "menu/items", { categoryId: noodles.id, name: W.danDan, priceCents: 1100 });
  const drinks = await call<{ id: string }>("POST", "menu/categories", { name: W.drinks });
  await call("POST", "menu/items", { categoryId: drinks.id, name: W.tea, priceCents: 350 });
  return t;
}

async function openKiosk(page: Page, t: TestTenant, locale: Locale) {
  await signIn(page, t.slug, "Cashier", t.staff.cashier);
  await page.goto(`/${t.slug}/kiosk?lang=${locale}`);
  await expect(page.locator("main")).toHaveAttribute("data-connection", "live");
}

/** The order a number was issued for, as the REST API has it. */
async function takenOrder(request: APIRequestContext, t: TestTenant, page: Page): Promise<OrderJson> {
  const number = Number(await page.getByTestId("issued-number").textContent());
  const { orders } = await api(request, t)<{ orders: OrderJson[] }>("GET", "orders?status=PLACED");
  const order = orders.find((o) => o.number === number);
  expect(order, `order ${number}`).toBeDefined();
  return api(request, t)<OrderJson>("GET", `orders/${order!.id}`);
}

const menuButton = (page: Page, name: string) => page.getByTestId("menu-button").filter({ hasText: name });

for (const locale of ["en", "zh-CN"] as const) {
  const W = WORDS[locale];
  test(`with the mouse: Beef noodles, Large, Extra spicy, no coriander — take away (${locale})`, async ({ page, request, newTenant }) => {
    const t = await noodleShop(request, newTenant, locale, { askService: "ask" });
    await openKiosk(page, t, locale);
    const chooser = page.getByTestId("option-chooser");

    // A dish without options goes straight into the order.
    await menuButton(page, W.tea).click();
    await expect(chooser).toHaveCount(0);
    await expect(page.getByTestId("order-line")).toHaveCount(1);

    await menuButton(page, W.beef).click();
    await expect(chooser).toBeVisible();
    await expect(chooser.getByRole("heading")).toHaveText(W.beef);
    // The category's Size first, then the dish's own groups; each option with its extra price.
    await expect(chooser.locator("legend")).toHaveText([new RegExp(`^${W.size[0]}`), new RegExp(`^${W.spice[0]}`), new RegExp(`^${W.extras[0]}`)]);
    await expect(chooser.locator("label").filter({ hasText: W.size[3][0] })).toContainText(`+${W.money(200)}`);
    // Nothing fits below the dialog's fold: 3 groups × 4 options, the note and the buttons at 1024×768.
    const box = (await chooser.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(768);
    expect(await chooser.evaluate((d) => d.scrollHeight <= d.clientHeight)).toBe(true);

    // Add with a required group unanswered: refused, naming what is missing.
    await chooser.getByTestId("chooser-add").click();
    await expect(chooser.getByTestId("chooser-missing")).toHaveText(W.missing);
    await chooser.getByText(W.size[3][0], { exact: true }).click();
    await chooser.getByText(W.spice[4][0], { exact: true }).click();
    await chooser.getByRole("textbox").fill(W.note);
    await expect(chooser.getByTestId("chooser-missing")).toHaveCount(0);
    await expect(chooser.getByTestId("chooser-add")).toContainText(W.money(1450));
    await chooser.getByRole("button", { name: W.more, exact: true }).click();
    await expect(chooser.getByTestId("chooser-add")).toContainText(W.money(2900));
    await chooser.getByRole("button", { name: W.less, exact: true }).click();
    await page.screenshot({ path: `${SHOTS}/kiosk-options-chooser-${locale}.png` });
    await chooser.getByTestId("chooser-add").click();
    await expect(chooser).toHaveCount(0);

    // The same dish with other options is another line.
    await menuButton(page, W.beef).click();
    await chooser.getByText(W.size[1][0], { exact: true }).click();
    await chooser.getByText(W.spice[1][0], { exact: true }).click();
    await chooser.getByTestId("chooser-add").click();
    const lines = page.getByTestId("order-line");
    await expect(lines).toHaveCount(3);
    await expect(lines.getByTestId("order-line-label")).toHaveText([W.tea, W.label, W.labelSmall]);
    await expect(lines.nth(1).getByTestId("order-line-note")).toHaveText(W.lineNote);
    await expect(lines.nth(1).getByTestId("order-line-price")).toHaveText(W.money(1450));
    await expect(menuButton(page, W.beef)).toContainText("×2");
    // 3.50 + 14.50 + 12.50
    await expect(page.getByTestId("order-total-amount")).toHaveText(W.money(3050));

    // Edited: the small bowl gets Egg; then it is removed from the dialog.
    await lines.nth(2).getByRole("button", { name: W.edit }).click();
    await chooser.getByText(W.extras[1][0], { exact: true }).click();
    await chooser.getByRole("button", { name: W.save }).click();
    await expect(lines.nth(2).getByTestId("order-line-label")).toHaveText(`${W.labelSmall} · ${W.extras[1][0]}`);
    await expect(page.getByTestId("order-total-amount")).toHaveText(W.money(3150));
    await page.getByTestId("order-list").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/kiosk-options-order-list-${locale}.png` });
    await lines.nth(2).getByRole("button", { name: W.edit }).click();
    await chooser.getByRole("button", { name: locale === "en" ? "Remove" : "删除", exact: true }).click();
    await expect(lines).toHaveCount(2);

    // The restaurant asks: no order without eat in or take away, and no number spent.
    await page.getByRole("button", { name: W.take, exact: true }).click();
    await expect(page.getByTestId("order-error")).toHaveText(W.chooseService);
    await expect(page.getByTestId("issued-number")).toHaveCount(0);
    await page.getByText(W.takeAway, { exact: true }).click();
    await expect(page.getByTestId("order-error")).toHaveCount(0);
    await page.getByTestId("service-choice").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/kiosk-options-service-${locale}.png` });
    await page.getByRole("button", { name: W.take, exact: true }).click();
    await expect(page.getByTestId("issued-number")).toHaveText("1");

    const order = await takenOrder(request, t, page);
    expect(order.service).toBe("takeAway");
    expect(order.items).toEqual([
      { name: W.tea, qty: 1, menuItemId: expect.any(String), priceCents: 350 },
      {
        name: W.beef,
        qty: 1,
        menuItemId: expect.any(String),
        priceCents: 1450,
        options: [
          { group: W.size[0], name: W.size[3][0], priceCents: 200 },
          { group: W.spice[0], name: W.spice[4][0], priceCents: 0 },
        ],
        note: W.note,
      },
    ]);

    // The next order is asked again.
    await page.getByRole("button", { name: W.nextOrder }).click();
    await expect(page.getByRole("radio", { name: W.takeAway })).not.toBeChecked();
    await expect(page.getByRole("radio", { name: W.eatIn })).not.toBeChecked();
  });
}

test("with the keyboard: Enter opens the dish, digits choose, Tab to the note, Enter adds, Esc cancels; the device remembers take away", async ({
  page,
  request,
  newTenant,
}) => {
  const W = WORDS.en;
  const t = await noodleShop(request, newTenant, "en", { askService: "remember" });
  await openKiosk(page, t, "en");
  const chooser = page.getByTestId("option-chooser");
  const beef = menuButton(page, W.beef);

  // Esc cancels: nothing added, focus back on the dish.
  await beef.focus();
  await page.keyboard.press("Enter");
  await expect(chooser).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(chooser).toHaveCount(0);
  await expect(page.getByTestId("order-line")).toHaveCount(0);
  await expect(beef).toBeFocused();

  await page.keyboard.press("Enter");
  await expect(chooser.getByRole("radio", { name: "Small" })).toBeFocused();
  // 3: Large, and on to Spice; 4: Extra spicy, and on to Extras; Tab: the note.
  await page.keyboard.press("3");
  await expect(chooser.getByRole("radio", { name: "Mild" })).toBeFocused();
  await page.keyboard.press("4");
  await expect(chooser.getByRole("checkbox", { name: "Egg" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(chooser.getByRole("textbox")).toBeFocused();
  await page.keyboard.type(W.note);
  // Focus stays in the dialog: past Add it comes back to the first group.
  await chooser.getByTestId("chooser-add").focus();
  await page.keyboard.press("Tab");
  await expect(chooser.getByRole("radio", { name: "Large" })).toBeFocused();
  await page.keyboard.press("Shift+Tab");
  await expect(chooser.getByTestId("chooser-add")).toBeFocused();
  await chooser.getByRole("textbox").focus();
  // Ctrl+Enter (the kiosk's "Take order") in the dialog adds the dish, as Enter does; it takes no order.
  await page.keyboard.press("Control+Enter");
  await expect(chooser).toHaveCount(0);
  await expect(page.getByTestId("issued-number")).toHaveCount(0);
  await expect(page.getByTestId("order-line-label")).toHaveText([W.label]);
  await expect(beef).toBeFocused();

  // A device that never chose starts from the restaurant's default (eat in).
  await expect(page.getByRole("radio", { name: W.eatIn })).toBeChecked();
  // Take away by keyboard: Tab to the service's radios, an arrow to choose; Ctrl+Enter takes the order.
  for (let i = 0; i < 30 && !(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name === "service")); i++)
    await page.keyboard.press("Tab");
  await expect(page.getByRole("radio", { name: W.eatIn })).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("radio", { name: W.takeAway })).toBeChecked();
  await page.keyboard.press("Control+Enter");
  await expect(page.getByTestId("issued-number")).toHaveText("1");
  const order = await takenOrder(request, t, page);
  expect(order.service).toBe("takeAway");
  expect(order.items[0]).toMatchObject({ name: W.beef, priceCents: 1450, note: W.note, options: [{ name: "Large" }, { name: "Extra spicy" }] });

  // "Remember": the next order, and this device after a reload, start from take away.
  await page.keyboard.press("Enter");
  await expect(page.getByRole("radio", { name: W.takeAway })).toBeChecked();
  await page.reload();
  await expect(page.getByRole("radio", { name: W.takeAway })).toBeChecked();
});

test("a restaurant that does not ask: no service buttons, none sent; a typed line's note reaches the order", async ({ page, request, newTenant }) => {
  const W = WORDS.en;
  const t = await noodleShop(request, newTenant, "en", {});
  await openKiosk(page, t, "en");
  await expect(page.getByTestId("service-choice")).toHaveCount(0);
  await page.getByTestId("item-name-0").fill("Spring rolls");
  await page.getByRole("button", { name: "+ Note" }).click();
  await expect(page.getByLabel("Note for item 1")).toBeFocused();
  await page.keyboard.type("cut in half");
  await menuButton(page, W.tea).click();
  await page.getByRole("button", { name: W.take, exact: true }).click();
  await expect(page.getByTestId("issued-number")).toHaveText("1");
  const order = await takenOrder(request, t, page);
  expect(order.service).toBeNull();
  expect(order.items).toEqual([
    { name: W.tea, qty: 1, menuItemId: expect.any(String), priceCents: 350 },
    { name: "Spring rolls", qty: 1, note: "cut in half" },
  ]);
});
