/**
 * People with their own PIN (issue #38) in Chromium, English and Chinese: a manager adds two
 * cooks in the console (one in the Chinese console); on one kitchen tablet each signs in by
 * name and PIN, the header names them, "Switch person" hands the tablet over and the second
 * cook bumps an order; a wrong PIN is told in a sentence; a cook let go is signed out on their
 * open screen while the other stays; with shared codes off the role-code form is gone.
 */
import type { APIRequestContext, Browser, Page } from "@playwright/test";
import type { TestTenant } from "../support/tenants";
import { expect, signIn, test } from "./fixtures";
import { seriousAxeViolations } from "./axe";

test.use({ viewport: { width: 1280, height: 800 } });

const A = { name: "Li Wei", pin: "4826" };
const B = { name: "王芳", pin: "7391" };
const BOSS = { name: "Sam Okafor", pin: "5019" };

const byPin = (page: Page) => page.getByRole("form", { name: "Sign in with your name and PIN" });

/** Signs in on the sign-in page the browser is on, by name and PIN (English labels). */
async function signInByPin(page: Page, who: { name: string; pin: string }) {
  const form = byPin(page);
  await form.getByLabel("Name", { exact: true }).selectOption({ label: who.name });
  await form.getByLabel("PIN", { exact: true }).fill(who.pin);
  await form.getByRole("button", { name: "Sign in" }).click();
}

/** Adds a person on the console's Access page, in English. */
async function addPerson(page: Page, who: { name: string; pin: string }, role: "KITCHEN" | "MANAGER") {
  const form = page.getByRole("form", { name: "Add a person" });
  await form.getByLabel("Name", { exact: true }).fill(who.name);
  await form.getByLabel("Works as").selectOption(role);
  await form.getByLabel("PIN", { exact: true }).fill(who.pin);
  await form.getByRole("button", { name: "Add a person" }).click();
  await expect(page.getByTestId("person-added")).toContainText(`${who.name} added as`);
  await expect(page.getByTestId(`person-${who.name}`)).toContainText("Active");
}

async function place(request: APIRequestContext, t: TestTenant, item: string): Promise<{ id: string; number: number }> {
  const res = await request.post(`/api/v1/orgs/${t.slug}/orders`, {
    headers: { authorization: `Bearer ${t.apiKeys.cashier}` },
    data: { items: [{ name: item, qty: 1 }] },
  });
  expect(res.status()).toBe(201);
  return (await res.json()) as { id: string; number: number };
}

/** A screenshot kept with the run's others (test-results/screenshots/, copied to docs/screenshots/). */
const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/screenshots/staff-${name}.png` });

/** The page in `lang`, for a screenshot and axe; `then` runs there first. Ends in English. */
async function inLanguages(page: Page, url: string, name: string, then?: () => Promise<void>) {
  for (const lang of ["zh-CN", "en"]) {
    await page.goto(`${url}${url.includes("?") ? "&" : "?"}lang=${lang}`);
    await expect(page.locator("html")).toHaveAttribute("lang", lang);
    await then?.();
    await shot(page, `${name}-${lang}`);
    expect(await seriousAxeViolations(page), `${name} (${lang})`).toEqual([]);
  }
}

async function tablet(browser: Browser, baseURL: string | undefined): Promise<Page> {
  return (await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } })).newPage();
}

test("two cooks share a kitchen tablet by name and PIN; one let go is signed out alone; shared codes turned off", async ({
  page,
  browser,
  baseURL,
  request,
  newTenant,
}) => {
  test.setTimeout(120_000);
  const t = await newTenant({ name: "People Kitchen" });

  // No people yet: the sign-in page is the role-code form alone.
  await page.goto(`/${t.slug}/sign-in?lang=en`);
  await expect(page.getByLabel("Sign-in code")).toBeVisible();
  await expect(page.getByLabel("PIN", { exact: true })).toHaveCount(0);

  // The manager (shared code) adds cook A in English; a guessable PIN is refused beside the field.
  await signIn(page, t.slug, "Manager", t.staff.manager);
  await page.goto(`/${t.slug}/manager?lang=en`);
  // The console's menu names where people are.
  await page.getByRole("link", { name: "People & keys" }).click();
  await expect(page).toHaveURL(new RegExp(`/${t.slug}/manager/access`));
  await expect(page.getByRole("heading", { name: "People", exact: true })).toBeVisible();
  const add = page.getByRole("form", { name: "Add a person" });
  await add.getByLabel("Name", { exact: true }).fill(A.name);
  await add.getByLabel("PIN", { exact: true }).fill("1234");
  await add.getByRole("button", { name: "Add a person" }).click();
  await expect(add.getByRole("alert")).toHaveText(/too easy to guess/);
  await expect(add.getByLabel("PIN", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(add.getByLabel("Name", { exact: true })).toHaveValue(A.name);
  await add.getByLabel("PIN", { exact: true }).fill(A.pin);
  await add.getByRole("button", { name: "Add a person" }).click();
  await expect(page.getByTestId("person-added")).toHaveText(`${A.name} added as Kitchen: they can sign in with their name and PIN now.`);
  const rowA = page.getByTestId(`person-${A.name}`);
  await expect(rowA).toContainText("Kitchen");
  await expect(rowA).toContainText("Active");

  // Cook B in the Chinese console; a name already taken is refused beside the name.
  await page.goto(`/${t.slug}/manager/access?lang=zh-CN`);
  const addZh = page.getByRole("form", { name: "添加员工" });
  await addZh.getByLabel("姓名").fill(A.name);
  await addZh.getByLabel("岗位").selectOption("KITCHEN");
  await addZh.getByLabel("PIN", { exact: true }).fill(B.pin);
  await addZh.getByRole("button", { name: "添加员工" }).click();
  await expect(addZh.getByRole("alert")).toHaveText("店里已有人叫这个名字：请加上姓氏或首字母。");
  await addZh.getByLabel("姓名").fill(B.name);
  await addZh.getByRole("button", { name: "添加员工" }).click();
  await expect(page.getByTestId("person-added")).toHaveText(`已添加${B.name}（厨房）：现在可以用姓名和 PIN 登录。`);
  await expect(page.getByTestId(`person-${B.name}`)).toContainText("在职");
  await page.goto(`/${t.slug}/manager/access?lang=en`);

  // The sign-in page at a kiosk's size, in both languages; a wrong PIN told in Chinese.
  const kiosk = await (await browser.newContext({ baseURL, viewport: { width: 1024, height: 768 } })).newPage();
  await inLanguages(kiosk, `/${t.slug}/sign-in?next=${encodeURIComponent(`/${t.slug}/kitchen`)}`, "sign-in");
  await kiosk.goto(`/${t.slug}/sign-in?lang=zh-CN`);
  const byPinZh = kiosk.getByRole("form", { name: "用姓名和 PIN 登录" });
  await byPinZh.getByLabel("姓名").selectOption({ label: B.name });
  await byPinZh.getByLabel("PIN", { exact: true }).fill("2025");
  await byPinZh.getByLabel("PIN", { exact: true }).press("Enter");
  await expect(kiosk.getByTestId("pin-sign-in-error")).toHaveText(`${B.name} 的 PIN 不对。`);
  await shot(kiosk, "sign-in-wrong-pin-zh-CN");
  await kiosk.context().close();

  // The kitchen tablet: the sign-in page offers the names (and still the role codes).
  const kitchen = await tablet(browser, baseURL);
  await kitchen.goto(`/${t.slug}/kitchen?lang=en`);
  await expect(kitchen).toHaveURL(/\/sign-in\?/);
  await expect(byPin(kitchen).getByLabel("Name", { exact: true })).toBeVisible();
  await expect(byPin(kitchen).getByLabel("PIN", { exact: true })).toHaveAttribute("inputmode", "numeric");
  await expect(kitchen.getByRole("heading", { name: "Or with the role's shared code" })).toBeVisible();
  await expect(kitchen.getByLabel("Sign-in code")).toBeVisible();
  // Names only: no PIN's hash anywhere in the page.
  expect(await kitchen.content()).not.toContain("$argon2");

  // A wrong PIN is told in a sentence; the name stays chosen and the PIN is cleared.
  await signInByPin(kitchen, { name: A.name, pin: "9052" });
  await expect(kitchen.getByTestId("pin-sign-in-error")).toHaveText(`Wrong PIN for ${A.name}.`);
  await expect(byPin(kitchen).getByLabel("Name", { exact: true })).toHaveValue(/.+/);
  await expect(byPin(kitchen).getByLabel("PIN", { exact: true })).toHaveValue("");
  await expect(byPin(kitchen).getByLabel("PIN", { exact: true })).toBeFocused();

  // Cook A signs in: back on the kitchen screen, which names them.
  await signInByPin(kitchen, A);
  await expect(kitchen).toHaveURL(new RegExp(`/${t.slug}/kitchen$`));
  await expect(kitchen.getByRole("banner")).toContainText(`${A.name} · Kitchen`);
  await expect(kitchen.locator("[data-connection=live]")).toBeVisible();
  // Cook A marks an order ready.
  const first = await place(request, t, "Wonton soup");
  await kitchen
    .getByRole("article", { name: `Order ${first.number}`, exact: true })
    .getByRole("button", { name: "Ready", exact: true })
    .click();
  await expect(kitchen.getByTestId("kitchen-status")).toHaveText(`${first.number} → Ready`);

  // "Switch person": one tap to the sign-in page, and back to the kitchen as cook B, who bumps an order.
  const order = await place(request, t, "Beef noodles");
  await kitchen.getByRole("link", { name: "Switch person" }).click();
  await expect(kitchen).toHaveURL(/\/sign-in\?/);
  // While A is still signed in, the way back to the kitchen is one tap (a fumbled PIN leaves no tablet without it).
  await expect(kitchen.getByTestId("back-to-screen")).toHaveText(`← Back to the kitchen (${A.name} is still signed in)`);
  // With the keyboard: the name list has the focus, Tab goes to the PIN (its focus shown), Enter signs in.
  const nameField = byPin(kitchen).getByLabel("Name", { exact: true });
  await expect(nameField).toBeFocused();
  await nameField.selectOption({ label: B.name });
  await kitchen.keyboard.press("Tab");
  const pinField = byPin(kitchen).getByLabel("PIN", { exact: true });
  await expect(pinField).toBeFocused();
  expect(await pinField.evaluate((e) => getComputedStyle(e).boxShadow)).not.toBe("none");
  await kitchen.keyboard.type(B.pin);
  await kitchen.keyboard.press("Enter");
  await expect(kitchen).toHaveURL(new RegExp(`/${t.slug}/kitchen$`));
  await expect(kitchen.getByRole("banner")).toContainText(`${B.name} · Kitchen`);
  await expect(kitchen.getByRole("banner")).not.toContainText(A.name);
  const card = kitchen.getByRole("article", { name: `Order ${order.number}`, exact: true });
  await card.getByRole("button", { name: "Ready", exact: true }).click();
  await expect(kitchen.getByTestId("kitchen-status")).toHaveText(`${order.number} → Ready`);
  // Each order's history names the cook who made it ready (and the key that placed it).
  const history = async (id: string) => {
    const got = await request.get(`/api/v1/orgs/${t.slug}/orders/${id}`, { headers: { authorization: `Bearer ${t.apiKeys.kitchen}` } });
    return ((await got.json()) as { status: string; history: { status: string; by: string | null }[] }).history.map((h) => [h.status, h.by]);
  };
  const placedBy = `API key ${t.apiKeys.cashier.split("_")[2]}`;
  expect(await history(first.id)).toEqual([
    ["PLACED", placedBy],
    ["READY", A.name],
  ]);
  expect(await history(order.id)).toEqual([
    ["PLACED", placedBy],
    ["READY", B.name],
  ]);
  await inLanguages(kitchen, `/${t.slug}/kitchen`, "kitchen-header", () => expect(kitchen.locator("[data-connection=live]")).toBeVisible());

  // Cook A's own screen, open on a second tablet.
  const kitchenA = await tablet(browser, baseURL);
  await kitchenA.goto(`/${t.slug}/kitchen?lang=en`);
  await signInByPin(kitchenA, A);
  await expect(kitchenA.getByRole("banner")).toContainText(`${A.name} · Kitchen`);

  // The manager lets cook A go (asked first): A's open screen says so by itself; B's stays signed in.
  await page.reload();
  await rowA.getByRole("button", { name: "Let go" }).click();
  await expect(page.getByText(`Let ${A.name} go? They are signed out on every screen within seconds`)).toBeVisible();
  await page.evaluate(() => window.scrollBy(0, 120));
  await shot(page, "console-let-go-en");
  await page.getByRole("button", { name: `Yes, let ${A.name} go` }).click();
  await expect(page.getByTestId("person-changed")).toHaveText(`${A.name} was let go: signed out everywhere within seconds.`);
  await expect(rowA).toContainText("Left: cannot sign in");
  await expect(rowA.getByRole("button", { name: "Take back" })).toBeVisible();
  await inLanguages(page, `/${t.slug}/manager/access`, "console", () =>
    page.locator("#people").evaluate((e) => {
      e.scrollIntoView();
      window.scrollBy(0, -16);
    }),
  );
  await expect(kitchenA.getByRole("alertdialog")).toContainText("Signed out — sign in again", { timeout: 15_000 });
  await expect(kitchenA.getByTestId("signed-out")).toHaveText("Signed out");
  // The notice has the focus, and keeps it: the kitchen's number field under it takes no keys, Tab stays on its one link.
  const again = kitchenA.getByTestId("sign-in-again");
  await expect(again).toBeFocused();
  await kitchenA.keyboard.type("12");
  await kitchenA.keyboard.press("Tab");
  await expect(again).toBeFocused();
  await kitchenA.keyboard.press("Shift+Tab");
  await expect(again).toBeFocused();
  await expect(kitchenA.locator("#typed-number")).toHaveValue("");
  // B's screen has checked its session since (every 5 s) and is still B's.
  await kitchen.waitForTimeout(6_000);
  await expect(kitchen.getByTestId("signed-out")).toHaveCount(0);
  await expect(kitchen.getByRole("banner")).toContainText(`${B.name} · Kitchen`);
  // A's name is no longer offered.
  await kitchenA.goto(`/${t.slug}/sign-in?lang=en`);
  await expect(byPin(kitchenA).getByRole("option", { name: B.name })).toHaveCount(1);
  await expect(byPin(kitchenA).getByRole("option", { name: A.name })).toHaveCount(0);

  // Shared codes cannot be turned off before a manager has a PIN of their own.
  const shared = page.getByLabel("Shared role codes sign in");
  await expect(shared).toBeChecked();
  await shared.uncheck();
  await page.getByRole("button", { name: "Yes, turn shared codes off" }).click();
  await expect(page.getByText("Add a manager with their own PIN first: with shared codes off, nobody could open the console.")).toBeVisible();
  await expect(shared).toBeChecked();

  // With a manager person, they go off: the sign-in page offers names and PINs only.
  await addPerson(page, BOSS, "MANAGER");
  await shared.uncheck();
  await page.getByRole("button", { name: "Yes, turn shared codes off" }).click();
  const signInPage = await tablet(browser, baseURL);
  await expect(async () => {
    await signInPage.goto(`/${t.slug}/sign-in?lang=en`);
    await expect(signInPage.getByLabel("Sign-in code")).toHaveCount(0, { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await expect(signInPage.getByRole("heading", { name: "Or with the role's shared code" })).toHaveCount(0);
  await expect(signInPage.getByRole("radio")).toHaveCount(0);
  await expect(byPin(signInPage).getByLabel("Name", { exact: true })).toBeVisible();
  // The manager signs in by PIN and finds the switch off; cook B is still signed in.
  await signInPage.goto(`/${t.slug}/sign-in?lang=en&next=${encodeURIComponent(`/${t.slug}/manager/access`)}`);
  await signInByPin(signInPage, BOSS);
  await expect(signInPage).toHaveURL(new RegExp(`/${t.slug}/manager/access$`));
  await expect(signInPage.getByRole("banner")).toContainText(`${BOSS.name} · Manager`);
  await expect(signInPage.getByLabel("Shared role codes sign in")).not.toBeChecked();
  await expect(kitchen.getByTestId("signed-out")).toHaveCount(0);

  for (const p of [kitchen, kitchenA, signInPage]) await p.context().close();
});
