/**
 * Kitchen stations in the console, in Chromium at 1280×800 (issue #40): the manager adds
 * Grill and Bar, makes Bar the default, gives Grill a chit printer, is told in words why the
 * default cannot go, copies and opens a station screen's link, names stations on a menu
 * category and an item, removes a station with open work after confirming, and chooses when
 * an order with stations is ready. The same pages in Chinese. Axe on each; screenshots under
 * test-results/screenshots/.
 */
import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { expectNoSeriousAxe } from "./axe";
import { expect, signIn, test } from "./fixtures";
import type { TestTenant } from "../support/tenants";

const SHOTS = "test-results/screenshots";
const CONSOLE = { width: 1280, height: 800 };

interface Station {
  id: string;
  name: string;
  default: boolean;
  printerId: string | null;
  open: number;
}
interface Menu {
  categories: { id: string; name: string; stationId: string | null; items: { id: string; name: string; stationId: string | null }[] }[];
}

/** The manager's REST API of a restaurant. */
function api(request: APIRequestContext, t: TestTenant) {
  const headers = { authorization: `Bearer ${t.apiKeys.manager}` };
  const url = (path: string) => `/api/v1/orgs/${t.slug}/${path}`;
  return {
    async post<T>(path: string, data: unknown, key = t.apiKeys.manager): Promise<T> {
      const res = await request.post(url(path), { headers: { authorization: `Bearer ${key}` }, data });
      expect(res.status(), await res.text()).toBeLessThan(300);
      return (await res.json()) as T;
    },
    async get<T>(path: string): Promise<T> {
      const res = await request.get(url(path), { headers });
      expect(res.status(), await res.text()).toBe(200);
      return (await res.json()) as T;
    },
  };
}

/** A small menu: Mains (Burger) and Drinks (Tea), no stations named yet. */
async function seedMenu(m: ReturnType<typeof api>) {
  const mains = await m.post<{ id: string }>("menu/categories", { name: "Mains" });
  const drinks = await m.post<{ id: string }>("menu/categories", { name: "Drinks" });
  const burger = await m.post<{ id: string }>("menu/items", { categoryId: mains.id, name: "Burger", priceCents: 900 });
  const tea = await m.post<{ id: string }>("menu/items", { categoryId: drinks.id, name: "Tea", priceCents: 300 });
  return { mains, drinks, burger, tea };
}

const card = (page: Page, name: string): Locator => page.getByTestId("station").filter({ has: page.getByRole("heading", { level: 2, name, exact: true }) });

test("a manager adds Grill and Bar, makes Bar the default, names stations on the menu, copies and opens a screen link", async ({
  page,
  newTenant,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const t = await newTenant({ name: "Station Grill House" });
  const m = api(request, t);
  const menu = await seedMenu(m);
  const printer = await m.post<{ id: string }>("printers", { name: "Pass printer", host: "127.0.0.1", port: 65_000 });
  await page.setViewportSize(CONSOLE);
  await signIn(page, t.slug, "Manager", t.staff.manager);
  await page.goto(`/${t.slug}/manager`);
  await page.getByRole("navigation", { name: "Manager console" }).getByRole("link", { name: "Stations" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Kitchen stations" })).toBeVisible();
  await expect(page.getByText("No stations yet")).toBeVisible();

  // Grill first (the default by itself), then Bar, each typed and sent with Enter.
  const name = page.getByLabel("Name", { exact: true });
  await name.fill("Grill");
  await name.press("Enter");
  await expect(page.getByText("Station Grill added: it is the default station.")).toBeVisible();
  await expect(card(page, "Grill").getByTestId("station-default")).toHaveText("Default");
  await expect(name).toHaveValue("");
  await name.fill("Bar");
  await name.press("Enter");
  await expect(page.getByText("Station Bar added.")).toBeVisible();
  await expect(page.getByTestId("station")).toHaveCount(2);
  // A name taken in other letters' case: refused in words, what was typed kept.
  await name.fill("grill");
  await name.press("Enter");
  await expect(page.getByTestId("station-add-error")).toHaveText("There is already a station with this name.");
  await expect(name).toHaveValue("grill");
  await name.fill("");

  await card(page, "Bar").getByRole("button", { name: "Make default: Bar" }).click();
  await expect(page.getByText("Bar is now the default station.")).toBeVisible();
  await expect(card(page, "Bar").getByTestId("station-default")).toBeVisible();
  await expect(card(page, "Grill").getByTestId("station-default")).toHaveCount(0);

  await card(page, "Grill").getByLabel("Chit printer").selectOption({ label: "Pass printer" });
  await card(page, "Grill").getByRole("button", { name: "Save printer of Grill" }).click();
  await expect(page.getByText("Chit printer of Grill saved.")).toBeVisible();
  const stations = (await m.get<{ stations: Station[] }>("stations")).stations;
  const [grill, bar] = [stations.find((s) => s.name === "Grill")!, stations.find((s) => s.name === "Bar")!];
  expect([grill.printerId, bar.printerId, bar.default, grill.default]).toEqual([printer.id, null, true, false]);

  // The default cannot go while Grill is there: said on Bar's card, nothing removed.
  await card(page, "Bar").getByRole("button", { name: "Remove Bar" }).click();
  await expect(card(page, "Bar").getByTestId("station-error")).toHaveText(
    "This is the default station: it takes every line without a station. Make another station the default first, then remove this one.",
  );
  await expect(page.getByTestId("station")).toHaveCount(2);
  await expectNoSeriousAxe(page, "stations page (en)");
  await page.screenshot({ path: `${SHOTS}/console-stations-en.png` });

  // The screen link: the full address, copied, and opened in a new tab.
  const link = card(page, "Grill").getByTestId("station-link");
  const url = `${baseURL}/${t.slug}/kitchen?station=${grill.id}`;
  await expect(link).toHaveText(url);
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await card(page, "Grill").getByRole("button", { name: "Copy link of Grill" }).click();
  await expect(card(page, "Grill").getByText("Link of Grill copied")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  const [screen] = await Promise.all([
    page.context().waitForEvent("page"),
    card(page, "Grill").getByRole("link", { name: "Open screen of Grill (new tab)" }).click(),
  ]);
  await screen.waitForLoadState();
  expect(screen.url()).toBe(url);
  await screen.close();

  // The menu: Mains made at the grill (its category), Tea at the bar (its own).
  await page.getByRole("navigation", { name: "Manager console" }).getByRole("link", { name: "Menu" }).click();
  const mains = page.getByTestId("menu-category").filter({ has: page.getByRole("heading", { name: "Mains" }) });
  await expect(mains.getByLabel("Station", { exact: true })).toHaveValue("");
  await expect(mains.getByLabel("Station", { exact: true }).locator("option").first()).toHaveText("Default station (Bar)");
  await mains.getByLabel("Station", { exact: true }).selectOption({ label: "Grill" });
  await mains.getByRole("button", { name: "Set station of category “Mains”" }).click();
  await expect(page.getByLabel("Station of “Burger”").locator("option").first()).toHaveText("Category's (Grill)");
  await page.getByLabel("Station of “Tea”").selectOption({ label: "Bar" });
  await page.getByRole("button", { name: "Save “Tea”" }).click();
  await expect
    .poll(async () => (await m.get<Menu>("menu")).categories.flatMap((c) => [[c.name, c.stationId], ...c.items.map((i) => [i.name, i.stationId])]))
    .toEqual([
      ["Mains", grill.id],
      ["Burger", null],
      ["Drinks", null],
      ["Tea", bar.id],
    ]);
  await page.reload();
  await expect(mains.getByLabel("Station", { exact: true })).toHaveValue(grill.id);
  await expect(page.getByLabel("Station of “Tea”")).toHaveValue(bar.id);
  await expectNoSeriousAxe(page, "menu with stations (en)");
  await page.screenshot({ path: `${SHOTS}/console-menu-stations-en.png` });

  // An order of a burger and a tea: one part each; removing Grill is confirmed first and moves its work to Bar.
  const order = await m.post<{ stations: { name: string }[] }>(
    "orders",
    {
      items: [
        { menuItemId: menu.burger.id, qty: 1 },
        { menuItemId: menu.tea.id, qty: 1 },
      ],
    },
    t.apiKeys.cashier,
  );
  expect(order.stations.map((p) => p.name)).toEqual(["Grill", "Bar"]);
  await page.goto(`/${t.slug}/manager/stations`);
  await expect(card(page, "Grill").getByTestId("station-open")).toHaveText("1 open order");
  await card(page, "Grill").getByRole("button", { name: "Remove Grill" }).click();
  await expect(card(page, "Grill")).toContainText("Remove Grill? Its open order moves to the screen of Bar, the default station.");
  await expect(card(page, "Grill").getByRole("button", { name: "Yes, remove" })).toBeFocused();
  await expectNoSeriousAxe(page, "stations page, removal confirmed (en)");
  await page.screenshot({ path: `${SHOTS}/console-stations-remove-en.png` });
  await page.keyboard.press("Enter");
  await expect(page.getByText("Station Grill removed.")).toBeVisible();
  await expect(page.getByTestId("station")).toHaveCount(1);
  expect((await m.get<Menu>("menu")).categories.find((c) => c.name === "Mains")?.stationId).toBeNull();
  // Renamed in place: the form closes, the card says the new name.
  await card(page, "Bar").getByRole("button", { name: "Rename Bar" }).click();
  await expect(page.getByLabel("New name")).toBeFocused();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type("Drinks bar");
  await page.keyboard.press("Enter");
  await expect(page.getByText("Station renamed to Drinks bar.")).toBeVisible();
  await expect(card(page, "Drinks bar").getByTestId("station-default")).toBeVisible();
  await expect(page.getByLabel("New name")).toHaveCount(0);

  // When is an order with stations ready: the expo screen, saved.
  await page.goto(`/${t.slug}/manager/settings`);
  await expect(page.getByRole("radio", { name: "When its last station is done" })).toBeChecked();
  await page.getByRole("radio", { name: "When the expo screen bumps it" }).check();
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByTestId("settings-saved")).toHaveText("Settings saved.");
  expect((await m.get<{ readyWhen: string }>("settings")).readyWhen).toBe("expo");
  await page.getByRole("group", { name: "When is an order with stations ready?" }).scrollIntoViewIfNeeded();
  await expectNoSeriousAxe(page, "settings with readyWhen (en)");
  await page.screenshot({ path: `${SHOTS}/console-settings-ready-when-en.png` });
});

test("the stations page, the menu's station selects and readyWhen in Chinese", async ({ page, newTenant, request }) => {
  test.setTimeout(90_000);
  const t = await newTenant({ name: "工位小馆" });
  const m = api(request, t);
  await seedMenu(m);
  const grill = await m.post<{ id: string }>("stations", { name: "烤台" });
  await m.post("stations", { name: "吧台" });
  await page.setViewportSize(CONSOLE);
  await signIn(page, t.slug, "Manager", t.staff.manager);
  await page.goto(`/${t.slug}/manager/stations?lang=zh-CN`);
  await expect(page.getByRole("heading", { level: 1, name: "厨房工位" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "经理控制台" }).getByRole("link", { name: "工位" })).toHaveAttribute("aria-current", "page");
  await expect(card(page, "烤台").getByTestId("station-default")).toHaveText("默认");
  await expect(card(page, "吧台").getByTestId("station-open")).toHaveText("没有进行中的订单");
  await card(page, "烤台").getByRole("button", { name: "移除 烤台" }).click();
  await expect(card(page, "烤台").getByTestId("station-error")).toHaveText("这是默认工位：所有未指定工位的菜品都到这里。请先将另一个工位设为默认，再移除它。");
  await expectNoSeriousAxe(page, "stations page (zh-CN)");
  await page.screenshot({ path: `${SHOTS}/console-stations-zh-CN.png` });

  await page.goto(`/${t.slug}/manager/menu`);
  const mains = page.getByTestId("menu-category").filter({ has: page.getByRole("heading", { name: "Mains" }) });
  await mains.getByLabel("工位", { exact: true }).selectOption({ label: "烤台" });
  await mains.getByRole("button", { name: "设定工位：分类“Mains”" }).click();
  await expect(page.getByLabel("“Burger”的工位").locator("option").first()).toHaveText("同分类（烤台）");
  await expect.poll(async () => (await m.get<Menu>("menu")).categories.find((c) => c.name === "Mains")?.stationId).toBe(grill.id);
  await expectNoSeriousAxe(page, "menu with stations (zh-CN)");
  await page.screenshot({ path: `${SHOTS}/console-menu-stations-zh-CN.png` });

  await page.goto(`/${t.slug}/manager/settings`);
  const group = page.getByRole("group", { name: "有工位的订单何时可取餐？" });
  await expect(group.getByRole("radio", { name: "最后一个工位完成时" })).toBeChecked();
  await group.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/console-settings-ready-when-zh-CN.png` });
});
