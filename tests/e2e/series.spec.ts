/**
 * Number series in Chromium (issue #21, decision 0027): the manager adds "Kiosk" (K1–K99
 * for the kiosk channel) in the console with the keyboard, is warned of an overlap, edits
 * and deletes a series, reads it in the audit log; the kiosk's next ticket says K1. A kiosk
 * device chooses its series and keeps it across reloads; a full series refuses the order
 * in words, in both languages, with the cart kept; a remembered series that was deleted
 * falls back to the channel's, said quietly. Screenshots under test-results/screenshots/.
 */
import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { expectNoSeriousAxe } from "./axe";
import { expect, signIn, test } from "./fixtures";
import type { TestTenant } from "../support/tenants";

const SHOTS = "test-results/screenshots";
const CONSOLE = { width: 1280, height: 800 };
const KIOSK = { width: 1024, height: 768 };

const as = (key: string) => ({ authorization: `Bearer ${key}` });

async function post<T>(request: APIRequestContext, t: TestTenant, path: string, key: string, data: unknown, status = 201): Promise<T> {
  const res = await request.post(`/api/v1/orgs/${t.slug}/${path}`, { headers: as(key), data });
  expect(res.status(), await res.text()).toBe(status);
  return (await res.json()) as T;
}

/** A page of its own (cookies too), so a manager and a kiosk can be signed in side by side. */
async function device(browser: Browser, baseURL: string | undefined, viewport: { width: number; height: number }): Promise<Page> {
  const ctx = await browser.newContext({ baseURL, viewport });
  return ctx.newPage();
}

test("a manager adds the series Kiosk K1–K99 with the keyboard; the kiosk's ticket says K1", async ({ page, browser, baseURL, newTenant }) => {
  test.setTimeout(120_000);
  const t = await newTenant({ name: "Series Diner" });
  await page.setViewportSize(CONSOLE);
  await signIn(page, t.slug, "Manager", t.staff.manager);
  await page.goto(`/${t.slug}/manager`);
  await page.getByRole("navigation", { name: "Manager console" }).getByRole("link", { name: "Series" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Number series" })).toBeVisible();
  const rows = page.getByTestId("series-row");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Default · fixed");
  await expect(rows.first()).toContainText("1… (no end)");
  await expect(rows.first()).toContainText("Every other channel: Kiosk, Counter, API, POS, Delivery, Phone, Web");

  // The keyboard through the form: each field by its label, in reading order; the typed range first refused in words.
  const form = page.getByRole("form", { name: "Add a series" });
  const name = form.getByLabel("Name");
  await name.click();
  await page.keyboard.type("Kiosk");
  await page.keyboard.press("Tab");
  await expect(form.getByLabel("Prefix")).toBeFocused();
  await page.keyboard.type("k");
  await page.keyboard.press("Tab");
  await expect(form.getByLabel("First number")).toBeFocused();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type("10");
  await page.keyboard.press("Tab");
  await expect(form.getByLabel("Last number")).toBeFocused();
  await page.keyboard.type("9");
  await page.keyboard.press("Tab");
  await expect(form.getByRole("checkbox", { name: "Kiosk" })).toBeFocused();
  await page.keyboard.press("Space");
  for (const channel of ["Counter", "API", "POS", "Delivery", "Phone", "Web"]) {
    await page.keyboard.press("Tab");
    await expect(form.getByRole("checkbox", { name: channel })).toBeFocused();
  }
  await page.keyboard.press("Tab");
  await expect(form.getByRole("button", { name: "Add series" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(form.getByRole("alert")).toHaveText("The last number must be at least the first number.");
  await expect(rows).toHaveCount(1);
  // What was typed is kept; fix the first number and send again with Enter.
  await form.getByLabel("First number").fill("1");
  await expect(form.getByRole("alert")).toHaveCount(0);
  await form.getByLabel("Last number").fill("99");
  await form.getByLabel("Last number").press("Enter");
  await expect(page.getByRole("status").filter({ hasText: "Series Kiosk added." })).toBeVisible();
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText("Kiosk");
  await expect(rows.nth(1)).toContainText("K1–K99");
  await expect(rows.first()).toContainText("Every other channel: Counter, API");

  // A second series on the same letters: allowed, and said as it is typed; the kiosk channel shows its owner.
  await expect(form.getByLabel("Name")).toHaveValue("");
  await form.getByLabel("Name").fill("Counter");
  await form.getByLabel("Prefix").fill("K");
  await form.getByLabel("Last number").fill("99");
  await expect(form.getByTestId("overlap-warning")).toHaveText("K1–K99 overlaps Kiosk: the two skip each other's open numbers.");
  await expect(form.getByRole("checkbox", { name: "Kiosk (in Kiosk)" })).toBeDisabled();
  await form.getByRole("checkbox", { name: "Counter" }).check();
  await page.screenshot({ path: `${SHOTS}/console-series-form-en.png` });
  await form.getByRole("button", { name: "Add series" }).click();
  await expect(rows).toHaveCount(3);
  await expect(page.getByTestId("series-overlaps")).toContainText("Counter (K1–K99) overlaps Kiosk: the two skip each other's open numbers.");
  await expectNoSeriousAxe(page, "series page (en)");
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SHOTS}/console-series-en.png` });
  await page.screenshot({ path: `${SHOTS}/console-series-full-en.png`, fullPage: true });

  // Edit: a new range; the overlap note follows it.
  await page.getByRole("button", { name: "Edit Counter" }).click();
  const edit = page.getByRole("form", { name: "Change the series Counter" });
  await edit.getByLabel("First number").fill("100");
  await edit.getByLabel("Last number").fill("199");
  await expect(edit.getByTestId("overlap-warning")).toBeEmpty();
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Series Counter saved." })).toBeVisible();
  await expect(rows.nth(2)).toContainText("K100–K199");
  await expect(page.getByTestId("series-overlaps")).toHaveCount(0);

  await page.goto(`/${t.slug}/manager/series?lang=zh-CN`);
  await expect(page.getByRole("heading", { level: 1, name: "号码序列" })).toBeVisible();
  await expect(rows.first()).toContainText("默认 · 固定");
  const zhForm = page.getByRole("form", { name: "新增序列" });
  await zhForm.getByLabel("名称").fill("外卖");
  await zhForm.getByLabel("前缀").fill("K");
  await zhForm.getByLabel("结束号码").fill("99");
  await expect(zhForm.getByTestId("overlap-warning")).toHaveText("K1–K99 与“Kiosk”重叠：两者会跳过对方仍在使用的号码。");
  await zhForm.getByRole("button", { name: "新增序列" }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/console-series-form-zh-CN.png` });
  await expectNoSeriousAxe(page, "series page (zh-CN)");
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SHOTS}/console-series-zh-CN.png` });
  await zhForm.getByLabel("起始号码").fill("0");
  await zhForm.getByRole("button", { name: "新增序列" }).click();
  await expect(zhForm.getByRole("alert")).toHaveText("起始号码必须是 1 到 99999999 之间的整数。");
  await page.screenshot({ path: `${SHOTS}/console-series-full-zh-CN.png`, fullPage: true });
  await page.goto(`/${t.slug}/manager/series?lang=en`);

  // Delete, confirmed; the audit log says what happened in sentences.
  await page.getByRole("button", { name: "Delete Counter" }).click();
  await expect(page.getByText("Delete the series Counter? Its channels go back to the default series")).toBeVisible();
  await expect(page.getByRole("button", { name: "Yes, delete" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status").filter({ hasText: "Series Counter deleted." })).toBeVisible();
  await expect(rows).toHaveCount(2);
  await page.goto(`/${t.slug}/manager/audit`);
  const log = page.getByTestId("audit-log");
  await expect(log.getByRole("row").nth(1)).toContainText("Number series deleted");
  await expect(log.getByRole("row").nth(2)).toContainText("Series Counter first number 1 → 100");
  await expect(log).toContainText("Number series Kiosk added: K1–K99");
  await expect(log).toContainText("Channels: Kiosk");

  // The kiosk: its channel's series numbers the order.
  const kiosk = await device(browser, baseURL, { width: 1024, height: 768 });
  await signIn(kiosk, t.slug, "Cashier", t.staff.cashier);
  await kiosk.goto(`/${t.slug}/kiosk?lang=en`);
  await expect(kiosk.getByLabel("Number series")).toHaveValue("");
  await expect(kiosk.getByLabel("Number series").locator("option:checked")).toHaveText("Automatic (Kiosk · K1–K99)");
  await kiosk.getByTestId("item-name-0").fill("Dumplings");
  await kiosk.getByRole("button", { name: "Take order" }).click();
  await expect(kiosk.getByTestId("issued-number")).toHaveText("K1");
  await expect(kiosk.getByRole("article", { name: "Ticket for order K1" }).getByTestId("ticket-number")).toHaveText("K1");
  await kiosk.screenshot({ path: `${SHOTS}/kiosk-series-issued-en.png` });
  await kiosk.getByRole("button", { name: "Next order" }).click();
  await expect(kiosk.getByText("Number K1, taken at")).toBeVisible();

  // This device chooses the default series: remembered across a reload, like its paper.
  await kiosk.getByLabel("Number series").selectOption("Default");
  await kiosk.reload();
  await expect(kiosk.getByLabel("Number series")).toHaveValue("Default");
  await kiosk.getByTestId("item-name-0").fill("Tea");
  await kiosk.getByRole("button", { name: "Take order" }).click();
  await expect(kiosk.getByTestId("issued-number")).toHaveText("1");
  await kiosk.context().close();

  // The console counts this shift's orders per series: K1 in Kiosk, 1 in the default series.
  await page.goto(`/${t.slug}/manager/series`);
  const orders = (row: number) => rows.nth(row).getByRole("cell").nth(3);
  await expect(orders(0)).toHaveText("1");
  await expect(orders(1)).toHaveText("1");
});

test("a full series refuses the kiosk's order in words, in both languages, and keeps the cart", async ({ page, newTenant, request }) => {
  test.setTimeout(120_000);
  const t = await newTenant({ name: "Full House" });
  await post(request, t, "series", t.apiKeys.manager, { name: "Kiosk", prefix: "K", first: 1, last: 99, channels: ["kiosk"] });
  // Every number K1–K99 taken and still open.
  const taken: { id: string; display: string }[] = [];
  for (let i = 0; i < 99; i += 11) {
    const batch = Array.from({ length: 11 }, () =>
      post<{ id: string; display: string }>(request, t, "orders", t.apiKeys.cashier, { series: "Kiosk", channel: "kiosk" }),
    );
    taken.push(...(await Promise.all(batch)));
  }
  expect(new Set(taken.map((o) => o.display)).size).toBe(99);

  await page.setViewportSize(KIOSK);
  await signIn(page, t.slug, "Cashier", t.staff.cashier);
  for (const [locale, take, text, hint] of [
    ["en", "Take order", "All numbers K1–K99 are still open", "Nothing is lost: the order stays on screen."],
    ["zh-CN", "下单", "K1–K99 的号码都还在使用中", "订单仍在屏幕上，没有丢失。"],
  ] as const) {
    await page.goto(`/${t.slug}/kiosk?lang=${locale}`);
    // The refused order is kept on the device (decision 0048): the second language's page
    // restores it after hydrating, which would overwrite a line typed before it.
    if (locale === "zh-CN") await expect(page.getByTestId("item-name-0")).toHaveValue("Dumplings");
    await page.getByTestId("item-name-0").fill(locale === "en" ? "Dumplings" : "饺子");
    await page.getByLabel(locale === "en" ? "Note" : "备注").fill(locale === "en" ? "no chili" : "不要辣");
    await page.getByRole("button", { name: take }).click();
    const error = page.getByTestId("order-error");
    await expect(error).toContainText(text);
    await expect(error).toContainText(hint);
    // Nothing lost: the cart is as it was.
    await expect(page.getByTestId("item-name-0")).toHaveValue(locale === "en" ? "Dumplings" : "饺子");
    await expect(page.getByLabel(locale === "en" ? "Note" : "备注")).toHaveValue(locale === "en" ? "no chili" : "不要辣");
    await page.screenshot({ path: `${SHOTS}/kiosk-series-full-${locale}.png` });
  }

  // One collected: the same cart, sent again, gets its number.
  const k7 = taken.find((o) => o.display === "K7")!;
  for (const status of ["READY", "COLLECTED"]) await post(request, t, `orders/${k7.id}/status`, t.apiKeys.kitchen, { status }, 200);
  await page.getByRole("button", { name: "下单" }).click();
  await expect(page.getByTestId("issued-number")).toHaveText("K7");
  await expect(page.getByRole("article", { name: "K7 号订单小票" })).toContainText("饺子");
});

test("a remembered series that was deleted falls back to the kiosk channel's series, said quietly", async ({ page, newTenant, request }) => {
  const t = await newTenant({ name: "Gone Grill" });
  const drive = await post<{ id: string }>(request, t, "series", t.apiKeys.manager, { name: "Drive-in", prefix: "D", first: 1, last: 99 });
  await page.setViewportSize(KIOSK);
  await signIn(page, t.slug, "Cashier", t.staff.cashier);
  await page.goto(`/${t.slug}/kiosk?lang=en`);
  await page.getByLabel("Number series").selectOption("Drive-in");
  await page.getByTestId("item-name-0").fill("Burger");
  await page.getByRole("button", { name: "Take order" }).click();
  await expect(page.getByTestId("issued-number")).toHaveText("D1");
  await page.getByRole("button", { name: "Next order" }).click();

  const res = await request.delete(`/api/v1/orgs/${t.slug}/series/${drive.id}`, { headers: as(t.apiKeys.manager) });
  expect(res.status()).toBe(200);
  // The open kiosk hears of it (settings:changed) and says so, without a reload.
  await expect(page.getByTestId("series-gone")).toHaveText("The series “Drive-in” chosen on this kiosk no longer exists: its numbers now come from “Default”.");
  // With only the default left there is nothing to choose.
  await expect(page.getByLabel("Number series")).toHaveCount(0);
  await page.getByTestId("item-name-0").fill("Fries");
  await page.getByRole("button", { name: "Take order" }).click();
  await expect(page.getByTestId("issued-number")).toHaveText("1");
  // Said once: the device forgot it, and after a reload there is nothing to say.
  await page.reload();
  await expect(page.getByRole("heading", { name: "New order" })).toBeVisible();
  await expect(page.getByTestId("series-gone")).toHaveCount(0);
  expect(await page.evaluate((slug) => localStorage.getItem(`nextup.kiosk.series.${slug}`), t.slug)).toBe("");
});
