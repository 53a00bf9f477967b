/**
 * The day's takings (issue #41) on the Figures page in a real browser at 1280×800: orders
 * with options through the API over two shifts, channels and services, one cancelled and
 * one with a line without a price; the total, the breakdowns and the cancelled line in the
 * restaurant's currency, in English and Chinese. A day without orders shows 0 and no tables.
 */
import type { APIRequestContext } from "@playwright/test";
import type { TestTenant } from "../support/tenants";
import { addDays } from "@/lib/core/business-day";
import { stableDaySpec } from "../support/fixtures";
import { expectNoSeriousAxe } from "./axe";
import { expect, signIn, test } from "./fixtures";

test.use({ viewport: { width: 1280, height: 800 } });

function api(request: APIRequestContext, t: TestTenant) {
  const post = async <T>(path: string, data: unknown, key = t.apiKeys.manager, status = 201): Promise<T> => {
    const res = await request.post(`/api/v1/orgs/${t.slug}/${path}`, { headers: { authorization: `Bearer ${key}` }, data });
    expect(res.status(), `${path}: ${await res.text()}`).toBe(status);
    return (await res.json()) as T;
  };
  return post;
}

test("the takings come first on the figures: total, per shift, channel and service, and what was cancelled", async ({ page, newTenant, request }) => {
  const { timeZone, dayStart } = stableDaySpec("x");
  const t = await newTenant({ name: "Noodle Bar", timeZone, dayStart, floor: { currency: "EUR" } });
  const post = api(request, t);
  const noodles = await post<{ id: string }>("menu/categories", { name: "Noodles" });
  const beef = await post<{ id: string }>("menu/items", {
    categoryId: noodles.id,
    name: "Beef noodles",
    priceCents: 1250,
    optionGroups: [
      { name: "Size", required: true, options: [{ name: "Small" }, { name: "Large", priceCents: 200 }] },
      { name: "Spice", required: true, options: [{ name: "Mild" }, { name: "Extra spicy" }] },
    ],
  });
  const tea = await post<{ id: string }>("menu/items", { categoryId: noodles.id, name: "Tea", priceCents: 300 });
  const place = (body: unknown) => post<{ id: string }>("orders", body, t.apiKeys.cashier);
  const bowl = (qty: number, options: string[]) => ({ menuItemId: beef.id, qty, options });

  // Shift 1: 32.00 to take away at the counter, 12.50 (and an unpriced egg) eaten in from the kiosk, 14.50 cancelled.
  await place({
    channel: "counter",
    service: "takeAway",
    items: [
      { ...bowl(2, ["Large", "Extra spicy"]), note: "no coriander" },
      { menuItemId: tea.id, qty: 1 },
    ],
  });
  await place({ channel: "kiosk", service: "eatIn", items: [bowl(1, ["Small", "Mild"]), { name: "Extra egg", qty: 1 }] });
  const cancelled = await place({ channel: "counter", service: "eatIn", items: [bowl(1, ["Large", "Mild"])] });
  await post(`orders/${cancelled.id}/status`, { status: "CANCELLED" }, t.apiKeys.kitchen, 200);
  // Shift 2: 9.00 from a delivery platform, not stated.
  await post("shifts", {});
  await place({ channel: "delivery", items: [{ menuItemId: tea.id, qty: 3 }] });

  await signIn(page, t.slug, "Manager", t.staff.manager);
  await page.goto(`/${t.slug}/manager/figures?lang=en`);
  const takings = page.getByTestId("takings");
  await expect(takings.getByRole("heading", { level: 2 })).toContainText("Takings on");
  await expect(page.getByTestId("takings-total")).toHaveText("€53.50");
  await expect(page.getByTestId("takings-orders")).toHaveText("from 3 orders");
  await expect(page.getByTestId("takings-partial")).toContainText("1 order has a line without a price");
  await expect(page.getByTestId("takings-cancelled")).toHaveText("1 cancelled order, worth €14.50, not included.");
  const rows = (id: string) => page.getByTestId(`takings-by-${id}`).locator("tbody tr");
  await expect(rows("shift")).toHaveText([/Shift 1\s*2\s*€44\.50\s*\(partial\)/, /Shift 2\s*1\s*€9\.00/]);
  await expect(rows("channel")).toHaveText([/Kiosk\s*1\s*€12\.50/, /Counter\s*1\s*€32\.00/, /Delivery\s*1\s*€9\.00/]);
  await expect(rows("service")).toHaveText([/Eat in\s*1\s*€12\.50/, /Take away\s*1\s*€32\.00/, /Not stated\s*1\s*€9\.00/]);
  // It comes before the orders per hour.
  const [takingsTop, hoursTop] = await Promise.all([takings.boundingBox(), page.locator("#per-hour").boundingBox()]);
  expect(takingsTop!.y).toBeLessThan(hoursTop!.y);
  await expectNoSeriousAxe(page, "figures takings (en)");
  await page.screenshot({ path: "test-results/screenshots/manager-figures-takings-en-top.png" });
  await takings.evaluate((s) => s.scrollIntoView({ block: "start" }));
  await page.screenshot({ path: "test-results/screenshots/manager-figures-takings-en.png" });

  await page.goto(`/${t.slug}/manager/figures?lang=zh-CN`);
  await expect(page.getByTestId("takings-total")).toHaveText("€53.50");
  await expect(page.getByTestId("takings-orders")).toHaveText("共 3 个订单");
  await expect(page.getByTestId("takings-cancelled")).toHaveText("已取消 1 个订单，金额 €14.50，未计入。");
  await expect(rows("service")).toHaveText([/堂食\s*1\s*€12\.50/, /外带\s*1\s*€32\.00/, /未说明\s*1\s*€9\.00/]);
  await expectNoSeriousAxe(page, "figures takings (zh-CN)");
  await page.screenshot({ path: "test-results/screenshots/manager-figures-takings-zh-CN-top.png" });
  await page.getByTestId("takings").evaluate((s) => s.scrollIntoView({ block: "start" }));
  await page.screenshot({ path: "test-results/screenshots/manager-figures-takings-zh-CN.png" });

  // The day before took nothing: 0 in the restaurant's currency, no tables.
  const today = await page.locator("input[name=day]").inputValue();
  await page.goto(`/${t.slug}/manager/figures?lang=en&day=${addDays(today, -1)}`);
  await expect(page.getByTestId("takings-total")).toHaveText("€0.00");
  await expect(page.getByTestId("takings-orders")).toHaveText("from 0 orders");
  await expect(page.getByTestId("takings-by-shift")).toHaveCount(0);
  await page.screenshot({ path: "test-results/screenshots/manager-figures-takings-empty-en.png" });
});
