/**
 * How a screen picks its language: `?lang=` (remembered on the device), else the
 * restaurant's default, else the browser's Accept-Language; `<html lang>` always matches,
 * and messages from the server (a refused sign-in) come in the screen's language.
 */
import { expect, signIn, test } from "./fixtures";

test("the browser's language, the restaurant's default and ?lang=, in that order of strength", async ({ browser, newTenant }) => {
  const plain = await newTenant({ name: "Plain Diner" });
  const chinese = await newTenant({ name: "Chinese Default", floor: { language: "zh-CN" } });

  const zhBrowser = await browser.newContext({ locale: "zh-CN", extraHTTPHeaders: { "accept-language": "zh-CN,zh;q=0.9" } });
  const page = await zhBrowser.newPage();
  await page.goto(`/${plain.slug}/board`);
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
  await expect(page.getByRole("heading", { name: "制作中" })).toBeVisible();
  await zhBrowser.close();

  const enBrowser = await browser.newContext({ extraHTTPHeaders: { "accept-language": "en-GB,en;q=0.9" } });
  const en = await enBrowser.newPage();
  // The restaurant's default beats the browser's language…
  await en.goto(`/${chinese.slug}/board`);
  await expect(en.locator("html")).toHaveAttribute("lang", "zh-CN");
  // …and ?lang= beats both, and is remembered on the device for every screen.
  await en.goto(`/${chinese.slug}/board?lang=en`);
  await expect(en.locator("html")).toHaveAttribute("lang", "en");
  await expect(en.getByRole("heading", { name: "Preparing" })).toBeVisible();
  await en.goto(`/${chinese.slug}/sign-in`);
  await expect(en.locator("html")).toHaveAttribute("lang", "en");
  await expect(en.getByRole("heading", { name: "Chinese Default" })).toBeVisible();
  await enBrowser.close();
});

test("the server's messages come in the screen's language", async ({ page, newTenant }) => {
  const t = await newTenant({ name: "Message Noodles" });
  await page.goto(`/${t.slug}/sign-in?lang=zh-CN`);
  await page.getByRole("radio", { name: "厨房" }).check();
  // A form the action's schema refuses: its message is in the screen's language too.
  await page.getByRole("button", { name: "登录" }).click();
  await expect(page.getByTestId("sign-in-error")).toHaveText("请输入登录码。");
  await expect(page.getByRole("radio", { name: "厨房" })).toBeChecked();
  await page.getByLabel("登录码").fill("not-the-code");
  await page.getByRole("button", { name: "登录" }).click();
  await expect(page.getByTestId("sign-in-error")).toHaveText("该角色的登录码不正确。");

  // A kitchen code opening the kiosk: the sign-in page says why, in Chinese.
  await signIn(page, t.slug, "Kitchen", t.staff.kitchen);
  await page.goto(`/${t.slug}/kiosk?lang=zh-CN`);
  await expect(page).toHaveURL(new RegExp(`/${t.slug}/sign-in`));
  await expect(page.getByRole("status")).toHaveText("此页面需要收银员：请用该角色的登录码登录。");
});

test("the start page's hint shows the example address in both languages", async ({ page }) => {
  await page.goto("/?lang=zh-CN");
  await expect(page.locator("#slug-hint code")).toHaveText("pizza-roma");
  await page.goto("/?lang=en");
  await expect(page.locator("#slug-hint")).toHaveText("The short name in your Nextup address, e.g. pizza-roma in /pizza-roma/board.");
});
