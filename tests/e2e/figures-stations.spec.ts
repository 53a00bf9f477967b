/**
 * The figures per kitchen station (issue #40) in a real browser: a Grill and a Bar, orders
 * done at both through the API, the table with parts, times and the station that finished
 * last most often, in English and Chinese at 1280×800. A restaurant without stations has no
 * such table.
 */
import type { APIRequestContext } from "@playwright/test";
import type { TestTenant } from "../support/tenants";
import { stableDaySpec } from "../support/fixtures";
import { expectNoSeriousAxe } from "./axe";
import { expect, signIn, test } from "./fixtures";

test.use({ viewport: { width: 1280, height: 800 } });

function api(request: APIRequestContext, t: TestTenant) {
  const headers = (key: string) => ({ authorization: `Bearer ${key}` });
  const post = async <T>(path: string, data: unknown, key = t.apiKeys.manager, status = 201): Promise<T> => {
    const res = await request.post(`/api/v1/orgs/${t.slug}/${path}`, { headers: headers(key), data });
    expect(res.status(), `${path}: ${await res.text()}`).toBe(status);
    return (await res.json()) as T;
  };
  return {
    post,
    done: (orderId: string, stationId: string) => post(`orders/${orderId}/stations/${stationId}/done`, {}, t.apiKeys.kitchen, 200),
  };
}

test("figures show a table per kitchen station: parts, time to done, and the station that holds orders up", async ({ page, newTenant, request }) => {
  const { timeZone, dayStart } = stableDaySpec("x");
  const t = await newTenant({ name: "Station Diner", timeZone, dayStart });
  const a = api(request, t);
  const grill = await a.post<{ id: string }>("stations", { name: "Grill" });
  const bar = await a.post<{ id: string }>("stations", { name: "Bar" });
  const food = await a.post<{ id: string }>("menu/categories", { name: "Food" });
  const steak = await a.post<{ id: string }>("menu/items", { categoryId: food.id, name: "Steak", stationId: grill.id });
  const beer = await a.post<{ id: string }>("menu/items", { categoryId: food.id, name: "Beer", stationId: bar.id });
  const place = (items: { menuItemId: string; qty: number }[]) => a.post<{ id: string }>("orders", { items }, t.apiKeys.cashier);
  // Four orders at both: the Grill finishes three of them last, the Bar one; one Bar-only order still open.
  const both = [];
  for (let i = 0; i < 4; i++)
    both.push(
      await place([
        { menuItemId: steak.id, qty: 1 },
        { menuItemId: beer.id, qty: 2 },
      ]),
    );
  for (const [i, o] of both.entries()) {
    const [first, second] = i === 0 ? [grill, bar] : [bar, grill];
    await a.done(o.id, first.id);
    await a.done(o.id, second.id);
  }
  await place([{ menuItemId: beer.id, qty: 1 }]);

  await signIn(page, t.slug, "Manager", t.staff.manager);
  await page.goto(`/${t.slug}/manager/figures?lang=en`);
  await expect(page.getByRole("heading", { level: 1, name: "Figures" })).toBeVisible();
  const table = page.getByTestId("station-times");
  await expect(page.getByRole("heading", { level: 2, name: "Kitchen stations" })).toBeVisible();
  await expect(table.getByRole("row")).toHaveCount(3);
  const grillRow = page.getByTestId(`station-row-${grill.id}`);
  const barRow = page.getByTestId(`station-row-${bar.id}`);
  await expect(grillRow.getByRole("rowheader")).toContainText("Grill");
  await expect(grillRow.getByRole("cell").first()).toHaveText("4");
  await expect(grillRow.getByTestId("station-last")).toHaveText("3 of 4 (75%)");
  await expect(barRow.getByRole("cell").first()).toHaveText("5");
  await expect(barRow.getByTestId("station-last")).toHaveText("1 of 4 (25%)");
  // The Grill holds orders up, and only it is marked.
  await expect(page.getByTestId("station-holds-up")).toHaveCount(1);
  await expect(grillRow.getByTestId("station-holds-up")).toHaveText("Holds orders up");
  await expectNoSeriousAxe(page, "figures per station (en)");
  await page.screenshot({ path: "test-results/screenshots/manager-figures-stations-en-full.png", fullPage: true });
  await table.scrollIntoViewIfNeeded();
  await page.getByRole("heading", { level: 2, name: "Kitchen stations" }).evaluate((h) => h.scrollIntoView({ block: "start" }));
  await page.screenshot({ path: "test-results/screenshots/manager-figures-stations-en.png" });

  await page.goto(`/${t.slug}/manager/figures?lang=zh-CN`);
  await expect(page.getByRole("heading", { level: 2, name: "后厨工位" })).toBeVisible();
  await expect(page.getByTestId(`station-row-${grill.id}`).getByTestId("station-last")).toHaveText("4 单中 3 单（75%）");
  await expect(page.getByTestId("station-holds-up")).toHaveText("拖慢出餐");
  await expectNoSeriousAxe(page, "figures per station (zh-CN)");
  await page.getByRole("heading", { level: 2, name: "后厨工位" }).evaluate((h) => h.scrollIntoView({ block: "start" }));
  await page.screenshot({ path: "test-results/screenshots/manager-figures-stations-zh-CN.png" });
});

test("a restaurant without stations shows no station table", async ({ page, newTenant }) => {
  const { timeZone, dayStart } = stableDaySpec("x");
  const t = await newTenant({ name: "Plain Diner", timeZone, dayStart });
  await signIn(page, t.slug, "Manager", t.staff.manager);
  await page.goto(`/${t.slug}/manager/figures?lang=en`);
  await expect(page.getByRole("heading", { level: 1, name: "Figures" })).toBeVisible();
  await expect(page.getByTestId("shift-times").or(page.getByText("This day has not started yet."))).toBeVisible();
  await expect(page.getByTestId("station-times")).toHaveCount(0);
});
