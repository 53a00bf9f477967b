/**
 * The cashier's kiosk: the ticket's link and QR code point where phones can reach the
 * server, the printed ticket fits 58 mm and 80 mm receipt paper alone on its page, the
 * last ticket can be reprinted (even after a reload), it speaks Chinese, and the board and
 * kiosk install full-screen from their own manifests.
 */
import type { Page } from "@playwright/test";
import { expect, signIn, test } from "./fixtures";
import { insertSeries } from "../support/tenants";

const SHOTS = "test-results/screenshots";
const PX_PER_MM = 96 / 25.4;
test.use({ viewport: { width: 1024, height: 768 } });

/** Counts window.print() calls (headless Chromium would otherwise do nothing visible). */
async function recordPrints(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { prints: number };
    w.prints = 0;
    window.print = () => void w.prints++;
  });
}
const prints = (page: Page) => page.evaluate(() => (window as unknown as { prints: number }).prints);

async function takeOrder(page: Page, item: string, button = "Take order") {
  await page.getByTestId("item-name-0").fill(item);
  await page.getByRole("button", { name: button }).click();
  await expect(page.getByTestId("issued-number")).toHaveText(/^\d+$/);
  return (await page.getByTestId("issued-number").textContent())!.trim();
}

test("the ticket links to the customer's page at the server's origin (no PUBLIC_URL: the request's)", async ({ page, baseURL, newTenant }) => {
  const t = await newTenant({ name: "Harbour Grill" });
  await signIn(page, t.slug, "Cashier", t.staff.cashier);
  await page.goto(`/${t.slug}/kiosk?lang=en`);
  await expect(page.getByRole("heading", { name: "New order" })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/kiosk-empty-en.png` });

  await page.getByTestId("item-name-0").fill("Fish and chips");
  await page.getByRole("button", { name: "+ Add item" }).click();
  await page.getByTestId("item-name-1").fill("Lemonade");
  await page.getByLabel("Note").fill("Extra vinegar");
  await page.getByRole("button", { name: "Take order" }).click();
  const number = (await page.getByTestId("issued-number").textContent())!.trim();
  const ticket = page.getByRole("article", { name: `Ticket for order ${number}` });
  await expect(ticket).toContainText("Harbour Grill");
  await expect(ticket).toContainText("Extra vinegar");
  const shown = (await ticket.getByTestId("ticket-url").textContent())!.trim();
  expect(shown).toMatch(new RegExp(`^${new URL(baseURL!).host.replace(/\./g, "\\.")}/${t.slug}/o/[0-9a-f-]{36}$`));
  await page.screenshot({ path: `${SHOTS}/kiosk-issued-en.png` });

  // The link works: the customer's page of this very order.
  const customer = await page.context().newPage();
  await customer.goto(`${new URL(baseURL!).protocol}//${shown}`);
  await expect(customer.getByTestId("order-number")).toHaveText(number);
  await customer.close();
});

for (const paper of [58, 80] as const) {
  test(`printing at ${paper} mm: only the ticket, and it fits the paper`, async ({ page, newTenant }) => {
    const t = await newTenant({ name: "The Very Long Named Noodle House of Excellent Dumplings" });
    await signIn(page, t.slug, "Cashier", t.staff.cashier);
    await page.goto(`/${t.slug}/kiosk?lang=en`);
    await page.getByText(`${paper} mm`, { exact: true }).click();
    await page.getByTestId("item-name-0").fill("Hand-pulled beef noodle soup with extra chili oil and coriander on the side");
    await page.getByLabel("Note").fill("Allergic to peanuts — PLEASE_CHECK_WITH_THE_KITCHEN_BEFORE_SERVING_THIS_ORDER");
    await page.getByRole("button", { name: "Take order" }).click();
    const number = (await page.getByTestId("issued-number").textContent())!.trim();

    await page.emulateMedia({ media: "print" });
    const root = page.getByTestId("print-root");
    await expect(root.getByTestId("ticket")).toBeVisible();
    await expect(root.getByTestId("ticket-number")).toHaveText(number);
    for (const other of [page.getByTestId("issued-number"), page.getByRole("button", { name: "Next order" }), page.getByRole("banner")])
      await expect(other).toBeHidden();
    expect(await root.locator("style").evaluate((el) => el.textContent)).toMatch(new RegExp(`@page \\{ size: ${paper}mm \\d+mm; margin: 0; \\}`));

    const fit = await root.getByTestId("ticket").evaluate((el) => {
      const box = el.getBoundingClientRect();
      const outside = [...el.querySelectorAll("*")].filter((c) => {
        const r = c.getBoundingClientRect();
        return r.width > 0 && (r.left < box.left - 0.5 || r.right > box.right + 0.5);
      });
      return {
        width: box.width,
        left: box.left,
        top: box.top,
        scroll: el.scrollWidth,
        client: el.clientWidth,
        outside: outside.map((c) => c.outerHTML.slice(0, 80)),
      };
    });
    expect(fit.width).toBeCloseTo(paper * PX_PER_MM, 0);
    expect(fit.outside).toEqual([]);
    expect(fit.scroll).toBeLessThanOrEqual(fit.client);
    // It starts the page: nothing above or beside it on the paper.
    expect(fit.left).toBe(0);
    expect(fit.top).toBe(0);
    await root.getByTestId("ticket").screenshot({ path: `${SHOTS}/kiosk-ticket-${paper}mm-en.png` });
    await page.emulateMedia({ media: "screen" });
  });
}

test("a kiosk whose channel a series with a prefix serves issues K300: the screen, the ticket on either paper and the reprint show it whole", async ({
  page,
  newTenant,
}) => {
  const t = await newTenant({ name: "Harbour Grill" });
  // Before anything reads the new restaurant: a node reads its series with it.
  await insertSeries(process.env.E2E_DATABASE_URL!, t.id, { name: "Kiosk", prefix: "K", first: 300, last: 599, channels: ["kiosk"] });
  await recordPrints(page);
  await signIn(page, t.slug, "Cashier", t.staff.cashier);
  await page.goto(`/${t.slug}/kiosk?lang=en`);
  await page.getByTestId("item-name-0").fill("Dumplings");
  await page.getByRole("button", { name: "Take order" }).click();
  await expect(page.getByTestId("issued-number")).toHaveText("K300");
  await expect(page.getByText("Order number K300 taken.")).toBeAttached();
  const ticket = page.getByRole("article", { name: "Ticket for order K300" });
  await expect(ticket.getByTestId("ticket-number")).toHaveText("K300");
  const whole = (testId: string) =>
    page
      .getByTestId(testId)
      .first()
      .evaluate((el) => el.scrollWidth <= el.clientWidth);
  expect(await whole("issued-number")).toBe(true);
  await page.screenshot({ path: `${SHOTS}/kiosk-issued-series-en.png` });

  for (const paper of [58, 80] as const) {
    await page.getByText(`${paper} mm`, { exact: true }).click();
    await expect(ticket).toHaveAttribute("data-paper", String(paper));
    expect(await whole("ticket-number")).toBe(true);
  }
  await page.getByRole("button", { name: "Next order" }).click();
  await expect(page.getByTestId("reprint")).toBeVisible();
  await expect(page.getByText(/^Number K300, taken at /)).toBeVisible();
});

test("the paper width and the last ticket are remembered on the device: reprint after Next order and after a reload", async ({ page, newTenant }) => {
  const t = await newTenant();
  await recordPrints(page);
  await signIn(page, t.slug, "Cashier", t.staff.cashier);
  await page.goto(`/${t.slug}/kiosk?lang=en`);
  await expect(page.getByTestId("reprint")).toHaveCount(0);
  await page.getByText("58 mm", { exact: true }).click();
  const number = await takeOrder(page, "Dumplings");
  const url = (await page.getByTestId("ticket").first().getByTestId("ticket-url").textContent())!.trim();
  await page.getByRole("button", { name: "Print ticket" }).click();
  expect(await prints(page)).toBe(1);
  await page.getByRole("button", { name: "Next order" }).click();

  const reprint = page.getByRole("button", { name: "Reprint last ticket" });
  await expect(page.getByText(`Number ${number}, taken at`)).toBeVisible();
  await reprint.click();
  expect(await prints(page)).toBe(2);
  await expect(page.getByTestId("print-root").getByTestId("ticket-number")).toHaveText(number);

  await page.reload();
  await reprint.click();
  expect(await prints(page)).toBe(1);
  const root = page.getByTestId("print-root");
  await expect(root.getByTestId("ticket-number")).toHaveText(number);
  await expect(root.getByTestId("ticket-url")).toHaveText(url);
  await expect(root.getByTestId("ticket")).toHaveAttribute("data-paper", "58");
  await expect(page.getByRole("radio", { name: "58 mm" })).toBeChecked();
});

test("a cashier takes orders with the keyboard only: type, Ctrl+Enter, Enter for the next order", async ({ page, newTenant }) => {
  const t = await newTenant();
  await signIn(page, t.slug, "Cashier", t.staff.cashier);
  await page.goto(`/${t.slug}/kiosk?lang=en`);
  const item = page.getByTestId("item-name-0");
  await expect(item).toBeFocused();
  await page.keyboard.type("Dumplings");
  // Enter adds a line (tests/e2e/kiosk-cashier.spec.ts); Ctrl+Enter takes the order.
  await page.keyboard.press("Control+Enter");
  await expect(page.getByTestId("issued-number")).toHaveText("1");
  await expect(page.getByRole("button", { name: "Next order" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(item).toBeFocused();
  await page.keyboard.type("Rice");
  await page.keyboard.press("Control+Enter");
  await expect(page.getByTestId("issued-number")).toHaveText("2");
});

test("the kiosk shows the offline banner when the server cannot be reached", async ({ page, newTenant }) => {
  const t = await newTenant();
  await signIn(page, t.slug, "Cashier", t.staff.cashier);
  // The socket goes through a relay the test can cut (and polling is refused outright).
  let reachable = true;
  const relays: { close: () => Promise<void> }[] = [];
  await page.routeWebSocket(/socket\.io/, (ws) => {
    if (reachable) relays.push(ws.connectToServer());
    else void ws.close();
  });
  await page.route(/socket\.io/, (route) => route.abort());
  await page.goto(`/${t.slug}/kiosk?lang=en`);
  await expect(page.locator("main")).toHaveAttribute("data-connection", "live");
  await expect(page.getByTestId("offline-banner")).toHaveCount(0);

  reachable = false;
  await Promise.all(relays.map((r) => r.close()));
  await expect(page.getByTestId("offline-banner")).toBeVisible();
  await expect(page.getByTestId("offline-banner")).toContainText(/Offline — last updated \d\d:\d\d/);
  // The form stays usable-looking: nothing is hidden behind the banner.
  await expect(page.getByRole("button", { name: "Take order" })).toBeVisible();
});

test("the kiosk in Chinese", async ({ page, newTenant }) => {
  const t = await newTenant({ name: "金龙餐厅" });
  await signIn(page, t.slug, "Cashier", t.staff.cashier);
  await page.goto(`/${t.slug}/kiosk?lang=zh-CN`);
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
  await expect(page.getByRole("heading", { name: "新订单" })).toBeVisible();
  await expect(page.getByRole("group", { name: "小票纸宽" })).toBeVisible();
  await expect(page.getByLabel("数量")).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/kiosk-empty-zh-CN.png` });

  await page.getByTestId("item-name-0").fill("牛肉面");
  await page.getByLabel("备注").fill("不要香菜");
  await page.getByRole("button", { name: "下单" }).click();
  await expect(page.getByRole("heading", { name: "已下单——顾客号码" })).toBeVisible();
  const ticket = page.getByTestId("ticket").first();
  await expect(ticket).toContainText("您的号码");
  await expect(ticket).toContainText("备注：不要香菜");
  await expect(page.getByRole("button", { name: "下一单" })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/kiosk-issued-zh-CN.png` });

  await page.emulateMedia({ media: "print" });
  await page
    .getByTestId("print-root")
    .getByTestId("ticket")
    .screenshot({ path: `${SHOTS}/kiosk-ticket-80mm-zh-CN.png` });
});

test("the site, the board and the kiosk have web app manifests and icons", async ({ page, request, newTenant }) => {
  const t = await newTenant({ name: "Harbour Grill" });
  const site = await request.get("/manifest.webmanifest");
  expect(site.status()).toBe(200);
  expect(site.headers()["content-type"]).toMatch(/^application\/manifest\+json/);
  const siteManifest = (await site.json()) as { name: string; display_override: string[]; icons: { src: string; purpose: string }[] };
  expect(siteManifest.name).toBe("Nextup");
  expect(siteManifest.display_override).toEqual(["fullscreen", "standalone"]);
  expect(siteManifest.icons.map((i) => i.purpose)).toContain("maskable");
  for (const icon of siteManifest.icons) {
    const res = await request.get(icon.src);
    expect(res.status(), icon.src).toBe(200);
    expect(res.headers()["content-type"]).toBe("image/png");
  }

  for (const screen of ["board", "kiosk"]) {
    const res = await request.get(`/${t.slug}/manifest/${screen}?lang=en`);
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toMatch(/^application\/manifest\+json/);
    // Its names follow the language: no shared cache keeps it, and the answer says what it varies on.
    expect(res.headers()["cache-control"]).toBe("private, no-cache");
    expect(res.headers()["vary"]).toMatch(/Accept-Language/);
    expect(await res.json()).toMatchObject({
      start_url: `/${t.slug}/${screen}`,
      scope: `/${t.slug}/`,
      display: "fullscreen",
      name: expect.stringContaining("Harbour Grill"),
    });
  }
  expect((await request.get(`/${t.slug}/manifest/manager`)).status()).toBe(404);
  expect((await request.get(`/no-such-restaurant/manifest/board`)).status()).toBe(404);

  await page.goto(`/${t.slug}/board`);
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute("href", `/${t.slug}/manifest/board`);
  await signIn(page, t.slug, "Cashier", t.staff.cashier);
  await page.goto(`/${t.slug}/kiosk`);
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute("href", `/${t.slug}/manifest/kiosk`);
});
