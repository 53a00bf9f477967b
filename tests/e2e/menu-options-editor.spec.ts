/**
 * The console's option editor in a real browser (issue #41): a manager gives a category a
 * shared group and a dish its own, with extra prices, in English and Chinese; a blank option
 * is refused on screen in the page's language; the menu the API answers then has them, and
 * an edit keeps the ids the server gave.
 */
import type { APIRequestContext } from "@playwright/test";
import type { TestTenant } from "../support/tenants";
import { expect, signIn, test } from "./fixtures";

test.use({ viewport: { width: 1280, height: 800 } });

interface Group {
  id: string;
  name: string;
  required: boolean;
  min: number;
  max: number;
  options: { id: string; name: string; priceCents: number }[];
}
interface Menu {
  categories: { id: string; name: string; optionGroups: Group[]; items: { id: string; name: string; optionGroups: Group[] }[] }[];
}

async function api<T>(request: APIRequestContext, t: TestTenant, method: "GET" | "POST", path: string, data?: unknown): Promise<T> {
  const res = await request.fetch(`/api/v1/orgs/${t.slug}/${path}`, { method, headers: { authorization: `Bearer ${t.apiKeys.manager}` }, data });
  expect(res.status(), `${method} ${path}: ${await res.text()}`).toBeLessThan(300);
  return (await res.json()) as T;
}

const WORDS = {
  en: {
    category: "Noodles",
    dish: "Beef noodles",
    spice: "Spice",
    size: "Size",
    summaryCategory: "Options of “Noodles”",
    summaryDish: "Options of “Beef noodles”",
    addGroup: "Add option group",
    addOption: "Add option",
    group: "Group",
    required: "Required",
    option: (n: number) => `Option ${n}`,
    price: (name: string) => `Extra price for ${name}`,
    save: "Save options",
    saved: (name: string) => `Options of “${name}” saved.`,
    namesRequired: "Give every group and every option a name.",
    inherited: "Also offered from its category: Spice.",
  },
  "zh-CN": {
    category: "面类",
    dish: "牛肉面",
    spice: "辣度",
    size: "份量",
    summaryCategory: "“面类”的选项",
    summaryDish: "“牛肉面”的选项",
    addGroup: "添加选项组",
    addOption: "添加选项",
    group: "选项组",
    required: "必选",
    option: (n: number) => `选项 ${n}`,
    price: (name: string) => `${name} 的加价`,
    save: "保存选项",
    saved: (name: string) => `“${name}”的选项已保存。`,
    namesRequired: "请为每个选项组和每个选项填写名称。",
    inherited: "另有来自分类的选项：辣度。",
  },
} as const;

for (const locale of ["en", "zh-CN"] as const) {
  test(`a manager gives a category a shared group and a dish its own, with extra prices (${locale})`, async ({ page, request, newTenant }) => {
    const W = WORDS[locale];
    const t = await newTenant({ name: "Options House" });
    const cat = await api<{ id: string }>(request, t, "POST", "menu/categories", { name: W.category });
    await api(request, t, "POST", "menu/items", { categoryId: cat.id, name: W.dish, priceCents: 1250 });

    await signIn(page, t.slug, "Manager", t.staff.manager);
    await page.goto(`/${t.slug}/manager/menu?lang=${locale}`);
    const region = page.getByRole("region", { name: W.category });

    // The category: one required group, two options; the first save has a blank option and is refused.
    const catEditor = region.locator("details").filter({ hasText: W.summaryCategory }).first();
    await catEditor.locator("summary").click();
    await catEditor.getByRole("button", { name: W.addGroup, exact: true }).click();
    await catEditor.getByLabel(W.group, { exact: true }).fill(W.spice);
    await catEditor.getByLabel(W.option(1), { exact: true }).fill(locale === "en" ? "Mild" : "微辣");
    await catEditor.getByRole("button", { name: W.addOption, exact: true }).click();
    await catEditor.getByRole("button", { name: W.save, exact: true }).click();
    await expect(catEditor.getByRole("alert")).toHaveText(W.namesRequired);
    await catEditor.getByLabel(W.option(2), { exact: true }).fill(locale === "en" ? "Extra spicy" : "特辣");
    await catEditor.getByRole("button", { name: W.save, exact: true }).click();
    await expect(catEditor.getByRole("status")).toHaveText(W.saved(W.category));

    // The dish: its own required Size, Large costing 2.00 more.
    const dishEditor = region.locator("details").filter({ hasText: W.summaryDish });
    await dishEditor.locator("summary").click();
    await expect(dishEditor.getByText(W.inherited)).toBeVisible();
    await dishEditor.getByRole("button", { name: W.addGroup, exact: true }).click();
    await dishEditor.getByLabel(W.group, { exact: true }).fill(W.size);
    await dishEditor.getByLabel(W.option(1), { exact: true }).fill(locale === "en" ? "Small" : "小碗");
    await dishEditor.getByRole("button", { name: W.addOption, exact: true }).click();
    const large = locale === "en" ? "Large" : "大碗";
    await dishEditor.getByLabel(W.option(2), { exact: true }).fill(large);
    await dishEditor.getByLabel(W.price(large), { exact: true }).fill("2");
    await dishEditor.getByRole("button", { name: W.save, exact: true }).click();
    await expect(dishEditor.getByRole("status")).toHaveText(W.saved(W.dish));
    await page.screenshot({ path: `test-results/screenshots/manager-menu-options-${locale}.png`, fullPage: true });

    const menu = await api<Menu>(request, t, "GET", "menu");
    const noodles = menu.categories.find((c) => c.id === cat.id)!;
    expect(noodles.optionGroups.map((g) => [g.name, g.required, g.min, g.max, g.options.map((o) => [o.name, o.priceCents])])).toEqual([
      [
        W.spice,
        true,
        1,
        1,
        [
          [locale === "en" ? "Mild" : "微辣", 0],
          [locale === "en" ? "Extra spicy" : "特辣", 0],
        ],
      ],
    ]);
    const dish = noodles.items[0]!;
    expect(dish.optionGroups.map((g) => [g.name, g.options.map((o) => [o.name, o.priceCents])])).toEqual([
      [
        W.size,
        [
          [locale === "en" ? "Small" : "小碗", 0],
          [large, 200],
        ],
      ],
    ]);

    // An edit of the price keeps the ids the server gave: orders that named them still mean them.
    await dishEditor.getByLabel(W.price(large), { exact: true }).fill("2.50");
    await dishEditor.getByRole("button", { name: W.save, exact: true }).click();
    await expect.poll(async () => (await api<Menu>(request, t, "GET", "menu")).categories[0]!.items[0]!.optionGroups[0]!.options[1]!.priceCents).toBe(250);
    const after = (await api<Menu>(request, t, "GET", "menu")).categories[0]!.items[0]!.optionGroups[0]!;
    expect(after.id).toBe(dish.optionGroups[0]!.id);
    expect(after.options.map((o) => o.id)).toEqual(dish.optionGroups[0]!.options.map((o) => o.id));
  });
}
