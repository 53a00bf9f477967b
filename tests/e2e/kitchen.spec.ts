/**
 * The kitchen screen in a real browser: Ready, Undo, Collected, Call again and the typed
 * number reach a board open in another page; a collected order can be recalled; the
 * whole flow works with the keyboard alone; Chinese; ages tick with the clock. Each
 * test has a restaurant of its own.
 */
import type { APIRequestContext, Browser, Locator, Page } from "@playwright/test";
import { createPrisma } from "@/lib/adapters/postgres/prisma.server";
import type { TestTenant } from "../support/tenants";
import { BoardSocket } from "../support/board-socket";
import { expect, signIn, test } from "./fixtures";

const SCREEN = { width: 1280, height: 800 };
test.use({ viewport: SCREEN });

/** Setting up state through the public API, as a POS or a second kitchen screen would. */
function api(request: APIRequestContext, t: TestTenant) {
  const as = (key: string) => ({ authorization: `Bearer ${key}` });
  return {
    async place(...items: string[]): Promise<{ id: string; number: number }> {
      const res = await request.post(`/api/v1/orgs/${t.slug}/orders`, {
        headers: as(t.apiKeys.cashier),
        data: { items: items.map((name) => ({ name, qty: 1 })) },
      });
      expect(res.status()).toBe(201);
      return (await res.json()) as { id: string; number: number };
    },
    async status(id: string, status: string) {
      const res = await request.post(`/api/v1/orgs/${t.slug}/orders/${id}/status`, { headers: as(t.apiKeys.kitchen), data: { status } });
      expect(res.status()).toBe(200);
    },
    async newShift() {
      const res = await request.post(`/api/v1/orgs/${t.slug}/shifts`, { headers: as(t.apiKeys.manager), data: {} });
      expect(res.status()).toBe(201);
    },
  };
}

async function openKitchen(page: Page, t: TestTenant, query = "") {
  await signIn(page, t.slug, "Kitchen", t.staff.kitchen);
  if (query || !page.url().endsWith("/kitchen")) await page.goto(`/${t.slug}/kitchen${query}`);
  // Connected: from here on, every change reaches this screen live.
  await expect(page.locator("[data-connection=live]")).toBeVisible();
}

async function openBoard(browser: Browser, baseURL: string | undefined, slug: string): Promise<Page> {
  const board = await (await browser.newContext({ baseURL })).newPage();
  await board.goto(`/${slug}/board`);
  await expect(board.getByTestId("preparing")).toBeVisible();
  return board;
}

const exactly = (n: number) => new RegExp(`^${n}$`);
const onBoard = (board: Page, column: "preparing" | "ready", n: number) =>
  board
    .getByTestId(column)
    .getByTestId("board-number")
    .filter({ hasText: exactly(n) });
const card = (page: Page, n: number, shift?: number) => page.getByRole("article", { name: shift ? `Order ${n}, shift ${shift}` : `Order ${n}`, exact: true });
const pile = (page: Page, id: "to-prepare" | "waiting-pickup" | "not-collected") => page.getByTestId(id);
const typed = (page: Page) => page.getByLabel("Order number");

async function typeNumber(page: Page, value: string) {
  await typed(page).fill(value);
  await typed(page).press("Enter");
}

/** A focused control shows a ring (a box-shadow from Tailwind's focus-visible ring), not just the browser's default. */
async function expectVisibleFocus(el: Locator) {
  await expect(el).toBeFocused();
  expect(await el.evaluate((e) => getComputedStyle(e).boxShadow)).not.toBe("none");
}

test("Ready, Call again and Undo on a card reach the board", async ({ page, browser, baseURL, request, newTenant }) => {
  const t = await newTenant();
  const { number: n } = await api(request, t).place("Beef noodles");
  const board = await openBoard(browser, baseURL, t.slug);
  await openKitchen(page, t);
  const socket = await BoardSocket.connect(baseURL!, t.slug, "board socket");

  await expect(pile(page, "to-prepare").getByRole("article")).toHaveCount(1);
  await card(page, n).getByRole("button", { name: "Ready", exact: true }).click();
  await expect(page.getByTestId("kitchen-status")).toHaveText(`${n} → Ready`);
  await expect(pile(page, "waiting-pickup").getByRole("article", { name: `Order ${n}` })).toBeVisible();
  await expect(onBoard(board, "ready", n)).toBeVisible();

  await card(page, n).getByRole("button", { name: "Call again", exact: true }).click();
  const called = await socket.waitFor("order:called", (p) => p.number === n);
  expect(called.payload).toMatchObject({ status: "READY", shift: 1 });
  expect(called.payload).not.toHaveProperty("id");
  await expect(page.getByTestId("kitchen-status")).toHaveText(`Calling ${n} again on the board`);
  // A confirmation says its piece and goes (it lingered for minutes).
  await expect(page.getByTestId("kitchen-status")).toHaveText("", { timeout: 10_000 });

  await card(page, n).getByRole("button", { name: "Undo", exact: true }).click();
  await expect(pile(page, "to-prepare").getByRole("article", { name: `Order ${n}` })).toBeVisible();
  await expect(onBoard(board, "preparing", n)).toBeVisible();
  await expect(onBoard(board, "ready", n)).toHaveCount(0);

  // Cancel asks first; keeping the order changes nothing.
  await card(page, n).getByRole("button", { name: "Cancel", exact: true }).click();
  await card(page, n).getByRole("button", { name: "Keep order" }).click();
  await expect(card(page, n).getByRole("button", { name: "Ready", exact: true })).toBeVisible();
  await card(page, n).getByRole("button", { name: "Cancel", exact: true }).click();
  await card(page, n).getByRole("button", { name: "Yes, cancel order" }).click();
  await expect(card(page, n)).toHaveCount(0);
  await expect(onBoard(board, "preparing", n)).toHaveCount(0);
  socket.close();
  await board.context().close();
});

test("a collected order is recalled from Recently collected: back to Ready and to the board", async ({ page, browser, baseURL, request, newTenant }) => {
  const t = await newTenant();
  const { id, number: n } = await api(request, t).place("Dumplings");
  await api(request, t).status(id, "READY");
  const board = await openBoard(browser, baseURL, t.slug);
  await openKitchen(page, t);

  await card(page, n).getByRole("button", { name: "Collected", exact: true }).click();
  await expect(card(page, n)).toHaveCount(0);
  await expect(onBoard(board, "ready", n)).toHaveCount(0);
  const collected = page.getByRole("region", { name: /Recently collected/ });
  const row = collected.getByRole("listitem").filter({ hasText: `Order ${n}` });
  await expect(row).toContainText(/Collected \d\d:\d\d/);
  // Who collected it: here the shared kitchen code, named by its role (a person signed in is named by name).
  await expect(row).toContainText(/Collected \d\d:\d\d · Kitchen/);
  await expect(row.getByTestId("collected-by")).toHaveText("Kitchen");

  await row.getByRole("button", { name: "Undo", exact: true }).click();
  await expect(pile(page, "waiting-pickup").getByRole("article", { name: `Order ${n}` })).toBeVisible();
  await expect(collected.getByRole("listitem")).toHaveCount(0);
  await expect(onBoard(board, "ready", n)).toBeVisible();
  await board.context().close();
});

test("a typed number moves its order one step; unknown, ambiguous and bad numbers get a readable message", async ({
  page,
  browser,
  baseURL,
  request,
  newTenant,
}) => {
  const t = await newTenant();
  const shop = api(request, t);
  const tea = [];
  for (let i = 0; i < 3; i++) tea.push(await shop.place("Tea")); // shift 1: 1, 2, 3 still open
  await shop.newShift();
  const rice = [await shop.place("Rice"), await shop.place("Rice")]; // shift 2: skips 1–3 (open), 4, 5
  await shop.newShift();
  const soup = await shop.place("Soup"); // shift 3 (current): skips 1–5, 6
  expect([...tea, ...rice, soup].map((o) => o.number)).toEqual([1, 2, 3, 4, 5, 6]);
  // A number open in several shifts now only comes from before the upgrade (decision 0027):
  // twins an old release handed out stay as they are, flagged, never renumbered. Shifts 2
  // and 3 each hold such a 1, as a database upgraded in the middle of service would.
  const db = createPrisma(process.env.E2E_DATABASE_URL!, { max: 1 });
  try {
    const { businessDay } = await db.order.findUniqueOrThrow({ where: { id: soup.id } });
    for (const shift of [2, 3])
      await db.order.create({ data: { tenantId: t.id, businessDay, shift, number: 1, items: [{ name: "Old twin", qty: 1 }], sharedOpenNumber: true } });
  } finally {
    await db.$disconnect();
  }
  const board = await openBoard(browser, baseURL, t.slug);
  await openKitchen(page, t);

  // 1 is open in three shifts: the current shift's is meant.
  await typeNumber(page, "1");
  await expect(page.getByTestId("kitchen-status")).toHaveText("1 → Ready");
  await expect(typed(page)).toHaveValue("");
  await expect(typed(page)).toBeFocused();
  await expect(pile(page, "waiting-pickup").getByRole("article", { name: "Order 1", exact: true })).toBeVisible();
  await expect(onBoard(board, "ready", 1)).toBeVisible();

  await typeNumber(page, "1");
  await expect(page.getByTestId("kitchen-status")).toHaveText("1 → Collected");
  await expect(page.getByRole("region", { name: /Recently collected/ }).getByRole("listitem")).toHaveCount(1);
  await expect(onBoard(board, "ready", 1)).toHaveCount(0);

  // 3 is open only in shift 1: that one, named with its shift.
  await typeNumber(page, "3");
  await expect(page.getByTestId("kitchen-status")).toHaveText("3 (shift 1) → Ready");
  await expect(pile(page, "waiting-pickup").getByRole("article", { name: "Order 3, shift 1", exact: true })).toBeVisible();
  // 6 is the current shift's own.
  await typeNumber(page, "6");
  await expect(page.getByTestId("kitchen-status")).toHaveText("6 → Ready");

  await typeNumber(page, "999");
  await expect(page.getByTestId("kitchen-error")).toHaveText("No open order has number 999.");
  await expect(page.getByTestId("kitchen-status")).toHaveText("");
  // Now 1 is open in shifts 1 and 2, neither current: the kitchen asks which, and nothing moves until asked.
  await typeNumber(page, "1");
  const choice = page.getByTestId("typed-choice");
  await expect(choice.getByRole("alert")).toHaveText("Which 1? 2 open orders show it: pick one.");
  // Each button: its key (1, 2), then the order.
  await expect(choice.getByRole("button", { name: /^1 / })).toHaveText(["11 To prepare · Shift 2 · Old twin", "21 To prepare · Shift 1 · Tea"]);
  await expect(choice).toBeFocused();
  await choice.getByRole("button", { name: "Close" }).click();
  await expect(choice).toHaveCount(0);
  for (const bad of ["abc", "0", "", "4e1"]) {
    await typeNumber(page, "999"); // a different message first, so each bad input is seen to replace it
    await expect(page.getByTestId("kitchen-error")).toContainText("999");
    await typeNumber(page, bad);
    await expect(page.getByTestId("kitchen-error"), `typed "${bad}"`).toHaveText("Type an order number in digits, e.g. 42.");
    await expect(typed(page)).toBeFocused();
  }
  // Nothing moved by the misses: shift 1 still has its 1 and 2 to prepare, shift 2 its 1, 4 and 5.
  await expect(pile(page, "to-prepare").getByRole("article")).toHaveCount(5);
  await expect(page.getByTestId("order-shift")).toHaveCount(6);
  await board.context().close();
});

test("the whole flow with the keyboard only", async ({ page, browser, baseURL, request, newTenant }) => {
  const t = await newTenant();
  const shop = api(request, t);
  const first = (await shop.place("Soup")).number;
  const second = (await shop.place("Bao")).number;
  const board = await openBoard(browser, baseURL, t.slug);
  await openKitchen(page, t);
  const key = (k: string) => page.keyboard.press(k);

  // The screen opens with the cursor in the number field.
  await expect(typed(page)).toBeFocused();
  await key("Tab"); // Next step
  await key("Tab"); // All day
  await key("Tab"); // Sold out
  await key("Tab"); // the oldest card's Ready
  await expectVisibleFocus(card(page, first).getByRole("button", { name: "Ready", exact: true }));
  await key("Enter");
  await expect(onBoard(board, "ready", first)).toBeVisible();
  // The card left its pile: focus is back in the number field, not lost.
  await expect(typed(page)).toBeFocused();

  await page.keyboard.type(String(second));
  await key("Enter");
  await expect(page.getByTestId("kitchen-status")).toHaveText(`${second} → Ready`);
  await expect(onBoard(board, "ready", second)).toBeVisible();
  // The piles move when the change arrives over the socket, which may come after the action's answer.
  await expect(card(page, second).getByRole("button", { name: "Collected", exact: true })).toBeVisible();

  await key("Tab"); // Next step
  await key("Tab"); // All day
  await key("Tab"); // Sold out
  await key("Tab"); // first ready card (ready longest): Collected
  await expectVisibleFocus(card(page, first).getByRole("button", { name: "Collected", exact: true }));
  await key(" ");
  await expect(onBoard(board, "ready", first)).toHaveCount(0);
  await expect(typed(page)).toBeFocused();

  for (let i = 0; i < 7; i++) await key("Tab"); // Next step, All day, Sold out, then the remaining card: Collected, Call again, Undo, Cancel
  await expectVisibleFocus(card(page, second).getByRole("button", { name: "Cancel", exact: true }));
  await key("Enter");
  // The confirmation takes focus on the safe choice; Shift+Tab reaches the other one.
  await expect(card(page, second).getByRole("button", { name: "Keep order" })).toBeFocused();
  await key("Shift+Tab");
  await expectVisibleFocus(card(page, second).getByRole("button", { name: "Yes, cancel order" }));
  await key("Enter");
  await expect(card(page, second)).toHaveCount(0);
  await expect(onBoard(board, "ready", second)).toHaveCount(0);
  await expect(typed(page)).toBeFocused();

  await key("Tab"); // Next step
  await key("Tab"); // All day
  await key("Tab"); // Sold out
  await key("Tab"); // no cards left: the recently collected order's Undo
  const recall = page.getByRole("region", { name: /Recently collected/ }).getByRole("button", { name: "Undo", exact: true });
  await expectVisibleFocus(recall);
  await key("Enter");
  await expect(pile(page, "waiting-pickup").getByRole("article", { name: `Order ${first}` })).toBeVisible();
  await expect(onBoard(board, "ready", first)).toBeVisible();
  await expect(typed(page)).toBeFocused();
  await board.context().close();
});

test("?lang=zh-CN shows the kitchen in Chinese", async ({ page, request, newTenant }) => {
  const t = await newTenant();
  const { number: n } = await api(request, t).place("牛肉面");
  await openKitchen(page, t, "?lang=zh-CN");
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("后厨");
  await expect(page.getByRole("heading", { name: /待制作/ })).toBeVisible();
  const order = page.getByRole("article", { name: `${n}号单` });
  await expect(order.getByRole("button", { name: "完成", exact: true })).toBeVisible();
  await expect(order.getByRole("button", { name: "取消", exact: true })).toBeVisible();

  await page.getByLabel("取餐号").fill(String(n));
  await page.getByLabel("取餐号").press("Enter");
  await expect(page.getByTestId("kitchen-status")).toHaveText(`${n} → 待取餐`);
  await expect(order.getByRole("button", { name: "已取餐", exact: true })).toBeVisible();
  await expect(order.getByRole("button", { name: "再次叫号", exact: true })).toBeVisible();
  await expect(order.getByRole("button", { name: "撤销", exact: true })).toBeVisible();
  await page.getByLabel("取餐号").fill("999");
  await page.getByLabel("取餐号").press("Enter");
  await expect(page.getByTestId("kitchen-error")).toHaveText("没有 999 号的未完成订单。");
});

test("ages tick with the clock against the restaurant's thresholds, and an uncollected order leaves the Ready pile", async ({ page, request, newTenant }) => {
  const t = await newTenant({ floor: { ageWarnMinutes: 2, ageLateMinutes: 4, readyClearMinutes: 3 } });
  const shop = api(request, t);
  const waiting = await shop.place("Curry");
  const ready = await shop.place("Salad");
  await shop.status(ready.id, "READY");
  await page.clock.install();
  await openKitchen(page, t);
  const age = card(page, waiting.number).getByTestId("order-age");
  await expect(age).toHaveText("New");
  await expect(age).toHaveAttribute("data-level", "fresh");
  await expect(pile(page, "waiting-pickup").getByRole("article", { name: `Order ${ready.number}` })).toBeVisible();

  await page.clock.fastForward("02:30");
  await expect(age).toHaveText("Waiting 2 min");
  await expect(age).toHaveAttribute("data-level", "slow");
  await expect(card(page, ready.number).getByTestId("order-age")).toHaveText("Ready 2 min");

  await page.clock.fastForward("02:00");
  await expect(age).toHaveText("Late · 4 min");
  await expect(age).toHaveAttribute("data-level", "late");
  // Off the board after 3 minutes: the kitchen lists it as not collected, still with its buttons.
  const gone = pile(page, "not-collected").getByRole("article", { name: `Order ${ready.number}` });
  await expect(gone).toBeVisible();
  await expect(gone.getByRole("button", { name: "Collected", exact: true })).toBeVisible();
  await expect(gone.getByRole("button", { name: "Call again", exact: true })).toBeVisible();
  await expect(pile(page, "waiting-pickup").getByRole("article")).toHaveCount(0);
});

/**
 * A busy lunch for the screenshots: orders in every pile, one from the shift before, one
 * late, one not collected. Times are set back in the database (the kitchen shows what it
 * reads), so the picture needs no waiting.
 */
const DISHES = {
  en: [
    ["Braised pork rice", "Iced tea"],
    ["Beef noodles", "Spring rolls"],
    ["Dumplings ×12"],
    ["Mapo tofu", "Rice", "Green tea"],
    ["Wonton soup"],
    ["Fried rice"],
    ["Kung pao chicken", "Rice"],
    ["Bao"],
    ["Char siu"],
    ["Hot and sour soup"],
  ],
  "zh-CN": [
    ["卤肉饭", "冰红茶"],
    ["牛肉面", "春卷"],
    ["水饺 ×12"],
    ["麻婆豆腐", "米饭", "绿茶"],
    ["馄饨汤"],
    ["炒饭"],
    ["宫保鸡丁", "米饭"],
    ["包子"],
    ["叉烧"],
    ["酸辣汤"],
  ],
};

/** Who collected one of the busy lunch's orders. */
const COOK = { en: "Li Wei", "zh-CN": "李伟" } as const;

async function busyLunch(request: APIRequestContext, t: TestTenant, lang: keyof typeof DISHES) {
  const shop = api(request, t);
  const [first, ...dishes] = DISHES[lang];
  const earlier = await shop.place(...first!);
  await shop.newShift();
  const orders = [];
  for (const items of dishes) orders.push(await shop.place(...items));
  const db = createPrisma(process.env.E2E_DATABASE_URL!, { max: 1 });
  const ago = (min: number) => new Date(Date.now() - min * 60_000);
  try {
    const set = (id: string, data: Record<string, unknown>) => db.order.update({ where: { id }, data });
    await set(earlier.id, { createdAt: ago(34) }); // shift 1, late
    const [a, b, c, d, e, f, g, h, i] = orders.map((o) => o.id) as [string, string, string, string, string, string, string, string, string];
    await set(a, { createdAt: ago(23) }); // late
    await set(b, { createdAt: ago(12) }); // slow
    await set(c, { createdAt: ago(6) });
    await set(d, { createdAt: ago(1) });
    for (const [id, status] of [
      [e, "READY"],
      [f, "READY"],
      [g, "READY"],
      [h, "READY"],
      [i, "READY"],
    ] as const)
      await shop.status(id, status);
    await set(e, { createdAt: ago(26), readyAt: ago(14) }); // not collected
    await set(f, { createdAt: ago(15), readyAt: ago(4) });
    await set(g, { createdAt: ago(9), readyAt: ago(1) });
    for (const id of [h, i]) await shop.status(id, "COLLECTED");
    // Handed out by a cook signed in with their own PIN (issue #38): the history names them, as that cook's tap would.
    await db.orderEvent.updateMany({ where: { orderId: h, status: "COLLECTED" }, data: { by: COOK[lang] } });
  } finally {
    await db.$disconnect();
  }
}

for (const lang of ["en", "zh-CN"] as const) {
  test(`screenshot of a busy kitchen at 1280×800 (${lang})`, async ({ page, request, newTenant }) => {
    const t = await newTenant({ name: "Golden Dragon" });
    await busyLunch(request, t, lang);
    const problems: string[] = [];
    page.on("pageerror", (e) => problems.push(e.message));
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(m.text());
    });
    await openKitchen(page, t, `?lang=${lang}`);
    await expect(pile(page, "to-prepare").getByRole("article")).toHaveCount(5);
    await expect(pile(page, "waiting-pickup").getByRole("article")).toHaveCount(2);
    await expect(pile(page, "not-collected").getByRole("article")).toHaveCount(1);
    await expect(page.getByTestId("order-shift")).toHaveCount(1);
    // Recently collected: who handed each out (the other was collected by an API key without a label: named by its prefix).
    await expect(page.getByTestId("collected-by")).toHaveText([/^API key [0-9a-f]{16}$/, COOK[lang]]);
    await expect(page.locator("[data-level=late]")).toHaveCount(2);
    await expect(page.locator("html")).toHaveAttribute("lang", lang);
    await page.screenshot({ path: `test-results/screenshots/kitchen-busy-${lang}.png` });
    await page.screenshot({ path: `test-results/screenshots/kitchen-busy-full-${lang}.png`, fullPage: true });
    // No hydration mismatch or script error behind the picture.
    expect(problems).toEqual([]);
  });
}
