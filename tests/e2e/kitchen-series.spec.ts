/**
 * Number series on the staff's screens (issue #21, decision 0027): the kitchen shows K12 and
 * D12 as such, a typed `k12` moves the kiosk's 12, a bare `12` that two series show (and no
 * order without letters) is asked and the cook picks; the kiosk's ticket prints K12 big; the manager finds K12, k12
 * and 12. Series are rows written before the app first reads the restaurant. Screenshots in
 * English and Chinese go to test-results/screenshots/kitchen-series-*.png.
 */
import type { APIRequestContext, Page } from "@playwright/test";
import { stableDaySpec } from "../support/fixtures";
import { insertSeries, type TestTenant } from "../support/tenants";
import { expectNoSeriousAxe } from "./axe";
import { expect, signIn, test, type NewTenant } from "./fixtures";

const SHOTS = "test-results/screenshots";

/** A fresh restaurant with a kiosk series K12–K99 and a delivery series D12–D99 beside its 1, 2, 3… */
async function seriesTenant(newTenant: NewTenant, name: string): Promise<TestTenant> {
  // A day-start 12 hours away: the business day cannot turn over mid-test (no "earlier day" marks).
  const { timeZone, dayStart } = stableDaySpec("x");
  const t = await newTenant({ name, timeZone, dayStart });
  await insertSeries(process.env.E2E_DATABASE_URL!, t.id, { name: "Kiosk", prefix: "K", first: 12, last: 99, channels: ["kiosk"] });
  await insertSeries(process.env.E2E_DATABASE_URL!, t.id, { name: "Delivery", prefix: "D", first: 12, last: 99, channels: ["delivery"] });
  return t;
}

async function place(request: APIRequestContext, t: TestTenant, body: Record<string, unknown>): Promise<{ id: string; display: string }> {
  const res = await request.post(`/api/v1/orgs/${t.slug}/orders`, { headers: { authorization: `Bearer ${t.apiKeys.cashier}` }, data: body });
  expect(res.status()).toBe(201);
  return (await res.json()) as { id: string; display: string };
}

const typed = (page: Page, label = "Order number") => page.getByLabel(label, { exact: true });
async function typeNumber(page: Page, value: string, label?: string) {
  await typed(page, label).fill(value);
  await typed(page, label).press("Enter");
}
const pile = (page: Page, id: "to-prepare" | "waiting-pickup") => page.getByTestId(id);

test.describe("the kitchen at 1280×800", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("k12 moves the kiosk's 12; 12 that two series show is asked, and the cook picks one", async ({ page, request, newTenant }) => {
    const t = await seriesTenant(newTenant, "Series Kitchen");
    // By the series' name, or by a channel a series serves; the counter's is the default series.
    const k12 = await place(request, t, { items: [{ name: "Beef noodles", qty: 1 }], series: "Kiosk", channel: "kiosk" });
    const d12 = await place(request, t, { items: [{ name: "Dumplings", qty: 2 }], channel: "delivery" });
    const plain = await place(request, t, { items: [{ name: "Tea", qty: 1 }], channel: "counter" });
    await place(request, t, { items: [{ name: "Rice", qty: 1 }], channel: "kiosk" });
    expect([k12.display, d12.display, plain.display]).toEqual(["K12", "D12", "1"]);

    await signIn(page, t.slug, "Kitchen", t.staff.kitchen);
    await page.goto(`/${t.slug}/kitchen?lang=en`);
    await expect(page.locator("[data-connection=live]")).toBeVisible();
    // Each ticket shows its number as the customer holds it.
    await expect(page.getByTestId("order-K12").getByRole("heading")).toHaveText("K12");
    await expect(page.getByTestId("order-D12").getByRole("heading")).toHaveText("D12");
    await expect(page.getByRole("article", { name: "Order K12", exact: true })).toBeVisible();
    await expect(page.getByTestId("order-1")).toBeVisible();

    // The letters say which, in either case.
    await typeNumber(page, "k12");
    await expect(page.getByTestId("kitchen-status")).toHaveText("K12 → Ready");
    await expect(pile(page, "waiting-pickup").getByRole("article", { name: "Order K12", exact: true })).toBeVisible();
    await expect(pile(page, "to-prepare").getByRole("article", { name: "Order D12", exact: true })).toBeVisible();

    // 12 alone: K12 and D12 both show it. Nothing moves; the screen asks.
    await typeNumber(page, "12");
    const choice = page.getByTestId("typed-choice");
    await expect(choice.getByRole("alert")).toHaveText("Which 12? Pick one, or type it with its letter (D12).");
    await expect(choice.getByRole("button", { name: /^[KD]12 / })).toHaveText(["1D12 To prepare · Dumplings", "2K12 Ready · Beef noodles"]);
    await expect(choice).toBeFocused();
    // An Enter out of habit (nothing highlighted) picks nothing: the question closes, the field has focus.
    await page.keyboard.press("Enter");
    await expect(choice).toHaveCount(0);
    await expect(typed(page)).toBeFocused();
    await expect(pile(page, "to-prepare").getByRole("article", { name: "Order D12", exact: true })).toBeVisible();
    await expect(pile(page, "waiting-pickup").getByRole("article", { name: "Order K12", exact: true })).toBeVisible();
    await typeNumber(page, "12");
    await expectNoSeriousAxe(page, "kitchen asking which 12 (en)");
    await page.screenshot({ path: `${SHOTS}/kitchen-series-choice-en.png` });

    await choice.getByRole("button", { name: /^D12 / }).click();
    await expect(page.getByTestId("kitchen-status")).toHaveText("D12 → Ready");
    await expect(choice).toHaveCount(0);
    await expect(pile(page, "waiting-pickup").getByRole("article", { name: "Order D12", exact: true })).toBeVisible();
    await expect(pile(page, "waiting-pickup").getByRole("article", { name: "Order K12", exact: true })).toBeVisible();

    // Letters no series uses, and a number no open order shows, are said as such.
    await typeNumber(page, "X12");
    await expect(page.getByTestId("kitchen-error")).toHaveText("No order number starts with X.");
    await typeNumber(page, "K99");
    await expect(page.getByTestId("kitchen-error")).toHaveText("No open order has number K99.");
    await typeNumber(page, "abc");
    await expect(page.getByTestId("kitchen-error")).toHaveText(/^Type an order number as shown, e\.g\. 42 or [KD]42\.$/);
    // The field takes letters on a touch keyboard too.
    await expect(typed(page)).toHaveAttribute("inputmode", "text");
    await page.screenshot({ path: `${SHOTS}/kitchen-series-en.png` });

    // Chinese: the same question, in Chinese.
    await page.goto(`/${t.slug}/kitchen?lang=zh-CN`);
    await expect(page.locator("[data-connection=live]")).toBeVisible();
    await typeNumber(page, "12", "取餐号");
    await expect(choice.getByRole("alert")).toHaveText("是哪一张 12？请选择，或连字母一起输入（如 D12）。");
    await expect(choice.getByRole("button", { name: /^[KD]12 / })).toHaveText(["1D12 待取餐 · Dumplings", "2K12 待取餐 · Beef noodles"]);
    await expectNoSeriousAxe(page, "kitchen asking which 12 (zh-CN)");
    await page.screenshot({ path: `${SHOTS}/kitchen-series-choice-zh-CN.png` });
    await choice.getByRole("button", { name: /^K12 / }).click();
    await expect(page.getByTestId("kitchen-status")).toHaveText("K12 → 已取餐");
    await expect(page.getByTestId("collected-K12")).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/kitchen-series-zh-CN.png` });
    await page.goto(`/${t.slug}/kitchen?lang=en`);
  });
});

test.describe("the kiosk at 1024×768", () => {
  test.use({ viewport: { width: 1024, height: 768 } });

  test("the ticket shows the kiosk's series number big, on screen and on paper", async ({ page, newTenant }) => {
    const t = await seriesTenant(newTenant, "Series Noodle Bar");
    await signIn(page, t.slug, "Cashier", t.staff.cashier);
    for (const [lang, take, next, expected] of [
      ["en", "Take order", "Next order", "K12"],
      ["zh-CN", "下单", "下一单", "K13"],
    ] as const) {
      await page.goto(`/${t.slug}/kiosk?lang=${lang}`);
      await page.getByTestId("item-name-0").fill(lang === "en" ? "Beef noodles" : "牛肉面");
      await page.getByRole("button", { name: take, exact: true }).click();
      await expect(page.getByTestId("issued-number")).toHaveText(expected);
      // The ticket on screen (the printer's copy is hidden from assistive technology, so not found by role).
      const ticket = page.getByRole("article", { name: lang === "en" ? `Ticket for order ${expected}` : `${expected} 号订单小票` });
      await expect(ticket.getByTestId("ticket-number")).toHaveText(expected);
      // Big, and within its panel and its paper: no number cut at an edge.
      for (const id of ["issued-number", "ticket-number"]) {
        const fits = await page
          .getByTestId(id)
          .first()
          .evaluate((el) => el.scrollWidth <= el.clientWidth + 1 && el.getBoundingClientRect().height > 60);
        expect(fits, `${id} (${lang})`).toBe(true);
      }
      await page.screenshot({ path: `${SHOTS}/kitchen-series-kiosk-ticket-${lang}.png` });
      await page.getByRole("button", { name: next }).click();
    }
  });
  test("a long series number (KDS1000) prints smaller and stays on 58 mm paper", async ({ page, newTenant }) => {
    const { timeZone, dayStart } = stableDaySpec("x");
    const t = await newTenant({ name: "Long Numbers", timeZone, dayStart });
    await insertSeries(process.env.E2E_DATABASE_URL!, t.id, { name: "Kiosk", prefix: "KDS", first: 1000, last: 9999, channels: ["kiosk"] });
    await signIn(page, t.slug, "Cashier", t.staff.cashier);
    await page.goto(`/${t.slug}/kiosk?lang=en`);
    await page.getByText("58 mm", { exact: true }).click();
    await page.getByTestId("item-name-0").fill("Tea");
    await page.getByRole("button", { name: "Take order", exact: true }).click();
    await expect(page.getByTestId("issued-number")).toHaveText("KDS1000");
    const ticket = page.getByRole("article", { name: "Ticket for order KDS1000" });
    const inside = await ticket.evaluate((el) => {
      const paper = el.getBoundingClientRect();
      const n = el.querySelector("[data-testid=ticket-number]")!;
      const box = n.getBoundingClientRect();
      return n.scrollWidth <= n.clientWidth + 1 && box.left >= paper.left && box.right <= paper.right;
    });
    expect(inside).toBe(true);
    await page.screenshot({ path: `${SHOTS}/kitchen-series-kiosk-ticket-long-en.png` });

    // The kitchen's ticket sets it smaller too: number and age side by side on the band.
    await page.setViewportSize({ width: 1280, height: 800 });
    await signIn(page, t.slug, "Kitchen", t.staff.kitchen);
    await page.goto(`/${t.slug}/kitchen?lang=en`);
    const card = page.getByTestId("order-KDS1000");
    await expect(card.getByRole("heading")).toHaveText("KDS1000");
    const [heading, age, band] = await Promise.all([card.getByRole("heading").boundingBox(), card.getByTestId("order-age").boundingBox(), card.boundingBox()]);
    expect(heading!.x + heading!.width).toBeLessThanOrEqual(age!.x);
    expect(age!.x + age!.width).toBeLessThanOrEqual(band!.x + band!.width);
    await page.screenshot({ path: `${SHOTS}/kitchen-series-long-en.png` });
  });
});

test("the manager finds K12, k12, and 12 with every series' 12 listed; shift history names each series' numbers", async ({ page, request, newTenant }) => {
  const t = await seriesTenant(newTenant, "Series Console");
  await place(request, t, { items: [{ name: "Beef noodles", qty: 1 }], series: "Kiosk", channel: "kiosk" });
  await place(request, t, { items: [{ name: "Dumplings", qty: 1 }], channel: "delivery" });
  for (let i = 0; i < 12; i++) await place(request, t, { items: [{ name: "Tea", qty: 1 }] }); // 1…12

  await signIn(page, t.slug, "Manager", t.staff.manager);
  await page.goto(`/${t.slug}/manager?lang=en`);
  await expect(page.getByText("14 orders so far; last number issued: 12 · D12 · K12.")).toBeVisible();

  await page.goto(`/${t.slug}/manager/history?lang=en`);
  const row1 = page.getByTestId("shift-row-1");
  await expect(row1).toContainText("1 – 12");
  await expect(row1.getByTestId("series-range")).toHaveText(["Delivery: D12 – D12", "Kiosk: K12 – K12"]);

  for (const asked of ["K12", "k12"]) {
    await page.getByLabel("Order number").fill(asked);
    await page.getByRole("button", { name: "Find" }).click();
    await expect(page.getByTestId("found-order")).toHaveCount(1);
    await expect(page.getByTestId("found-order")).toContainText("Shift 1 · #K12 · Kiosk");
    await expect(page.getByTestId("find-results")).toContainText("1 order with number K12");
  }
  await page.getByLabel("Order number").fill("12");
  await page.getByRole("button", { name: "Find" }).click();
  await expect(page.getByTestId("found-order")).toHaveCount(3);
  await expect(page.getByTestId("found-order").locator("p").first()).toHaveText("Shift 1 · #12");
  await expect(page.getByTestId("find-several")).toHaveText(
    "12 without letters matches more than one series (12, D12, and K12): add the letters, e.g. D12, to see one.",
  );
  await page.screenshot({ path: `${SHOTS}/kitchen-series-manager-find-en.png`, fullPage: true });

  await page.getByLabel("Order number").fill("X12");
  await page.getByRole("button", { name: "Find" }).click();
  await expect(page.getByTestId("find-none")).toContainText("No order number X12");

  await page.goto(`/${t.slug}/manager/history?lang=zh-CN&number=12`);
  await expect(page.getByTestId("find-several")).toHaveText("不带字母的 12 对应多个号码系列（12、D12和K12）：加上字母（如 D12）即可只看其中一个。");

  // Figures: the whole day per series, the default first.
  await page.goto(`/${t.slug}/manager/figures?lang=en`);
  const rows = page.getByTestId("series-times").locator("tbody tr");
  await expect(rows.locator("th")).toHaveText(["Default (no letters)", "Delivery (D)", "Kiosk (K)"]);
  await expect(rows.locator("td:first-of-type")).toHaveText(["12", "1", "1"]);
  await expectNoSeriousAxe(page, "figures per series (en)");
  await page.screenshot({ path: `${SHOTS}/kitchen-series-manager-figures-en.png`, fullPage: true });
  await page.goto(`/${t.slug}/manager/figures?lang=zh-CN`);
  await expect(page.getByRole("heading", { name: "全天各号码系列" })).toBeVisible();
  await expect(rows.locator("th")).toHaveText(["默认（无字母）", "Delivery（D）", "Kiosk（K）"]);
  await page.screenshot({ path: `${SHOTS}/kitchen-series-manager-figures-zh-CN.png`, fullPage: true });
  await page.goto(`/${t.slug}/manager/history?lang=en`);
});
