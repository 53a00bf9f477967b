/**
 * What the kitchen sees of a noodle shop's order (issue #41), in Chromium, English and
 * Chinese: an order placed over REST with options, a line's note and take away shows on the
 * main kitchen and on its station's screen at 1280×800 as "2× Beef noodles · Large · Extra
 * spicy", the note under it and a Take away badge; All day counts a Large and a Small bowl
 * apart; a dish taken although sold out is flagged; an order shaped as before issue #41 (no
 * options, no note, no service) looks as it did. Also the board's bag on take-away numbers,
 * the customer's page and the kiosk's printed ticket, with screenshots of each.
 */
import type { APIRequestContext, Browser, Page } from "@playwright/test";
import type { TestTenant } from "../support/tenants";
import { expectNoSeriousAxe } from "./axe";
import { expect, signIn, test } from "./fixtures";

const SHOTS = "test-results/screenshots/floor41";
const KITCHEN = { width: 1280, height: 800 };

type Lang = "en" | "zh-CN";
const W = {
  en: {
    shop: "Lanzhou Noodles",
    noodles: "Beef noodles",
    small: "Small",
    large: "Large",
    mild: "Mild",
    spicy: "Extra spicy",
    buns: "Pork buns",
    tea: "Jasmine tea",
    note: "no coriander",
    wok: "Wok",
    bar: "Bar",
    takeAway: "Take away",
    soldOut: "Sold out",
    allDay: "All day",
  },
  "zh-CN": {
    shop: "兰州拉面",
    noodles: "牛肉面",
    small: "小碗",
    large: "大碗",
    mild: "微辣",
    spicy: "特辣",
    buns: "猪肉包",
    tea: "茉莉花茶",
    note: "不要香菜",
    wok: "炒锅",
    bar: "吧台",
    takeAway: "外带",
    soldOut: "已售罄",
    allDay: "菜品汇总",
  },
} as const;

interface LineJson {
  name: string;
  qty: number;
  priceCents?: number;
  options?: { group: string; name: string; priceCents: number }[];
  note?: string;
  soldOut?: true;
}
interface OrderJson {
  id: string;
  number: number;
  display: string;
  service: "eatIn" | "takeAway" | null;
  items: LineJson[];
  trackPath: string;
}

function rest(request: APIRequestContext, t: TestTenant) {
  const call = async <T>(method: string, path: string, key: string, data?: unknown): Promise<T> => {
    const res = await request.fetch(`/api/v1/orgs/${t.slug}${path}`, { method, headers: { authorization: `Bearer ${key}` }, data });
    expect(res.status(), `${method} ${path}: ${await res.text()}`).toBeLessThan(300);
    return (await res.json()) as T;
  };
  return {
    call,
    /** A wok (the default station) for the food and a bar for the drinks; noodles with a size and a spice level. */
    async shop(lang: Lang) {
      const w = W[lang];
      const wok = await call<{ id: string }>("POST", "/stations", t.apiKeys.manager, { name: w.wok });
      const bar = await call<{ id: string }>("POST", "/stations", t.apiKeys.manager, { name: w.bar });
      const food = await call<{ id: string }>("POST", "/menu/categories", t.apiKeys.manager, { name: lang === "en" ? "Noodles" : "面食" });
      const drinks = await call<{ id: string }>("POST", "/menu/categories", t.apiKeys.manager, { name: lang === "en" ? "Drinks" : "饮品", stationId: bar.id });
      const item = async (categoryId: string, name: string, priceCents: number, optionGroups: unknown[] = []) =>
        (await call<{ id: string }>("POST", "/menu/items", t.apiKeys.manager, { categoryId, name, priceCents, optionGroups })).id;
      const noodles = await item(food.id, w.noodles, 1250, [
        { name: lang === "en" ? "Size" : "份量", required: true, options: [{ name: w.small }, { name: w.large, priceCents: 200 }] },
        { name: lang === "en" ? "Spice" : "辣度", required: true, options: [{ name: w.mild }, { name: w.spicy }] },
      ]);
      const buns = await item(food.id, w.buns, 450);
      const tea = await item(drinks.id, w.tea, 300);
      return { wok: wok.id, bar: bar.id, noodles, buns, tea };
    },
    place: (body: unknown) => call<OrderJson>("POST", "/orders", t.apiKeys.cashier, body),
  };
}

async function openKitchen(browser: Browser, baseURL: string, t: TestTenant, lang: Lang, station?: string): Promise<Page> {
  const page = await (await browser.newContext({ baseURL, viewport: KITCHEN })).newPage();
  await signIn(page, t.slug, "Kitchen", t.staff.kitchen);
  await page.goto(`/${t.slug}/kitchen?${station ? `station=${station}&` : ""}lang=${lang}`);
  await expect(page.locator("[data-connection=live]")).toBeVisible();
  return page;
}

const ticketOf = (page: Page, o: OrderJson) => page.getByTestId("to-prepare").locator(`[data-order-id="${o.id}"]`);
/** A ticket's dishes (its parts' row has list items too). */
const dishesOf = (page: Page, o: OrderJson) => ticketOf(page, o).getByTestId("ticket-lines").getByRole("listitem");

for (const lang of ["en", "zh-CN"] as const) {
  test(`kitchen (${lang}): options, a line's note, take away and sold out on the tickets and in All day; an order shaped as before looks as before`, async ({
    browser,
    baseURL,
    request,
    newTenant,
  }) => {
    test.setTimeout(120_000);
    const w = W[lang];
    // Orders from a delivery platform are taken with a sold-out dish, flagged.
    const t = await newTenant({ name: w.shop, floor: { soldOutAcceptedFrom: ["delivery"] } });
    const api = rest(request, t);
    const m = await api.shop(lang);

    // The issue's example: two large extra-spicy bowls without coriander, to take away, and a tea.
    const noodle = await api.place({
      items: [
        { menuItemId: m.noodles, qty: 2, options: [w.large, w.spicy], note: w.note },
        { menuItemId: m.tea, qty: 1 },
      ],
      service: "takeAway",
      channel: "kiosk",
    });
    expect(noodle.service).toBe("takeAway");
    expect(noodle.items[0]).toMatchObject({ qty: 2, priceCents: 1450, note: w.note, options: [{ name: w.large }, { name: w.spicy }] });
    const small = await api.place({ items: [{ menuItemId: m.noodles, qty: 1, options: [w.small, w.mild] }], service: "eatIn", channel: "kiosk" });
    // As every order before issue #41: a free-text line, no options, no note, no service.
    const old = await api.place({ items: [{ name: w.buns, qty: 2 }], channel: "kiosk" });
    expect(old.service).toBeNull();
    await api.call("PUT", `/menu/items/${m.buns}/available`, t.apiKeys.kitchen, { available: false });
    const delivered = await api.place({ items: [{ menuItemId: m.buns, qty: 3 }], channel: "delivery" });
    expect(delivered.items[0]!.soldOut).toBe(true);

    const kitchen = await openKitchen(browser, baseURL!, t, lang);
    const noodleTicket = ticketOf(kitchen, noodle);
    const first = dishesOf(kitchen, noodle).first();
    await expect(first).toContainText(`2×${w.noodles} · ${w.large} · ${w.spicy}`);
    await expect(first.getByTestId("line-note")).toBeVisible();
    await expect(first.getByTestId("line-note")).toHaveText(new RegExp(`${w.note}$`));
    await expect(first.getByTestId("line-note")).toHaveCSS("font-style", "italic");
    await expect(noodleTicket.getByTestId("order-take-away")).toHaveText(w.takeAway);
    await expect(noodleTicket.getByTestId("order-take-away")).toBeInViewport();
    // Its three lines (the dish wraps once, the note) fill the ticket: the tea is under "+1 more", in full when opened.
    await expect(dishesOf(kitchen, noodle)).toHaveCount(1);
    await noodleTicket.getByRole("button", { name: lang === "en" ? /more$/ : /还有/ }).click();
    const details = noodleTicket.getByTestId("order-details");
    await expect(details.getByRole("listitem")).toHaveText([new RegExp(`^2×${w.noodles} · ${w.large} · ${w.spicy}.*${w.note}$`), `1×${w.tea}`]);
    await kitchen.screenshot({ path: `${SHOTS}/kitchen-details-1280x800-${lang}.png` });
    await kitchen.keyboard.press("Escape");
    await expect(details).toHaveCount(0);

    // Eating in is the usual case: no badge.
    await expect(ticketOf(kitchen, small).getByTestId("order-take-away")).toHaveCount(0);
    await expect(dishesOf(kitchen, small)).toHaveText([`1×${w.noodles} · ${w.small} · ${w.mild}`]);

    // The order shaped as before: its line as it was, no badge, no note, no flag, and a plain ticket's height.
    const oldTicket = ticketOf(kitchen, old);
    await expect(dishesOf(kitchen, old)).toHaveText([`2×${w.buns}`]);
    await expect(oldTicket.locator("[data-testid=order-take-away], [data-testid=line-note], [data-testid=line-sold-out]")).toHaveCount(0);
    expect(Math.round((await oldTicket.boundingBox())!.height)).toBe(148);

    const soldOut = ticketOf(kitchen, delivered).getByTestId("line-sold-out");
    await expect(soldOut).toHaveText(w.soldOut);
    await expect(soldOut).toBeVisible();

    // All day: a Large and a Small bowl apart; the note does not split them.
    await kitchen.getByRole("button", { name: w.allDay }).click();
    const allDay = kitchen.getByTestId("all-day");
    const count = (label: string) =>
      allDay
        .getByTestId("all-day-line")
        .filter({ hasText: new RegExp(`^\\d+${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`) })
        .getByTestId("all-day-qty");
    await expect(count(`${w.noodles} · ${w.large} · ${w.spicy}`)).toHaveText("2");
    await expect(count(`${w.noodles} · ${w.small} · ${w.mild}`)).toHaveText("1");
    await expect(count(w.buns)).toHaveText("5");
    await expectNoSeriousAxe(kitchen, `kitchen with options (${lang})`);
    await kitchen.screenshot({ path: `${SHOTS}/kitchen-1280x800-${lang}.png` });
    await kitchen.getByRole("button", { name: w.allDay }).click();
    await kitchen.screenshot({ path: `${SHOTS}/kitchen-tickets-1280x800-${lang}.png` });

    // The wok's own screen: the bowls with their options, note and badge, not the bar's tea.
    const wok = await openKitchen(browser, baseURL!, t, lang, m.wok);
    const onWok = ticketOf(wok, noodle);
    await expect(dishesOf(wok, noodle)).toHaveCount(1);
    await expect(dishesOf(wok, noodle).first()).toContainText(`2×${w.noodles} · ${w.large} · ${w.spicy}`);
    await expect(onWok.getByTestId("line-note")).toBeVisible();
    await expect(onWok.getByTestId("order-take-away")).toHaveText(w.takeAway);
    await expect(onWok).not.toContainText(w.tea);
    await expect(ticketOf(wok, delivered).getByTestId("line-sold-out")).toBeVisible();
    await expectNoSeriousAxe(wok, `wok station with options (${lang})`);
    await wok.screenshot({ path: `${SHOTS}/station-1280x800-${lang}.png` });

    // Ready: the pickup row keeps the options and the badge (whoever hands it out bags it).
    await noodleTicket.getByRole("button", { name: lang === "en" ? "Ready" : "完成" }).click();
    const row = kitchen.getByTestId("waiting-pickup").locator(`[data-order-id="${noodle.id}"]`);
    await expect(row).toContainText(`2× ${w.noodles} · ${w.large} · ${w.spicy}`);
    await expect(row.getByTestId("order-take-away")).toBeVisible();
    await kitchen.screenshot({ path: `${SHOTS}/kitchen-pickup-1280x800-${lang}.png` });
    await kitchen.context().close();
    await wok.context().close();

    // The board: a bag beside the take-away number only.
    const board = await (await browser.newContext({ baseURL: baseURL!, viewport: { width: 1920, height: 1080 } })).newPage();
    await board.goto(`/${t.slug}/board?lang=${lang}`);
    const number = (o: OrderJson) => board.locator(`[data-testid=board-number][data-display="${o.display}"]`);
    await expect(number(noodle).getByTestId("take-away-tag")).toBeVisible();
    await expect(number(small).getByTestId("take-away-tag")).toHaveCount(0);
    await expect(number(old).getByTestId("take-away-tag")).toHaveCount(0);
    await board.screenshot({ path: `${SHOTS}/board-1920x1080-${lang}.png` });
    await board.context().close();

    // The customer's page: the lines with options and the note, and the service.
    const phone = await (await browser.newContext({ baseURL: baseURL!, viewport: { width: 390, height: 844 } })).newPage();
    await phone.goto(`${noodle.trackPath}?lang=${lang}`);
    const items = phone.getByTestId("order-items");
    await expect(phone.getByTestId("order-service")).toHaveText(w.takeAway);
    await expect(items.getByRole("listitem").first()).toContainText(`2×${w.noodles} · ${w.large} · ${w.spicy}`);
    await expect(items.getByTestId("line-note")).toHaveText(new RegExp(`${w.note}$`));
    await phone.screenshot({ path: `${SHOTS}/customer-390x844-${lang}.png`, fullPage: true });
    await phone.goto(`${old.trackPath}?lang=${lang}`);
    await expect(phone.getByTestId("order-items").getByRole("listitem")).toHaveText([`2×${w.buns}`]);
    await expect(phone.getByTestId("order-service")).toHaveCount(0);
    await phone.context().close();
  });
}

test("the kiosk's printed ticket: TAKE AWAY, each line with its options, note and price, the total, within 58 mm", async ({
  browser,
  baseURL,
  request,
  newTenant,
}) => {
  const t = await newTenant({ name: W.en.shop, floor: { currency: "EUR" } });
  const api = rest(request, t);
  const m = await api.shop("en");
  const order = await api.place({
    items: [
      { menuItemId: m.noodles, qty: 2, options: [W.en.large, W.en.spicy], note: W.en.note },
      { menuItemId: m.tea, qty: 1 },
    ],
    service: "takeAway",
  });
  const page = await (await browser.newContext({ baseURL: baseURL!, viewport: { width: 1024, height: 768 } })).newPage();
  await signIn(page, t.slug, "Cashier", t.staff.cashier);
  // The kiosk prints its last ticket (as it remembers it) from the order as the server answered it.
  const ticket = {
    orderId: order.id,
    number: order.number,
    display: order.display,
    created: true,
    restaurant: W.en.shop,
    time: "12:04",
    items: order.items,
    note: null,
    total: { cents: 3200, unpriced: 0 },
    currency: "EUR",
    url: `${baseURL}${order.trackPath}`,
    qr: "data:image/svg+xml;utf8,<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 1 1'><rect width='1' height='1'/></svg>",
    service: order.service,
  };
  await page.addInitScript(
    ([key, value, paperKey]) => {
      localStorage.setItem(key, value);
      localStorage.setItem(paperKey, "58");
    },
    [`nextup.kiosk.lastTicket.${t.slug}`, JSON.stringify(ticket), "nextup.kiosk.paper"] as const,
  );
  await page.goto(`/${t.slug}/kiosk?lang=en`);
  await page.emulateMedia({ media: "print" });
  const printed = page.getByTestId("print-root").getByTestId("ticket");
  await expect(printed).toHaveAttribute("data-paper", "58");
  await expect(printed.getByTestId("ticket-service")).toHaveText(/take away/i);
  // The print root is hidden from assistive technology (the screen shows the same ticket): list items by tag.
  const lines = printed.locator("li");
  await expect(lines.first()).toContainText(`2×${W.en.noodles} · ${W.en.large} · ${W.en.spicy}`);
  await expect(lines.first().getByTestId("line-price")).toHaveText("€29.00");
  await expect(lines.first().getByTestId("line-note")).toHaveText(new RegExp(`${W.en.note}$`));
  await expect(lines.nth(1).getByTestId("line-price")).toHaveText("€3.00");
  await expect(printed.getByTestId("ticket-total")).toContainText("€32.00");
  // Nothing past the paper's edge: options and notes wrap.
  const outside = await printed.evaluate((el) => {
    const box = el.getBoundingClientRect();
    return [...el.querySelectorAll("*")].filter((c) => {
      const r = c.getBoundingClientRect();
      return r.width > 0 && (r.left < box.left - 0.5 || r.right > box.right + 0.5);
    }).length;
  });
  expect(outside).toBe(0);
  await printed.screenshot({ path: `${SHOTS}/kiosk-ticket-58mm-en.png` });
  await page.context().close();
});
