/**
 * Kitchen stations in Chromium (issue #40): a grill and a bar screen side by side at
 * 1280×800 and a board at 1920×1080; a rush of 20 mixed orders, each screen bumping its
 * part by typing the number and Enter; the board calls each number exactly once, when its
 * last part is done. Also: Undo of a part, the expo mode's mark on the main kitchen, an
 * unknown station, and screenshots in English and Chinese.
 */
import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { spokenNumber } from "@/lib/core/spoken-number";
import type { TestTenant } from "../support/tenants";
import { BoardSocket } from "../support/board-socket";
import { expectNoSeriousAxe } from "./axe";
import { expect, signIn, test } from "./fixtures";

const KITCHEN = { width: 1280, height: 800 };
const BOARD = { width: 1920, height: 1080 };

type Lang = "en" | "zh-CN";
const WORDS = {
  en: { grill: "Grill", bar: "Bar", food: "Food", drinks: "Drinks", dishes: ["Burger", "Fries", "Grilled chicken"], sips: ["Cola", "Lemonade"] },
  "zh-CN": { grill: "烧烤", bar: "吧台", food: "菜品", drinks: "饮品", dishes: ["汉堡", "薯条", "烤鸡"], sips: ["可乐", "柠檬水"] },
} as const;

interface OrderJson {
  id: string;
  number: number;
  status: string;
  businessDay: string;
  shift: number;
  createdAt: string;
  readyAt: string | null;
  stations: { id: string; name: string; done: boolean; doneAt: string | null }[];
}

/** The restaurant's set-up and orders through the public API, as its manager and a POS would. */
function rest(request: APIRequestContext, t: TestTenant) {
  const call = async <T>(method: string, path: string, key: string, data?: unknown): Promise<T> => {
    const res = await request.fetch(`/api/v1/orgs/${t.slug}${path}`, { method, headers: { authorization: `Bearer ${key}` }, data });
    expect(res.status(), `${method} ${path}: ${await res.text()}`).toBeLessThan(300);
    return (await res.json()) as T;
  };
  return {
    call,
    /** Grill (the default) and Bar; Food without a station of its own, Drinks on the bar. */
    async kitchen(lang: Lang) {
      const w = WORDS[lang];
      const grill = await call<{ id: string }>("POST", "/stations", t.apiKeys.manager, { name: w.grill });
      const bar = await call<{ id: string }>("POST", "/stations", t.apiKeys.manager, { name: w.bar });
      const food = await call<{ id: string }>("POST", "/menu/categories", t.apiKeys.manager, { name: w.food });
      const drinks = await call<{ id: string }>("POST", "/menu/categories", t.apiKeys.manager, { name: w.drinks, stationId: bar.id });
      const item = async (categoryId: string, name: string) =>
        (await call<{ id: string }>("POST", "/menu/items", t.apiKeys.manager, { categoryId, name, priceCents: 500 })).id;
      const dishes = await Promise.all(w.dishes.map((n) => item(food.id, n)));
      const sips = await Promise.all(w.sips.map((n) => item(drinks.id, n)));
      return { grill: grill.id, bar: bar.id, dishes, sips };
    },
    place: (lines: [string, number][], extra: { note?: string; channel?: string } = {}) =>
      call<OrderJson>("POST", "/orders", t.apiKeys.cashier, { items: lines.map(([menuItemId, qty]) => ({ menuItemId, qty })), ...extra }),
    get: (id: string) => call<OrderJson>("GET", `/orders/${id}`, t.apiKeys.kitchen),
    partDone: (id: string, station: string) => call<OrderJson>("POST", `/orders/${id}/stations/${station}/done`, t.apiKeys.kitchen),
  };
}

/** A kitchen screen of its own (a tablet at the pass): the main kitchen, or a station's with `station`. */
async function openScreen(browser: Browser, baseURL: string, t: TestTenant, lang: Lang, station?: string): Promise<Page> {
  const page = await (await browser.newContext({ baseURL, viewport: KITCHEN })).newPage();
  await signIn(page, t.slug, "Kitchen", t.staff.kitchen);
  await page.goto(`/${t.slug}/kitchen?${station ? `station=${station}&` : ""}lang=${lang}`);
  await expect(page.locator("[data-connection=live]")).toBeVisible();
  return page;
}

/** Runs in the board before its scripts: records what is said instead of saying it (as board.spec.ts does). */
function recordSound() {
  const log: string[] = [];
  (window as unknown as { __said: string[] }).__said = log;
  HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
    setTimeout(() => this.dispatchEvent(new Event("ended")), 10);
    return Promise.resolve();
  };
  class RecordedUtterance extends EventTarget {
    text: string;
    lang = "";
    voice: { name: string } | null = null;
    volume = 1;
    rate = 1;
    pitch = 1;
    onend: ((e: Event) => void) | null = null;
    onerror: ((e: Event) => void) | null = null;
    constructor(text = "") {
      super();
      this.text = text;
    }
  }
  (window as unknown as { SpeechSynthesisUtterance: unknown }).SpeechSynthesisUtterance = RecordedUtterance;
  const synth = window.speechSynthesis;
  const voices = [{ name: "Test US English", lang: "en-US", default: false, localService: true, voiceURI: "Test US English" }];
  synth.getVoices = () => voices;
  synth.cancel = () => {};
  synth.speak = (u: SpeechSynthesisUtterance) => {
    const r = u as unknown as RecordedUtterance;
    if (r.text.trim()) log.push(r.text);
    setTimeout(() => r.onend?.(new Event("end")), 10);
  };
}

async function openBoard(browser: Browser, baseURL: string, t: TestTenant): Promise<Page> {
  const board = await (await browser.newContext({ baseURL, viewport: BOARD })).newPage();
  await board.addInitScript(recordSound);
  await board.goto(`/${t.slug}/board?lang=en`);
  await expect(board.getByTestId("connection")).toHaveAttribute("data-state", "live");
  await board.getByRole("button", { name: "Enable sound", exact: true }).click();
  await expect(board.getByRole("button", { name: "Enable sound", exact: true })).toHaveCount(0);
  return board;
}

const said = (board: Page) => board.evaluate(() => (window as unknown as { __said: string[] }).__said);
const onBoard = (board: Page, column: "preparing" | "ready", n: number) => board.getByTestId(column).locator(`[data-testid=board-number][data-number="${n}"]`);
const ticket = (page: Page, n: number) => page.getByTestId("to-prepare").getByRole("article", { name: `Order ${n}`, exact: true });

async function typeNumber(page: Page, n: number) {
  await page.getByLabel("Order number").fill(String(n));
  await page.getByLabel("Order number").press("Enter");
}

/** What each order of the rush is: 0 food only, 1 drinks only, 2 both (i from 0). */
const kindOf = (i: number) => (["food", "drinks", "both"] as const)[i % 3]!;

test("a grill and a bar bump their parts of 20 orders by keyboard: each number is called once, when its last part is done", async ({
  browser,
  baseURL,
  request,
  newTenant,
}) => {
  test.setTimeout(240_000);
  const t = await newTenant({ name: "Golden Grill" });
  const api = rest(request, t);
  const k = await api.kitchen("en");
  const board = await openBoard(browser, baseURL!, t);
  const socket = await BoardSocket.connect(baseURL!, t.slug, "board socket");

  const orders: (OrderJson & { kind: ReturnType<typeof kindOf> })[] = [];
  for (let i = 0; i < 20; i++) {
    const kind = kindOf(i);
    const food: [string, number][] = kind === "drinks" ? [] : [[k.dishes[Math.floor(i / 3) % 3]!, 1 + (i % 2)]];
    const drinks: [string, number][] = kind === "food" ? [] : [[k.sips[i % 2]!, 1]];
    const placed = await api.place([...food, ...drinks], { channel: i % 4 === 1 ? "delivery" : "kiosk" });
    expect(placed.stations.map((p) => p.id)).toEqual([...(food.length ? [k.grill] : []), ...(drinks.length ? [k.bar] : [])]);
    orders.push({ ...placed, kind });
  }
  const grillOrders = orders.filter((o) => o.kind !== "drinks");
  const barOrders = orders.filter((o) => o.kind !== "food");

  const grill = await openScreen(browser, baseURL!, t, "en", k.grill);
  const bar = await openScreen(browser, baseURL!, t, "en", k.bar);
  await expect(grill.getByTestId("station-name")).toHaveText("Grill");
  await expect(bar.getByTestId("station-name")).toHaveText("Bar");
  await expect(grill.getByTestId("to-prepare").getByRole("article")).toHaveCount(grillOrders.length);
  await expect(bar.getByTestId("to-prepare").getByRole("article")).toHaveCount(barOrders.length);
  // Each screen shows only its own lines of an order with both.
  const both = orders.find((o) => o.kind === "both")!;
  await expect(ticket(grill, both.number)).toContainText(/Burger|Fries|Grilled chicken/);
  await expect(ticket(grill, both.number)).not.toContainText(/Cola|Lemonade/);
  await expect(ticket(bar, both.number)).toContainText(/Cola|Lemonade/);
  await expect(ticket(bar, both.number)).not.toContainText(/Burger|Fries|Grilled chicken/);
  // The grill's own "All day": only its dishes.
  await grill.getByRole("button", { name: "All day" }).click();
  await expect(grill.getByTestId("all-day-line")).toHaveCount(3);
  await expect(grill.getByTestId("all-day")).not.toContainText("Cola");
  await grill.getByRole("button", { name: "All day" }).click();

  // An order with both parts: the grill's Done alone does not make it ready.
  await typeNumber(grill, both.number);
  await expect(grill.getByTestId("kitchen-status")).toHaveText(`${both.number}: Grill done`);
  await expect(ticket(grill, both.number)).toHaveCount(0);
  expect((await api.get(both.id)).status).toBe("PLACED");
  await expect(onBoard(board, "preparing", both.number)).toBeVisible();
  await expect(ticket(bar, both.number)).toBeVisible();
  await typeNumber(bar, both.number);
  await expect(bar.getByTestId("kitchen-status")).toHaveText(`${both.number}: Bar done → Ready`);
  await expect(onBoard(board, "ready", both.number)).toBeVisible();

  // The rest of the rush: both screens at once, each typing its own numbers.
  const work = async (page: Page, list: OrderJson[]) => {
    for (const o of list.filter((o) => o.id !== both.id)) {
      await typeNumber(page, o.number);
      await expect(ticket(page, o.number)).toHaveCount(0);
    }
  };
  await Promise.all([work(grill, grillOrders), work(bar, barOrders)]);
  await expect(grill.getByTestId("to-prepare").getByRole("article")).toHaveCount(0);
  await expect(bar.getByTestId("to-prepare").getByRole("article")).toHaveCount(0);

  // Every number ready on the board, called once, its Ready at the moment of its last part.
  for (const o of orders) await expect(onBoard(board, "ready", o.number)).toBeVisible();
  await expect.poll(async () => (await said(board)).length, { timeout: 60_000 }).toBe(20);
  const calls = await said(board);
  for (const o of orders) {
    expect(
      calls.filter((c) => c === spokenNumber(o.number, "en")),
      `calls of ${o.number}`,
    ).toHaveLength(1);
    const now = await api.get(o.id);
    expect(now.status).toBe("READY");
    expect(now.readyAt).toBe(
      now.stations
        .map((p) => p.doneAt!)
        .sort()
        .at(-1),
    );
    const readyEvents = socket.eventsFor(now).filter((e) => e.event === "order:updated" && e.payload.status === "READY");
    expect(readyEvents, `ready events of ${o.number}`).toHaveLength(1);
  }
  // What each station did lately stays in reach of Undo.
  await expect(grill.getByTestId("done-here").getByRole("article")).toHaveCount(Math.min(12, grillOrders.length));
  socket.socket.close();
});

test("Undo of a station's Done takes the Ready back; Enter on a selected ticket is its Done", async ({ browser, baseURL, request, newTenant }) => {
  const t = await newTenant({ name: "Undo Grill" });
  const api = rest(request, t);
  const k = await api.kitchen("en");
  const order = await api.place([
    [k.dishes[0]!, 1],
    [k.sips[0]!, 1],
  ]);
  const board = await openBoard(browser, baseURL!, t);
  const bar = await openScreen(browser, baseURL!, t, "en", k.bar);
  await api.partDone(order.id, k.grill);
  // The keyboard as a bump bar: an arrow selects the ticket, Enter is the bar's Done.
  await bar.keyboard.press("ArrowRight");
  await expect(ticket(bar, order.number)).toHaveAttribute("aria-current", "true");
  await bar.keyboard.press("Enter");
  await expect(onBoard(board, "ready", order.number)).toBeVisible();
  const row = bar.getByTestId(`done-${order.number}`);
  await expect(row).toContainText("Ready");
  await row.getByRole("button", { name: `Undo Done of order ${order.number}` }).click();
  await expect(bar.getByTestId("kitchen-status")).toHaveText(`${order.number}: Bar undone, back to prepare`);
  await expect(onBoard(board, "preparing", order.number)).toBeVisible();
  await expect(ticket(bar, order.number)).toBeVisible();
  expect((await api.get(order.id)).stations.map((p) => p.done)).toEqual([true, false]);
  // Typed on the grill, whose part is done: said so, nothing moves.
  const grill = await openScreen(browser, baseURL!, t, "en", k.grill);
  await typeNumber(grill, order.number);
  await expect(grill.getByTestId("kitchen-error")).toHaveText(`${order.number} has nothing left to make at Grill.`);
  await typeNumber(grill, 99);
  await expect(grill.getByTestId("kitchen-error")).toHaveText("No open order has number 99.");
});

test("the main kitchen shows each order's parts; in expo mode a finished order waits for the bump", async ({ browser, baseURL, request, newTenant }) => {
  const t = await newTenant({ name: "Expo Grill" });
  const api = rest(request, t);
  const k = await api.kitchen("en");
  await api.call("PUT", "/settings", t.apiKeys.manager, { readyWhen: "expo" });
  const order = await api.place([
    [k.dishes[0]!, 1],
    [k.sips[0]!, 1],
  ]);
  const main = await openScreen(browser, baseURL!, t, "en");
  const parts = ticket(main, order.number).getByTestId("part");
  await expect(parts.getByTestId("part-name")).toHaveText(["Grill", "Bar"]);
  await expect(parts).toHaveText(["Grill, still working", "Bar, still working"]);
  await api.partDone(order.id, k.grill);
  await expect(parts.first()).toHaveAttribute("data-done", "true");
  await expect(parts.first()).toContainText(/\d\d:\d\d/);
  await api.partDone(order.id, k.bar);
  await expect(ticket(main, order.number).getByTestId("parts-all-done")).toContainText("All stations done — bump to call");
  expect((await api.get(order.id)).status).toBe("PLACED");
  // The switcher: the main kitchen and each station's screen; the bar's row says the order waits for the pass.
  const switcher = main.getByTestId("station-switcher");
  await expect(switcher.getByRole("link")).toHaveText(["Main kitchen", "Grill", "Bar"]);
  await switcher.getByRole("link", { name: "Bar" }).click();
  await expect(main.getByTestId("station-name")).toHaveText("Bar");
  await expect(main.getByTestId(`done-${order.number}`)).toContainText("All done · waiting for the pass");
  await switcher.getByRole("link", { name: "Main kitchen" }).click();
  await ticket(main, order.number).getByRole("button", { name: "Ready" }).click();
  await expect(main.getByTestId("waiting-pickup").getByRole("article", { name: `Order ${order.number}` })).toBeVisible();
});

test("a station that does not exist says so, with links to the screens that do; no stations, no switcher", async ({ browser, baseURL, request, newTenant }) => {
  const plain = await newTenant({ name: "One Kitchen" });
  const one = await openScreen(browser, baseURL!, plain, "en");
  await expect(one.getByTestId("to-prepare")).toBeVisible();
  await expect(one.getByTestId("station-switcher")).toHaveCount(0);

  const t = await newTenant({ name: "Two Stations" });
  await rest(request, t).kitchen("en");
  const page = await (await browser.newContext({ baseURL, viewport: KITCHEN })).newPage();
  await signIn(page, t.slug, "Kitchen", t.staff.kitchen);
  for (const station of ["00000000-0000-4000-8000-000000000000", "not-a-station"]) {
    const res = await page.goto(`/${t.slug}/kitchen?station=${station}&lang=en`);
    expect(res?.status()).toBe(200);
    await expect(page.getByRole("heading", { name: "No such kitchen station" })).toBeVisible();
    await expect(page.getByTestId("unknown-station").getByRole("link")).toHaveText(["Main kitchen", "Grill", "Bar"]);
  }
  await page.getByTestId("unknown-station").getByRole("link", { name: "Grill" }).click();
  await expect(page.getByTestId("station-name")).toHaveText("Grill");
});

for (const lang of ["en", "zh-CN"] as const) {
  test(`screenshots of the grill, the bar and the main kitchen with parts at 1280×800 (${lang})`, async ({ browser, baseURL, request, newTenant }) => {
    test.setTimeout(120_000);
    const t = await newTenant({ name: lang === "en" ? "Golden Grill" : "金龙烧烤" });
    const api = rest(request, t);
    const k = await api.kitchen(lang);
    const notes = lang === "en" ? ["No onions, allergy to raw onion — please check twice", "Extra ice"] : ["不要洋葱，对生洋葱过敏，请再三确认", "多加冰"];
    const placed: OrderJson[] = [];
    for (let i = 0; i < 18; i++) {
      const kind = kindOf(i);
      const lines: [string, number][] = [];
      if (kind !== "drinks") lines.push([k.dishes[i % 3]!, 1 + (i % 2)], ...(i % 5 === 0 ? ([[k.dishes[(i + 1) % 3]!, 2]] as [string, number][]) : []));
      if (kind !== "food") lines.push([k.sips[i % 2]!, 1 + (i % 3)]);
      placed.push(await api.place(lines, { note: i % 4 === 0 ? notes[i % 8 === 0 ? 0 : 1] : undefined, channel: ["kiosk", "delivery", "phone"][i % 3] }));
    }
    // Some parts already done, so the main kitchen shows both kinds of chips.
    for (const o of placed.slice(0, 6)) await api.partDone(o.id, o.stations[0]!.id);
    const dir = "test-results/screenshots";
    for (const [name, station] of [
      ["grill", k.grill],
      ["bar", k.bar],
      ["main", undefined],
    ] as const) {
      const page = await openScreen(browser, baseURL!, t, lang, station);
      await expect(page.locator("html")).toHaveAttribute("lang", lang);
      await expect(page.getByTestId("to-prepare").getByRole("article").first()).toBeVisible();
      // The page itself never scrolls: the piles do.
      expect(await page.evaluate(() => document.scrollingElement!.scrollHeight - window.innerHeight)).toBeLessThanOrEqual(0);
      await page.screenshot({ path: `${dir}/kitchen-stations-${name}-${lang}.png` });
      await expectNoSeriousAxe(page, `${name} screen (${lang})`);
      await page.context().close();
    }
  });
}
