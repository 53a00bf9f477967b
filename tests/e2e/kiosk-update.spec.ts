/**
 * Updates that lose nothing (issue #37, decision 0048): a cashier's half-typed order stays on
 * the kiosk across a reload, a server restart and a new build, and is taken once — even when
 * an earlier attempt was taken by the server and only its answer was lost. Screens of the old
 * build (board, kitchen) reload to the new one when their socket names it. The spec runs its
 * own production server, stopped and started on one port; the "new build" is the same build
 * with a new build id and new action ids (tests/support/second-build.ts).
 */
import { randomBytes } from "node:crypto";
import type { BrowserContext, Page } from "@playwright/test";
import { startAppServer, testKeyPrefix, type AppServer } from "../support/app-server";
import { makeSecondBuild, type SecondBuild } from "../support/second-build";
import { expect, signIn, test } from "./fixtures";

test.describe.configure({ mode: "serial" });
test.use({ viewport: { width: 1024, height: 768 } });

let server: AppServer;
let build2: SecondBuild | undefined;
const env = { SESSION_SECRET: randomBytes(32).toString("hex") };
const keyPrefix = testKeyPrefix("e2e-update");

function start(opts: { port?: number; cwd?: string } = {}) {
  const databaseUrl = process.env.E2E_DATABASE_URL;
  if (!databaseUrl) throw new Error("E2E_DATABASE_URL missing: run through `playwright test`");
  return startAppServer({ databaseUrl, keyPrefix, env, ...opts });
}

test.beforeAll(async () => {
  server = await start();
});

test.afterAll(async () => {
  await server?.stop();
  build2?.remove();
});

/** A marker a reload wipes. */
const mark = (p: Page) => p.evaluate(() => ((window as unknown as { __kept?: boolean }).__kept = true));
const marked = (p: Page) => p.evaluate(() => (window as unknown as { __kept?: boolean }).__kept === true);

/** What the kiosk shows of the order being typed. */
async function form(kiosk: Page) {
  return {
    names: await kiosk.locator('input[name="itemName"]').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value)),
    qtys: await kiosk.locator('input[name="itemQty"]').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value)),
    note: await kiosk.getByLabel("Note").inputValue(),
    key: await kiosk.locator('input[name="idempotencyKey"]').inputValue(),
  };
}

/** Every request of the context goes through Playwright's router, which skips the HTTP cache (the second build reuses chunk names). */
const noCache = (ctx: BrowserContext) => ctx.route("**/*", (route) => route.continue());

test("a half-typed order survives a reload, a restart and a new build, and is taken once", async ({ browser, newTenant, request }) => {
  test.setTimeout(240_000);
  const t = await newTenant({ name: "Update Noodles" });
  const base = server.url;
  const port = server.port;
  const orders = async () => {
    const res = await request.get(`${base}/api/v1/orgs/${t.slug}/orders`, { headers: { authorization: `Bearer ${t.apiKeys.cashier}` } });
    expect(res.status()).toBe(200);
    return ((await res.json()) as { orders: { id: string; number: number; display: string; note: string | null }[] }).orders;
  };

  const cashier = await browser.newContext({ baseURL: base });
  await noCache(cashier);
  const kiosk = await cashier.newPage();
  await signIn(kiosk, t.slug, "Cashier", t.staff.cashier);
  await kiosk.goto(`/${t.slug}/kiosk?lang=en`);
  await expect(kiosk.locator("main")).toHaveAttribute("data-connection", "live");

  const screens = await browser.newContext({ baseURL: base });
  await noCache(screens);
  const board = await screens.newPage();
  await board.goto(`/${t.slug}/board`);
  const kitchen = await screens.newPage();
  await signIn(kitchen, t.slug, "Kitchen", t.staff.kitchen);
  await kitchen.goto(`/${t.slug}/kitchen`);
  // The console's audit page has no live connection to hear of a new build.
  const office = await browser.newContext({ baseURL: base });
  await noCache(office);
  const audit = await office.newPage();
  await signIn(audit, t.slug, "Manager", t.staff.manager);
  await audit.goto(`/${t.slug}/manager/audit?lang=en`);

  // Half an order: two lines (one of 2), a note.
  await kiosk.getByTestId("item-name-0").fill("Beef noodles");
  await kiosk.locator('input[name="itemQty"]').first().fill("2");
  await kiosk.getByTestId("item-name-0").press("Enter");
  await kiosk.getByTestId("item-name-1").fill("Jasmine tea");
  await kiosk.getByLabel("Note").fill("No coriander");
  const typed = await form(kiosk);
  expect(typed).toMatchObject({ names: ["Beef noodles", "Jasmine tea"], qtys: ["2", "1"], note: "No coriander" });

  // 1. A reload: the same order, the same key.
  await kiosk.reload();
  await expect.poll(() => form(kiosk)).toEqual(typed);

  // 2. A restart of the same build: the open page stays (no reload) and keeps the order.
  await mark(kiosk);
  await server.stop();
  server = await start({ port });
  await expect(kiosk.locator("main")).toHaveAttribute("data-connection", "live", { timeout: 30_000 });
  expect(await marked(kiosk)).toBe(true);
  expect(await form(kiosk)).toEqual(typed);

  // 3. "Take order" reaches the server, which takes it, but the answer is lost (the Wi-Fi drops).
  const kioskPage = (url: URL) => url.pathname === `/${t.slug}/kiosk`;
  await kiosk.route(kioskPage, async (route) => {
    if (route.request().method() !== "POST") return route.continue();
    await route.fetch();
    // The browser may have dropped the request meanwhile: its answer is lost either way.
    await route.abort("connectionreset").catch(() => {});
  });
  await kiosk.getByRole("button", { name: "Take order" }).click();
  await expect(kiosk.getByTestId("order-error")).toContainText("Could not reach the server");
  await kiosk.unroute(kioskPage);
  const taken = await orders();
  expect(taken.map((o) => o.note)).toEqual(["No coriander"]);
  // From the next load on the kiosk's socket is kept away (Playwright patches WebSocket at a page's load), so that
  // in 4 its "Take order" meets the new build before any socket names it.
  await kiosk.routeWebSocket(/\/socket\.io\//, (ws) => ws.close());
  await kiosk.route(/\/socket\.io\//, (route) => route.abort());
  // The draft outlives the page, its key with it: the order may have been taken.
  await kiosk.reload();
  await expect.poll(() => form(kiosk)).toEqual(typed);
  await expect(board.getByTestId("board-number").filter({ hasText: new RegExp(`^${taken[0]!.display}$`) })).toBeVisible();

  // 4. A new build.
  for (const p of [board, kitchen, audit]) await mark(p);
  await mark(kiosk);
  // The kiosk's session check (every 5 s) would meet the new build first and reload the page (as a page without a
  // live connection does, below): held back here, so that "Take order" is what meets it.
  await kiosk.route(kioskPage, async (route) => {
    const r = route.request();
    if (r.method() === "POST" && !(r.postData() ?? "").includes("itemName")) return route.abort("connectionreset");
    return route.continue();
  });
  build2 = makeSecondBuild();
  await server.stop();
  server = await start({ port, cwd: build2.dir });

  // The board and the kitchen reconnect, hear the new build and reload to it, and show the order.
  for (const p of [board, kitchen]) await expect.poll(() => marked(p).catch(() => false), { timeout: 30_000 }).toBe(false);
  await expect(board.getByTestId("board-number").filter({ hasText: new RegExp(`^${taken[0]!.display}$`) })).toBeVisible();
  await expect(kitchen.getByRole("article", { name: new RegExp(`\\b${taken[0]!.display}\\b`) })).toBeVisible();
  // The audit page learns it from its session check, and reloads too.
  await expect.poll(() => marked(audit).catch(() => false), { timeout: 30_000 }).toBe(false);
  await expect(audit.getByRole("heading", { name: "Audit log" })).toBeVisible();

  // The kiosk, still on the old build, sends: the server answers with the new build, the page reloads
  // to it with the draft and sends the order again, once, with its key: the order taken in 3.
  expect(await marked(kiosk), "the kiosk is still the old build's page").toBe(true);
  await kiosk.getByRole("button", { name: "Take order" }).click();
  await expect(kiosk.getByTestId("issued-number")).toHaveText(taken[0]!.display, { timeout: 30_000 });
  expect(await marked(kiosk)).toBe(false);
  await kiosk.unroute(kioskPage);
  await expect(kiosk.getByText("Same order as before — the number did not change.")).toBeVisible();
  expect((await orders()).map((o) => o.id)).toEqual([taken[0]!.id]);
  // Taken: the draft is gone, and the next order starts empty with a new key.
  await kiosk.getByRole("button", { name: "Next order" }).click();
  const next = await form(kiosk);
  expect(next).toMatchObject({ names: [""], note: "" });
  expect(next.key).not.toBe(typed.key);
  await kiosk.reload();
  await expect.poll(async () => (await form(kiosk)).names).toEqual([""]);

  await cashier.close();
  await screens.close();
  await office.close();
});

for (const locale of ["en", "zh-CN"] as const) {
  test(`screenshot: a kiosk with its order restored after a reload (${locale})`, async ({ page, newTenant }) => {
    const t = await newTenant({ name: locale === "en" ? "Harbour Noodles" : "海港面馆" });
    await signIn(page, t.slug, "Cashier", t.staff.cashier);
    await page.goto(`/${t.slug}/kiosk?lang=${locale}`);
    await page.getByTestId("item-name-0").fill(locale === "en" ? "Beef noodles" : "红烧牛肉面");
    await page.locator('input[name="itemQty"]').first().fill("2");
    await page.getByTestId("item-name-0").press("Enter");
    await page.getByTestId("item-name-1").fill(locale === "en" ? "Jasmine tea" : "茉莉花茶");
    await page.locator("#order-note").fill(locale === "en" ? "No coriander" : "不要香菜");
    await page.reload();
    await expect(page.getByTestId("item-name-1")).toHaveValue(locale === "en" ? "Jasmine tea" : "茉莉花茶");
    await page.screenshot({ path: `test-results/screenshots/kiosk-draft-restored-${locale}.png` });
    // "Clear order" forgets it: a reload then brings back nothing.
    await page.getByRole("button", { name: locale === "en" ? "Clear order" : "清空订单" }).click();
    await expect(page.getByTestId("item-name-0")).toHaveValue("");
    await page.reload();
    await expect(page.getByTestId("item-name-1")).toHaveCount(0);
    await expect(page.getByTestId("item-name-0")).toHaveValue("");
  });
}
