/**
 * The wait on the customer's page (decision 0052), on a phone: nothing in a restaurant with
 * too little history; "About 9–18 min" with four orders ahead, moving live to the history's
 * range when that order is made ready; "Any minute now" near the end; "Taking longer than
 * usual" past it — in English and in Chinese. Screenshots in /work/shots/estimate.
 */
import type { APIRequestContext, Page } from "@playwright/test";
import pg from "pg";
import { expectNoSeriousAxe } from "./axe";
import { expect, signIn, test } from "./fixtures";
import { stableDaySpec } from "../support/fixtures";
import type { TestTenant } from "../support/tenants";

const SHOTS = process.env.ESTIMATE_SHOTS ?? "test-results/screenshots/estimate";
const MIN = 60_000;
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

async function place(request: APIRequestContext, t: TestTenant, name: string): Promise<{ id: string }> {
  const res = await request.post(`/api/v1/orgs/${t.slug}/orders`, {
    headers: { authorization: `Bearer ${t.apiKeys.cashier}` },
    data: { items: [{ name, qty: 1 }] },
  });
  expect(res.status()).toBe(201);
  return (await res.json()) as { id: string };
}

async function move(request: APIRequestContext, t: TestTenant, id: string, status: string) {
  const res = await request.post(`/api/v1/orgs/${t.slug}/orders/${id}/status`, { headers: { authorization: `Bearer ${t.apiKeys.kitchen}` }, data: { status } });
  expect(res.status()).toBe(200);
}

/** As if taken `placedAgo` ms ago and (when given) first made ready `readyAgo` ms ago. */
async function backdate(id: string, placedAgo: number, readyAgo: number | null) {
  const db = new pg.Client({ connectionString: process.env.E2E_DATABASE_URL });
  await db.connect();
  try {
    const now = Date.now();
    await db.query(`UPDATE "Order" SET "createdAt" = $2 WHERE id = $1`, [id, new Date(now - placedAgo)]);
    if (readyAgo !== null) {
      await db.query(`UPDATE "Order" SET "readyAt" = $2 WHERE id = $1`, [id, new Date(now - readyAgo)]);
      await db.query(`UPDATE "OrderEvent" SET at = $2 WHERE "orderId" = $1 AND status = 'READY'`, [id, new Date(now - readyAgo)]);
    }
  } finally {
    await db.end();
  }
}

/** Twelve orders made ready over the last hour, each in 6–8 minutes (p50 7, p80 8). */
async function anHourOfHistory(request: APIRequestContext, t: TestTenant) {
  for (let i = 0; i < 12; i++) {
    const o = await place(request, t, `Earlier ${i + 1}`);
    await move(request, t, o.id, "READY");
    await move(request, t, o.id, "COLLECTED");
    const placedAgo = (58 - 2 * i) * MIN;
    await backdate(o.id, placedAgo, placedAgo - (6 + (i % 3)) * MIN);
  }
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

async function restaurant(newTenant: Parameters<Parameters<typeof test>[2]>[0]["newTenant"], name: string) {
  const day = stableDaySpec("x");
  return newTenant({ name, timeZone: day.timeZone, dayStart: day.dayStart });
}

test("a restaurant with too little history says no wait at all", async ({ page, request, newTenant }) => {
  const t = await restaurant(newTenant, "Quiet Corner");
  const mine = await place(request, t, "Dumplings");
  await page.goto(`/${t.slug}/o/${mine.id}?lang=en`);
  await expect(page.getByTestId("ahead")).toHaveText("You're next!");
  await expect(page.getByTestId("live")).toBeVisible();
  await expect(page.getByTestId("wait")).toHaveCount(0);
  await expect(page.getByTestId("order-status")).not.toContainText(/min|About/);
});

test("the wait in English and Chinese: a range from the last hour, moving live with the queue, then any minute, then late", async ({
  page,
  request,
  newTenant,
}) => {
  const t = await restaurant(newTenant, "Golden Wok");
  await anHourOfHistory(request, t);
  const ahead = [];
  for (const name of ["Beef noodles", "Fried rice", "Wonton soup", "Spring rolls"]) ahead.push(await place(request, t, name));
  const mine = await place(request, t, "Gamma noodles");

  await page.goto(`/${t.slug}/o/${mine.id}?lang=en`);
  await expect(page.getByTestId("ahead")).toHaveText("4 orders ahead of you");
  const wait = page.getByTestId("wait");
  // Four ahead: while busy the kitchen made about one ready every 2–3 minutes, so they push past the usual 7–8.
  await expect(wait).toHaveText(/^About \d+–\d+ min$/);
  const queued = { low: Number(await wait.getAttribute("data-low")), high: Number(await wait.getAttribute("data-high")) };
  expect(queued.low).toBeGreaterThanOrEqual(8);
  expect(queued.high).toBeGreaterThan(queued.low + 3);
  await shot(page, "customer-wait-en");
  await expectNoSeriousAxe(page, "customer's page with a wait (en)");

  // The orders ahead are made ready: the line follows the live count, without a reload, to the history's own range.
  for (const o of ahead) await move(request, t, o.id, "READY");
  await expect(page.getByTestId("ahead")).toHaveText("You're next!");
  await expect(wait).toHaveText("About 6–8 min");
  expect(Number(await wait.getAttribute("data-high"))).toBeLessThanOrEqual(queued.high);

  await page.goto(`/${t.slug}/o/${mine.id}?lang=zh-CN`);
  await expect(page.getByTestId("ahead")).toHaveText("下一个就是您！");
  await expect(page.getByTestId("wait")).toHaveText("大约 6–8 分钟");
  await shot(page, "customer-wait-zh-CN");

  // Near the end of the usual time (taken 7.5 minutes ago, p80 8): any minute now.
  await backdate(mine.id, 7.5 * MIN, null);
  await page.goto(`/${t.slug}/o/${mine.id}?lang=en`);
  await expect(page.getByTestId("wait")).toHaveText("Any minute now");
  await page.goto(`/${t.slug}/o/${mine.id}?lang=zh-CN`);
  await expect(page.getByTestId("wait")).toHaveText("马上就好");

  // Past it: no countdown below zero, a calm sentence.
  await backdate(mine.id, 20 * MIN, null);
  await page.goto(`/${t.slug}/o/${mine.id}?lang=en`);
  await expect(page.getByTestId("wait")).toHaveText("Taking longer than usual — it's on its way");
  await expect(page.getByTestId("wait")).toHaveAttribute("data-late", "true");
  await shot(page, "customer-wait-late-en");
  await page.goto(`/${t.slug}/o/${mine.id}?lang=zh-CN`);
  await expect(page.getByTestId("wait")).toHaveText("比平时久一些，正在为您制作");
  await shot(page, "customer-wait-late-zh-CN");
  await expectNoSeriousAxe(page, "customer's page, late (zh-CN)");

  // Ready: no wait any more.
  await move(request, t, mine.id, "READY");
  await expect(page.getByTestId("order-status")).toHaveAttribute("data-stage", "ready");
  await expect(page.getByTestId("wait")).toHaveCount(0);
});

test("the console's figures say how good the day's estimates were, in English and Chinese", async ({ page, request, newTenant }) => {
  const t = await restaurant(newTenant, "Estimate Diner");
  await anHourOfHistory(request, t);
  // Told about 7–8 minutes when taken (replayed): one ready in 15 (later than told), one in 7 (within), one still open.
  const slow = await place(request, t, "Slow stew");
  const onTime = await place(request, t, "Quick noodles");
  await place(request, t, "Still cooking");
  await backdate(slow.id, 15 * MIN, null);
  await backdate(onTime.id, 7 * MIN, null);
  await move(request, t, slow.id, "READY");
  await move(request, t, onTime.id, "READY");

  // The console on a laptop (at 390 px the page's existing per-shift table scrolls sideways without keyboard access: axe's scrollable-region-focusable).
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, t.slug, "Manager", t.staff.manager);
  await page.goto(`/${t.slug}/manager/figures?lang=en`);
  const section = page.getByTestId("estimate-figures");
  await expect(section.getByRole("heading", { name: "Wait estimates" })).toBeVisible();
  await expect(section.getByTestId("estimate-within")).toHaveText("50%");
  await expect(section.getByTestId("estimate-under")).toHaveText("50%");
  // |7 − 7.5| and |15 − 7.5|: the median by nearest rank is the smaller.
  await expect(section.getByTestId("estimate-median-error")).toHaveText(/^0\.\d min$/);
  await expect(section.getByTestId("estimate-count")).toHaveText("3 orders were told an estimate; 2 of them made ready.");
  await section.screenshot({ path: `${SHOTS}/figures-estimates-en.png` });
  await expectNoSeriousAxe(page, "figures with the estimates (en)");

  await page.goto(`/${t.slug}/manager/figures?lang=zh-CN`);
  await expect(section.getByRole("heading", { name: "等候时间预估" })).toBeVisible();
  await expect(section.getByTestId("estimate-count")).toHaveText("3 单获得了预估；其中 2 单已出餐。");
  await expect(section.getByTestId("estimate-median-error")).toHaveText(/^0\.\d 分钟$/);
  await section.screenshot({ path: `${SHOTS}/figures-estimates-zh-CN.png` });
});
