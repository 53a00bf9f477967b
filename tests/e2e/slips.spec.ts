/**
 * Issue #41's small slips on real screens, in English and Chinese: the menu editor's one-tap
 * sold out with Undo, the new shift naming the numbers it will skip per series, a day picked
 * in the page's language (not the browser's), and the kiosk's example dish from its own menu.
 * Screenshots go to test-results/screenshots/slips-*.png.
 */
import type { APIRequestContext } from "@playwright/test";
import { expect, signIn, test } from "./fixtures";
import { expectNoSeriousAxe } from "./axe";

const shot = (name: string) => ({ path: `test-results/screenshots/slips-${name}.png` });

type Tenant = { slug: string; apiKeys: Record<string, string> };
const api = (request: APIRequestContext, t: Tenant, key: "manager" | "cashier" | "kitchen") => ({
  post: async <T>(path: string, data: unknown, status = 201): Promise<T> => {
    const res = await request.post(`/api/v1/orgs/${t.slug}/${path}`, { headers: { authorization: `Bearer ${t.apiKeys[key]}` }, data });
    expect(res.status(), await res.text()).toBe(status);
    return (await res.json()) as T;
  },
});

/** A noodle shop's small menu over the API: Noodles (two dishes) and Drinks. */
async function noodleMenu(request: APIRequestContext, t: Tenant) {
  const m = api(request, t, "manager");
  const noodles = await m.post<{ id: string }>("menu/categories", { name: "Noodles" });
  await m.post("menu/items", { categoryId: noodles.id, name: "Beef noodles", priceCents: 1250 });
  await m.post("menu/items", { categoryId: noodles.id, name: "Dan dan noodles", priceCents: 1100 });
  const drinks = await m.post<{ id: string }>("menu/categories", { name: "Drinks" });
  await m.post("menu/items", { categoryId: drinks.id, name: "Jasmine tea", priceCents: 300 });
}

/** "2026-11-28" as a Chinese page writes it, built by hand: "2026年11月28日". */
const zhDay = (day: string) => {
  const [y, m, d] = day.split("-").map(Number);
  return `${y}年${m}月${d}日`;
};
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

test.describe("the console at 1280×800", () => {
  test.use({ viewport: { width: 1280, height: 800 }, locale: "en-US" });

  test("sold out is one tap with Undo, in Chinese too", async ({ page, request, newTenant }) => {
    const t = await newTenant({ name: "Noodle Bar" });
    await noodleMenu(request, t);
    await signIn(page, t.slug, "Manager", t.staff.manager);
    for (const lang of ["en", "zh-CN"] as const) {
      await page.goto(`/${t.slug}/manager/menu?lang=${lang}`);
      const beef = page.getByRole("button", { name: /^Beef noodles/ });
      await expect(beef).toHaveAttribute("aria-pressed", lang === "en" ? "false" : "true");
      await beef.click();
      await expect(beef).toHaveAttribute("aria-pressed", lang === "en" ? "true" : "false");
      // A screen reader hears the dish and the state it is in now.
      await expect(beef).toHaveAccessibleName(lang === "en" ? "Beef noodles Sold out" : "Beef noodles 供应中");
      await expectNoSeriousAxe(page, `menu (${lang})`);
      await expect(
        page.getByRole("button", { name: lang === "en" ? "Undo the last change to “Beef noodles”" : "撤销对“Beef noodles”的上一次更改" }),
      ).toBeVisible();
      await page.screenshot(shot(`menu-${lang}`));
    }
    // The kitchen's list agrees: the Chinese tap put Beef noodles back on sale.
    const menu = await (await request.get(`/api/v1/orgs/${t.slug}/menu`, { headers: { authorization: `Bearer ${t.apiKeys.manager}` } })).json();
    const beef = (menu as { categories: { items: { name: string; available: boolean }[] }[] }).categories[0]!.items[0]!;
    expect(beef).toMatchObject({ name: "Beef noodles", available: true });
  });

  test("the new shift names the open numbers it will skip, per series", async ({ page, request, newTenant }) => {
    const t = await newTenant({ name: "Noodle Bar" });
    await api(request, t, "manager").post("series", { name: "Takeaway", prefix: "K", first: 1, last: 50 });
    const cashier = api(request, t, "cashier");
    const taken: { id: string }[] = [];
    for (let i = 0; i < 9; i++) taken.push(await cashier.post<{ id: string }>("orders", { items: [{ name: "Soup", qty: 1 }] }));
    for (const i of [1, 5, 6])
      for (const status of ["READY", "COLLECTED"]) await api(request, t, "kitchen").post(`orders/${taken[i]!.id}/status`, { status }, 200);
    for (let i = 0; i < 3; i++) await cashier.post("orders", { items: [{ name: "Soup", qty: 1 }], series: "Takeaway" });
    await signIn(page, t.slug, "Manager", t.staff.manager);

    await page.goto(`/${t.slug}/manager?lang=en`);
    const skips = page.getByTestId("shift-skips");
    await expect(skips.getByRole("listitem")).toHaveText([
      "Default: Next number 2; 1, 3–5, 8, 9 are still open and will be skipped.",
      "Takeaway: Next number K4; K1–K3 are still open and will be skipped.",
    ]);
    await page.getByLabel("First number").fill("4");
    await expect(skips.getByRole("listitem").first()).toHaveText("Default: Next number 6; 4, 5, 8, 9 are still open and will be skipped.");
    await page.getByLabel("First number").fill("1");
    await skips.scrollIntoViewIfNeeded();
    await page.screenshot(shot("overview-en"));
    await page.getByRole("button", { name: "Start new shift…" }).click();
    await expect(skips.getByRole("listitem").first()).toHaveText("Default: Next number 2; 1, 3–5, 8, 9 are still open and will be skipped.");
    await page.getByRole("button", { name: "Yes, start shift 2" }).scrollIntoViewIfNeeded();
    await page.screenshot(shot("new-shift-en"));

    await page.goto(`/${t.slug}/manager?lang=zh-CN`);
    await page.getByRole("button", { name: "开始新班次…" }).click();
    await expect(skips.getByRole("listitem")).toHaveText([
      "Default：下一个号码是 2；1、3–5、8、9 仍未完成，将被跳过。",
      "Takeaway：下一个号码是 K4；K1–K3 仍未完成，将被跳过。",
    ]);
    await page.getByRole("button", { name: "确定，开始第 2 班次" }).scrollIntoViewIfNeeded();
    await page.screenshot(shot("new-shift-zh-CN"));
  });

  test("a day is picked in the page's language, whatever the browser's", async ({ page, newTenant }) => {
    const t = await newTenant();
    await signIn(page, t.slug, "Manager", t.staff.manager);
    const day = daysAgo(3);
    await page.goto(`/${t.slug}/manager/figures?lang=zh-CN&day=${day}`);
    const field = page.getByTestId("date-field-day");
    await expect(field).toContainText(zhDay(day));
    await expect(field).not.toContainText("/");
    // The arrow keys step a day; the form sends the day shown.
    await field.press("ArrowLeft");
    await expect(field).toContainText(zhDay(daysAgo(4)));
    await page.screenshot(shot("figures-zh-CN"));
    await page.getByRole("button", { name: "查看", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`day=${daysAgo(4)}`));
    await expect(field).toContainText(zhDay(daysAgo(4)));

    await page.goto(`/${t.slug}/manager/history?lang=zh-CN&day=${day}`);
    await expect(page.getByTestId("date-field-from")).toContainText(zhDay(day));
    await page.screenshot(shot("history-zh-CN"));
    await page.goto(`/${t.slug}/manager/figures?lang=en&day=${day}`);
    const [y, m, d] = day.split("-").map(Number);
    const month = new Date(Date.UTC(y!, m! - 1, d)).toLocaleString("en-GB", { month: "short", timeZone: "UTC" });
    await expect(field).toContainText(`${d} ${month} ${y}`);
    await page.screenshot(shot("figures-en"));
  });
});

test.describe("the kiosk at 1024×768", () => {
  test.use({ viewport: { width: 1024, height: 768 } });

  test("its example dish comes from its own menu, or there is none", async ({ page, request, newTenant }) => {
    const bare = await newTenant({ name: "No Menu Yet" });
    await signIn(page, bare.slug, "Cashier", bare.staff.cashier);
    await page.goto(`/${bare.slug}/kiosk?lang=en`);
    await expect(page.getByTestId("item-name-0")).toBeVisible();
    await expect(page.getByTestId("item-name-0")).not.toHaveAttribute("placeholder", /.+/);

    const t = await newTenant({ name: "Noodle Bar" });
    await noodleMenu(request, t);
    await signIn(page, t.slug, "Cashier", t.staff.cashier);
    for (const [lang, text] of [
      ["en", "e.g. Beef noodles"],
      ["zh-CN", "例如：Beef noodles"],
    ] as const) {
      await page.goto(`/${t.slug}/kiosk?lang=${lang}`);
      await expect(page.getByTestId("item-name-0")).toHaveAttribute("placeholder", text);
      await page.screenshot(shot(`kiosk-${lang}`));
    }
  });
});
