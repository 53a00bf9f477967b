/**
 * The menu in a real browser: a manager builds it in the console, the kiosk shows it as
 * big buttons (tap adds one, − / + change the quantity), the order's ticket and the
 * kitchen show the item names, and an item marked sold out can no longer be added.
 */
import { expect, signIn, test } from "./fixtures";

test.use({ viewport: { width: 1024, height: 768 } });

test("a manager builds a menu; the kiosk takes an order from its buttons; sold out stops an item", async ({ page, browser, baseURL, newTenant }) => {
  const t = await newTenant({ name: "Menu House" });

  // The manager's console: a category and three items, one of them with a price.
  await signIn(page, t.slug, "Manager", t.staff.manager);
  await page.goto(`/${t.slug}/manager/menu?lang=en`);
  await expect(page.getByRole("heading", { name: "Menu", level: 1 })).toBeVisible();
  await page.getByLabel("Category name").fill("Noodles");
  await page.getByLabel("Category name").press("Enter");
  const noodles = page.getByRole("region", { name: "Noodles" });
  await expect(noodles).toBeVisible();

  for (const [name, price] of [
    ["Beef noodles", "12.50"],
    ["Dan dan noodles", ""],
    ["Wonton soup", "9"],
  ] as const) {
    await noodles.getByLabel("Item name").fill(name);
    await noodles.getByLabel("Price (optional)").fill(price);
    await noodles.getByRole("button", { name: "Add item" }).click();
    await expect(noodles.getByRole("status")).toHaveText(`“${name}” added.`);
  }
  await expect(noodles.getByLabel("Price of “Beef noodles”")).toHaveValue("12.50");
  // A duplicate is refused on screen.
  await noodles.getByLabel("Item name").fill("beef noodles");
  await noodles.getByRole("button", { name: "Add item" }).click();
  await expect(noodles.getByRole("alert")).toContainText("already has an item named");
  // Reordered: Wonton soup moves above Dan dan noodles.
  await noodles.getByRole("button", { name: "Move “Wonton soup” up" }).click();
  await expect(noodles.getByTestId("menu-item").nth(1).getByLabel("Name of “Wonton soup”")).toBeVisible();
  // Each column's header sits above its own column.
  for (const [head, control] of [
    ["Item", "Name of “Beef noodles”"],
    ["Price", "Price of “Beef noodles”"],
  ] as const) {
    const h = (await noodles.getByRole("columnheader", { name: head }).boundingBox())!;
    const c = (await noodles.getByLabel(control).boundingBox())!;
    expect(c.x + c.width / 2).toBeGreaterThan(h.x);
    expect(c.x + c.width / 2).toBeLessThan(h.x + h.width);
  }
  for (const [head, name] of [
    ["Sold out", /^Beef noodles/],
    ["Order and delete", "Save “Beef noodles”"],
  ] as const) {
    const h = (await noodles.getByRole("columnheader", { name: head }).boundingBox())!;
    const c = (await noodles.getByRole("button", { name }).boundingBox())!;
    expect(c.x + c.width / 2).toBeGreaterThan(h.x);
    expect(c.x + c.width / 2).toBeLessThan(h.x + h.width);
  }
  await page.screenshot({ path: "test-results/screenshots/manager-menu-en.png" });

  // The kiosk: big buttons, taps add, − / + change quantities.
  const kioskContext = await browser.newContext({ baseURL, viewport: { width: 1024, height: 768 } });
  const kiosk = await kioskContext.newPage();
  await signIn(kiosk, t.slug, "Cashier", t.staff.cashier);
  await kiosk.goto(`/${t.slug}/kiosk?lang=en`);
  // The keyboard path is intact: the first free-text field still has focus.
  await expect(kiosk.getByTestId("item-name-0")).toBeFocused();
  // Its example is a dish of this restaurant's own menu.
  await expect(kiosk.getByTestId("item-name-0")).toHaveAttribute("placeholder", "e.g. Beef noodles");
  const buttons = kiosk.getByTestId("menu-button");
  await expect(buttons).toHaveCount(3);
  await expect(buttons.nth(1)).toContainText("Wonton soup");
  for (const box of await Promise.all((await buttons.all()).map((b) => b.boundingBox()))) {
    // Large touch targets that fit the screen's width.
    expect(box!.height).toBeGreaterThanOrEqual(64);
    expect(box!.width).toBeGreaterThanOrEqual(120);
    expect(box!.x + box!.width).toBeLessThanOrEqual(1024);
  }
  const beef = buttons.filter({ hasText: "Beef noodles" });
  await expect(beef).toContainText("12.50");
  await beef.click();
  await beef.click();
  await buttons.filter({ hasText: "Wonton soup" }).click();
  const lines = kiosk.getByTestId("order-line");
  await expect(lines).toHaveCount(2);
  await expect(kiosk.getByLabel("Quantity of Beef noodles")).toHaveText("2");
  await kiosk.getByRole("button", { name: "One more Beef noodles" }).click();
  await expect(kiosk.getByLabel("Quantity of Beef noodles")).toHaveText("3");
  await kiosk.getByRole("button", { name: "One less Wonton soup" }).click();
  await expect(lines).toHaveCount(1);
  await buttons.filter({ hasText: "Dan dan noodles" }).click();
  // Free text still works for anything else.
  await kiosk.getByTestId("item-name-0").fill("Extra chili oil");
  await kiosk.screenshot({ path: "test-results/screenshots/kiosk-menu-en.png" });
  await kiosk.getByRole("button", { name: "Take order" }).click();
  await expect(kiosk.getByTestId("issued-number")).toHaveText("1");
  const ticket = kiosk.getByTestId("ticket").first();
  await expect(ticket).toContainText("3×Beef noodles");
  await expect(ticket).toContainText("1×Dan dan noodles");
  await expect(ticket).toContainText("1×Extra chili oil");

  // The kitchen sees the names.
  const kitchenContext = await browser.newContext({ baseURL });
  const kitchen = await kitchenContext.newPage();
  await signIn(kitchen, t.slug, "Kitchen", t.staff.kitchen);
  await expect(kitchen.getByTestId("order-1")).toContainText("Beef noodles");
  await expect(kitchen.getByTestId("order-1")).toContainText("Dan dan noodles");
  await kitchenContext.close();

  // The manager marks Dan dan noodles sold out (one tap); the kiosk can no longer add it.
  await kiosk.getByRole("button", { name: "Next order" }).click();
  await buttons.filter({ hasText: "Dan dan noodles" }).click();
  await expect(kiosk.getByTestId("order-line")).toHaveCount(1);
  const danDanToggle = noodles.getByRole("button", { name: /^Dan dan noodles/ });
  await danDanToggle.click();
  await expect(danDanToggle).toHaveAttribute("aria-pressed", "true");
  await expect(noodles.getByTestId("menu-item").filter({ hasText: "Sold out" })).toHaveCount(1);
  // Undo puts it back on sale (saved: a reload shows it), and one more tap sells it out again.
  await noodles.getByRole("button", { name: "Undo the last change to “Dan dan noodles”" }).click();
  await expect(danDanToggle).toHaveAttribute("aria-pressed", "false");
  await expect(danDanToggle).toBeFocused();
  await page.reload();
  await expect(danDanToggle).toHaveAttribute("aria-pressed", "false");
  await expect(noodles.getByRole("button", { name: /Undo/ })).toHaveCount(0);
  await danDanToggle.press("Enter");
  await expect(danDanToggle).toHaveAttribute("aria-pressed", "true");

  // Taking the order now is refused with the reason, and no number is spent.
  await kiosk.getByRole("button", { name: "Take order" }).click();
  await expect(kiosk.locator("#order-error")).toContainText("Dan dan noodles is sold out");
  // The kiosk re-read the menu: the button is disabled and says so; the line is flagged.
  const danDan = buttons.filter({ hasText: "Dan dan noodles" });
  await expect(danDan).toBeDisabled();
  await expect(danDan).toContainText("Sold out");
  await expect(kiosk.getByTestId("order-line")).toContainText("Sold out");
  await kiosk.getByRole("button", { name: "One less Dan dan noodles" }).click();
  await buttons.filter({ hasText: "Beef noodles" }).click();
  await kiosk.getByRole("button", { name: "Take order" }).click();
  await expect(kiosk.getByTestId("issued-number")).toHaveText("2");
  await kioskContext.close();
});

test("the menu console in Chinese", async ({ page, newTenant }) => {
  const t = await newTenant();
  await signIn(page, t.slug, "Manager", t.staff.manager);
  await page.goto(`/${t.slug}/manager/menu?lang=zh-CN`);
  await expect(page.getByRole("heading", { name: "菜单", level: 1 })).toBeVisible();
  await page.getByLabel("分类名称").fill("面食");
  await page.getByRole("button", { name: "添加分类" }).click();
  const section = page.getByRole("region", { name: "面食" });
  await section.getByLabel("菜品名称").fill("牛肉面");
  await section.getByLabel("价格").fill("abc");
  await section.getByRole("button", { name: "添加菜品" }).click();
  await expect(section.getByRole("alert")).toHaveText("价格必须是数字，例如 12 或 12.50（不填表示无价格）。");
  await section.getByLabel("价格").fill("");
  await section.getByRole("button", { name: "添加菜品" }).click();
  await expect(section.getByRole("status")).toHaveText("已添加“牛肉面”。");
  await page.screenshot({ path: "test-results/screenshots/manager-menu-zh-CN.png" });
  // The kiosk (cashier) shows it as a button, in Chinese, at its real size.
  const kioskContext = await page
    .context()
    .browser()!
    .newContext({ baseURL: new URL(page.url()).origin, viewport: { width: 1024, height: 768 } });
  const kiosk = await kioskContext.newPage();
  await signIn(kiosk, t.slug, "Cashier", t.staff.cashier);
  await kiosk.goto(`/${t.slug}/kiosk?lang=zh-CN`);
  await kiosk
    .getByRole("button", { name: /牛肉面/ })
    .first()
    .click();
  await expect(kiosk.getByRole("button", { name: /牛肉面/ }).first()).toContainText("×1");
  await kiosk.screenshot({ path: "test-results/screenshots/kiosk-menu-zh-CN.png" });
  await kioskContext.close();
  // Deleting a category with items asks first.
  await section.getByRole("button", { name: "删除分类“面食”" }).click();
  await section.getByRole("button", { name: "是，连同菜品一起删除" }).click();
  await expect(page.getByRole("region", { name: "面食" })).toHaveCount(0);
});
