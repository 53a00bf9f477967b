/**
 * The console's admin pages in Chromium: a settings change shows up on the screens, a
 * rotated code signs nobody in with the old one (and ends that role's sessions), API
 * keys are shown once and revoked, the audit log lists each change; axe on the pages in
 * both languages.
 */
import { seriousAxeViolations } from "./axe";
import { LOCALES } from "@/lib/core/locales";
import { expect, signIn, test } from "./fixtures";
import { keySecret } from "../support/api-keys";

test("a settings change shows up on the screens and in the audit log; a bad one is refused and keeps what was typed", async ({
  page,
  browser,
  baseURL,
  newTenant,
}) => {
  const t = await newTenant({ name: "Settings Bistro" });
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, t.slug, "Manager", t.staff.manager);
  await page.goto(`/${t.slug}/manager/settings`);
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
  await expect(page.getByLabel("Restaurant name")).toHaveValue("Settings Bistro");

  // A misspelt time zone cannot be chosen: the list finds nothing and keeps the zone.
  await page.getByLabel("Restaurant name").fill("Renamed Bistro");
  const zone = page.getByLabel("Time zone", { exact: true });
  await expect(zone).toHaveValue("Europe/Berlin");
  await page.getByLabel("Filter by city or region").fill("Asia/Shangai");
  await expect(page.getByTestId("timezone-matches")).toHaveText("No time zone matches “Asia/Shangai”: still Europe/Berlin.");
  await expect(zone).toHaveValue("Europe/Berlin");
  await expect(page.getByTestId("day-rule-change")).toHaveText("");
  // Typing a city picks its zone; the day-rule note follows the list.
  await page.getByLabel("Filter by city or region").fill("shanghai");
  await expect(zone).toHaveValue("Asia/Shanghai");
  await expect(page.getByTestId("day-rule-change")).toContainText("business day");

  // Bad: the same time twice. Refused on screen, nothing saved, the typing kept; the error goes once the time is changed.
  await page.getByRole("button", { name: "Add a shift start" }).click();
  await page.getByLabel("Shift start 1", { exact: true }).fill("17:00");
  await page.getByRole("button", { name: "Add a shift start" }).click();
  await page.getByLabel("Shift start 2", { exact: true }).fill("17:00");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByTestId("settings-error")).toHaveText("Shift schedule: each time may appear only once.");
  await expect(page.getByLabel("Restaurant name")).toHaveValue("Renamed Bistro");
  await page.getByLabel("Shift start 2", { exact: true }).fill("11:00");
  await expect(page.getByTestId("settings-error")).toHaveCount(0);
  await page.screenshot({ path: "test-results/screenshots/console-settings-en.png" });

  await page.getByLabel("Ready numbers leave the board after (minutes)").fill("7");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByTestId("settings-saved")).toHaveText("Settings saved.");
  // Saved sorted; the confirmation fades after a few seconds.
  await expect(page.getByLabel("Shift start 1", { exact: true })).toHaveValue("11:00");
  await expect(page.getByLabel("Shift start 2", { exact: true })).toHaveValue("17:00");
  await expect(page.getByTestId("settings-saved")).toHaveCount(0, { timeout: 10_000 });
  // The staff bar names the restaurant by its new name at once, and after a reload.
  await expect(page.getByRole("banner")).toContainText("Renamed Bistro");
  await page.reload();
  await expect(page.getByLabel("Ready numbers leave the board after (minutes)")).toHaveValue("7");
  await expect(zone).toHaveValue("Asia/Shanghai");
  // Removing a row takes its time out of the schedule.
  await page.getByRole("button", { name: "Remove shift start 2 (17:00)" }).click();
  await expect(page.getByLabel("Shift start 2", { exact: true })).toHaveCount(0);
  await page.goto(`/${t.slug}/manager/settings?lang=zh-CN`);
  await expect(page.getByLabel("班次开始时间 2", { exact: true })).toHaveValue("17:00");
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: "test-results/screenshots/console-settings-zh-CN.png" });
  await page.goto(`/${t.slug}/manager/settings?lang=en`);
  // The overview lists today's slots as they stand.
  await page.goto(`/${t.slug}/manager`);
  await expect(page.getByTestId("slot-11:00")).toBeVisible();
  await expect(page.getByTestId("slot-17:00")).toBeVisible();

  // The public board shows the new name too.
  const other = await browser.newContext({ baseURL });
  const board = await other.newPage();
  await board.goto(`/${t.slug}/board?lang=en`);
  await expect(board.getByText("Renamed Bistro").first()).toBeVisible();
  await other.close();

  await page.goto(`/${t.slug}/manager/audit`);
  const log = page.getByTestId("audit-log");
  await expect(log.getByRole("row").nth(1)).toContainText("Settings changed");
  await expect(log.getByRole("row").nth(1)).toContainText("Name Settings Bistro → Renamed Bistro");
  await expect(log.getByRole("row").nth(1)).toContainText("Ready numbers leave the board after 10 → 7 minutes");
  await expect(log.getByRole("row").nth(1)).toContainText("Shift schedule none → 11:00, 17:00");
  await expect(log.getByRole("row").nth(1)).toContainText("Time zone Europe/Berlin → Asia/Shanghai");
  await expect(log.getByRole("row")).toHaveCount(2);
  await page.screenshot({ path: "test-results/screenshots/manager-audit-changed-en.png", fullPage: true });
});

test("a rotated code is shown once, signs nobody in with the old one and ends that role's sessions", async ({ page, browser, baseURL, newTenant }) => {
  const t = await newTenant({ name: "Rotation Diner" });
  // A kitchen tablet, signed in with the old code.
  const tablet = await browser.newContext({ baseURL });
  const kitchen = await tablet.newPage();
  await signIn(kitchen, t.slug, "Kitchen", t.staff.kitchen);
  await expect(kitchen).toHaveURL(new RegExp(`/${t.slug}/kitchen`));

  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, t.slug, "Manager", t.staff.manager);
  await page.goto(`/${t.slug}/manager/access`);
  const card = page.getByTestId("rotate-KITCHEN");
  await card.getByRole("button", { name: "New code for Kitchen…" }).click();
  await expect(card).toContainText("everyone signed in as Kitchen is signed out");
  await card.getByRole("button", { name: "Yes, new code for Kitchen" }).click();
  const box = page.getByTestId("new-code-KITCHEN");
  await expect(box).toHaveText(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
  await expect(card).toContainText("Shown once");
  const code = (await box.textContent())!;
  expect(code).not.toBe(t.staff.kitchen);

  // Never shown again.
  await page.reload();
  await expect(page.getByTestId("new-code-KITCHEN")).toHaveCount(0);
  await expect(page.getByText(code)).toHaveCount(0);

  // The open kitchen screen says so by itself within seconds, never "Signed in as Kitchen"
  // with failing buttons, and offers the way back in its language.
  await expect(kitchen.getByTestId("signed-out")).toHaveText("Signed out", { timeout: 15_000 });
  await expect(kitchen.getByRole("alertdialog")).toContainText("Signed out — sign in again");
  await expect(kitchen.getByText("Signed in as Kitchen")).toHaveCount(0);
  await expect(kitchen.getByTestId("sign-in-again")).toHaveAttribute("href", `/${t.slug}/sign-in?next=%2F${t.slug}%2Fkitchen&lang=en`);
  await kitchen.setViewportSize({ width: 1280, height: 800 });
  await kitchen.screenshot({ path: "test-results/screenshots/kitchen-signed-out-en.png" });

  // The tablet's session has ended; the old code signs nobody in; the new one does.
  await kitchen.goto(`/${t.slug}/kitchen`);
  await expect(kitchen).toHaveURL(/\/sign-in/);
  await signIn(kitchen, t.slug, "Kitchen", t.staff.kitchen);
  await expect(kitchen.getByTestId("sign-in-error")).toHaveText("Wrong sign-in code for this role.");
  await signIn(kitchen, t.slug, "Kitchen", code);
  await expect(kitchen).toHaveURL(new RegExp(`/${t.slug}/kitchen`));
  await tablet.close();

  // The manager's own session is untouched by a kitchen rotation.
  await page.goto(`/${t.slug}/manager/audit`);
  const row = page.getByTestId("audit-log").getByRole("row").nth(1);
  await expect(row).toContainText("Sign-in code changed");
  await expect(row).toContainText("New sign-in code for Kitchen");
  await expect(row).toContainText("Manager (staff)");
  await expect(page.getByTestId("audit-log")).not.toContainText(code);
});

test("an API key is shown once, listed by prefix, and refused once revoked", async ({ page, newTenant, request }) => {
  const t = await newTenant({ name: "Key Kitchen" });
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, t.slug, "Manager", t.staff.manager);
  await page.goto(`/${t.slug}/manager/access`);
  await page.getByLabel("What the key is for").fill("Delivery app");
  await page.getByLabel("Role", { exact: true }).selectOption("CASHIER");
  await page.getByRole("button", { name: "Create key" }).click();
  const key = (await page.getByTestId("new-key").textContent())!;
  expect(key).toMatch(/^nxu_csh_[0-9a-f]{16}_/);
  // The form is empty again, ready for the next key; the key copies with one click.
  await expect(page.getByLabel("What the key is for")).toHaveValue("");
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.getByRole("button", { name: "Copy" }).click();
  await expect(page.getByTestId("new-key-copied")).toHaveText("Copied.");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  // No stretched empty boxes beside a shown code: each card is as tall as what it holds.
  await page.getByTestId("rotate-CASHIER").getByRole("button", { name: "New code for Cashier…" }).click();
  await page.getByRole("button", { name: "Yes, new code for Cashier" }).click();
  await expect(page.getByTestId("new-code-CASHIER")).toBeVisible();
  const heights = await Promise.all(["CASHIER", "KITCHEN"].map(async (r) => (await page.getByTestId(`rotate-${r}`).boundingBox())!.height));
  expect(heights[1]).toBeLessThan(heights[0]! / 2);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: "test-results/screenshots/console-access-en.png" });
  await page.setViewportSize({ width: 1280, height: 900 });
  const prefix = key.split("_")[2]!;
  const use = () => request.get(`/api/v1/orgs/${t.slug}/orders`, { headers: { authorization: `Bearer ${key}` } });
  expect((await use()).status()).toBe(200);

  const row = page.getByTestId(`key-${prefix}`);
  await expect(row).toContainText("Delivery app");
  await expect(row).toContainText("Active");
  await page.reload();
  await expect(page.getByTestId("new-key")).toHaveCount(0);
  await expect(page.locator("body")).not.toContainText(keySecret(key));

  await row.getByRole("button", { name: "Revoke" }).click();
  await row.getByRole("button", { name: 'Confirm: revoke "Delivery app"' }).click();
  await expect(page.getByRole("status")).toContainText('Key "Delivery app" revoked');
  await expect(row).toContainText("Revoked");
  expect((await use()).status()).toBe(401);

  await page.goto(`/${t.slug}/manager/audit`);
  const rows = page.getByTestId("audit-log").getByRole("row");
  await expect(rows.nth(1)).toContainText("API key revoked");
  // Between them, the cashier code rotated above.
  await expect(rows.nth(2)).toContainText("New sign-in code for Cashier");
  await expect(rows.nth(3)).toContainText("API key created");
  await expect(rows.nth(3)).toContainText(`API key “Delivery app” created (Cashier, ${prefix}…)`);
});

for (const locale of LOCALES) {
  test(`the menu, settings, access and audit pages pass axe in ${locale}`, async ({ page, newTenant }) => {
    const t = await newTenant({ name: locale === "en" ? "Axe Admin" : "斧头管理" });
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, t.slug, "Manager", t.staff.manager);
    for (const section of ["menu", "settings", "access", "audit"]) {
      await page.goto(`/${t.slug}/manager/${section}?lang=${locale}`);
      await expect(page.locator("html")).toHaveAttribute("lang", locale);
      await expect(page).toHaveTitle(/\S/);
      const bad = await seriousAxeViolations(page);
      await page.screenshot({ path: `test-results/screenshots/manager-${section}-${locale}.png`, fullPage: true });
      expect(bad, `${section} (${locale})`).toEqual([]);
    }
  });
}

test("a screen signed out elsewhere says so in its own language, with the way back to sign in", async ({ browser, baseURL, newTenant }) => {
  const t = await newTenant({ name: "Signed-out Diner" });
  const till = await browser.newContext({ baseURL, viewport: { width: 1024, height: 768 } });
  const kiosk = await till.newPage();
  await signIn(kiosk, t.slug, "Cashier", t.staff.cashier);
  await kiosk.goto(`/${t.slug}/kiosk?lang=zh-CN`);
  await expect(kiosk.getByText("当前身份：收银员")).toBeVisible();
  // Another tab of the same till signs out: this one's session is gone too.
  const other = await till.newPage();
  await other.goto(`/${t.slug}/kiosk?lang=zh-CN`);
  await other.getByRole("button", { name: "退出登录" }).click();
  await expect(other).toHaveURL(/\/sign-in/);
  await expect(kiosk.getByTestId("signed-out")).toHaveText("已退出登录", { timeout: 15_000 });
  await expect(kiosk.getByRole("alertdialog")).toContainText("已退出登录，请重新登录");
  await expect(kiosk.getByTestId("sign-in-again")).toHaveAttribute("href", `/${t.slug}/sign-in?next=%2F${t.slug}%2Fkiosk&lang=zh-CN`);
  await kiosk.screenshot({ path: "test-results/screenshots/kiosk-signed-out-zh-CN.png" });
  await kiosk.getByTestId("sign-in-again").click();
  await expect(kiosk).toHaveURL(new RegExp(`/${t.slug}/sign-in`));
  await expect(kiosk.getByRole("radio", { name: "收银员" })).toBeVisible();
  await till.close();
});
