/**
 * Live screens never fail silently: while the server is away each one says so in a
 * banner and keeps what it showed; when the server comes back (a restart, a deploy) the
 * open page reconnects by itself, re-reads the whole state and works, without a reload.
 * These tests run their own production server, stopped and started on the same port.
 */
import { randomBytes } from "node:crypto";
import { startAppServer, testKeyPrefix, type AppServer } from "../support/app-server";
import { expect, signIn, test } from "./fixtures";

test.describe.configure({ mode: "serial" });

let server: AppServer;
let port: number;
const env = { SESSION_SECRET: randomBytes(32).toString("hex") };
const keyPrefix = testKeyPrefix("e2e-live");
const CONNECTION_LOST = "Could not reach the server. Check the connection and try again.";

function start(fixedPort?: number) {
  const databaseUrl = process.env.E2E_DATABASE_URL;
  if (!databaseUrl) throw new Error("E2E_DATABASE_URL missing: run through `playwright test`");
  return startAppServer({ databaseUrl, keyPrefix, env, ...(fixedPort ? { port: fixedPort } : {}) });
}

test.beforeAll(async () => {
  server = await start();
  port = server.port;
});

test.afterAll(async () => {
  await server?.stop();
});

test("the board, the kitchen and the manager say they are offline, keep their numbers, and come back after a restart", async ({
  browser,
  newTenant,
  request,
}) => {
  const t = await newTenant({ name: "Restart Diner" });
  const base = server.url;
  const post = async (items: string) => {
    const res = await request.post(`${base}/api/v1/orgs/${t.slug}/orders`, {
      headers: { authorization: `Bearer ${t.apiKeys.cashier}` },
      data: { items: [{ name: items, qty: 1 }] },
    });
    expect(res.status()).toBe(201);
    return (await res.json()) as { id: string; number: number };
  };
  const first = await post("Soup");

  const ctx = await browser.newContext({ baseURL: base });
  const board = await ctx.newPage();
  await board.goto(`/${t.slug}/board`);
  const kitchen = await ctx.newPage();
  await signIn(kitchen, t.slug, "Kitchen", t.staff.kitchen);
  await kitchen.goto(`/${t.slug}/kitchen`);
  const manager = await (await browser.newContext({ baseURL: base })).newPage();
  await signIn(manager, t.slug, "Manager", t.staff.manager);
  await manager.goto(`/${t.slug}/manager`);
  // A marker that a reload would wipe: the pages must recover in place.
  for (const p of [board, kitchen, manager]) await p.evaluate(() => ((window as unknown as { __kept: boolean }).__kept = true));

  const boardNumber = board
    .getByTestId("preparing")
    .getByTestId("board-number")
    .filter({ hasText: new RegExp(`^${first.number}$`) });
  await expect(boardNumber).toBeVisible();
  for (const p of [board, kitchen, manager]) await expect(p.getByTestId("offline-banner")).toHaveCount(0);

  await server.stop();
  for (const p of [board, kitchen, manager]) {
    // Heartbeats notice within ~15 s; the banner names the time of the last update.
    await expect(p.getByTestId("offline-banner")).toContainText(/Offline — last updated \d{1,2}:\d{2}/, { timeout: 30_000 });
  }
  await expect(boardNumber).toBeVisible();
  // One time format on every screen: 24-hour, as the tickets' times.
  for (const p of [board, kitchen, manager]) await expect(p.getByTestId("offline-banner")).not.toContainText(/AM|PM/);
  // A tap while offline says the server could not be reached…
  const firstTicket = kitchen.getByRole("article", { name: new RegExp(`\\b${first.number}\\b`) });
  await firstTicket.getByRole("button", { name: "Ready" }).click();
  const lost = kitchen.getByText(CONNECTION_LOST);
  await expect(lost).toBeVisible();

  server = await start(port);
  for (const p of [board, kitchen, manager]) await expect(p.getByTestId("offline-banner")).toHaveCount(0, { timeout: 30_000 });
  // …and no longer once the screen has heard from the server again.
  await expect(lost).toHaveCount(0);

  // Working again: an order taken after the restart reaches the board and the kitchen live.
  const second = await post("Noodles");
  await expect(
    board
      .getByTestId("preparing")
      .getByTestId("board-number")
      .filter({ hasText: new RegExp(`^${second.number}$`) }),
  ).toBeVisible();
  await expect(kitchen.getByRole("article", { name: new RegExp(`\\b${second.number}\\b`) })).toBeVisible();
  for (const p of [board, kitchen, manager]) expect(await p.evaluate(() => (window as unknown as { __kept?: boolean }).__kept)).toBe(true);
  await ctx.close();
});

test("the banner is in the screen's language", async ({ page, newTenant }) => {
  const t = await newTenant({ name: "Offline Noodles" });
  await page.goto(`${server.url}/${t.slug}/board?lang=zh-CN`);
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
  await page.evaluate(() => ((window as unknown as { __kept: boolean }).__kept = true));
  await server.stop();
  await expect(page.getByTestId("offline-banner")).toContainText(/离线 — 最后更新于/, { timeout: 30_000 });
  server = await start(port);
  await expect(page.getByTestId("offline-banner")).toHaveCount(0, { timeout: 30_000 });
  expect(await page.evaluate(() => (window as unknown as { __kept?: boolean }).__kept)).toBe(true);
});
