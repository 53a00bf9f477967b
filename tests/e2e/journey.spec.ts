/**
 * The whole journey of an order in a real browser: a cashier signs in and takes an
 * order; the number appears, without reload, on a board open in a second page; the
 * kitchen marks it ready and the board moves it; another restaurant's board never sees it.
 */
import { expect, signIn, test } from "./fixtures";

test("a cashier takes an order and the board shows it live, then Ready when the kitchen says so", async ({ page, browser, env, baseURL }) => {
  const alpha = env.tenants["e2e-alpha"]!;

  // The dining-room TV: public, opened before the order exists.
  const boardContext = await browser.newContext({ baseURL });
  const board = await boardContext.newPage();
  await board.goto(`/${alpha.slug}/board`);
  await expect(board.getByTestId("preparing")).toBeVisible();
  await expect(board.getByText("Live")).toBeVisible();

  await signIn(page, alpha.slug, "Cashier", alpha.staff.cashier);
  await expect(page).toHaveURL(new RegExp(`/${alpha.slug}/kiosk`));
  await page.getByTestId("item-name-0").fill("Beef noodles");
  await page.getByRole("button", { name: "Take order" }).click();
  const issued = page.getByTestId("issued-number");
  await expect(issued).toHaveText(/^\d+$/);
  const number = (await issued.textContent())!.trim();

  // The board got it over Socket.IO: no reload happened on the board page.
  await expect(
    board
      .getByTestId("preparing")
      .getByTestId("board-number")
      .filter({ hasText: new RegExp(`^${number}$`) }),
  ).toBeVisible();

  // The kitchen marks it ready; the board moves it to Ready.
  const kitchenContext = await browser.newContext({ baseURL });
  const kitchen = await kitchenContext.newPage();
  await signIn(kitchen, alpha.slug, "Kitchen", alpha.staff.kitchen);
  await expect(kitchen).toHaveURL(new RegExp(`/${alpha.slug}/kitchen`));
  const card = kitchen.getByTestId(`order-${number}`);
  await card.getByRole("button", { name: "Ready" }).click();
  await expect(
    board
      .getByTestId("ready")
      .getByTestId("board-number")
      .filter({ hasText: new RegExp(`^${number}$`) }),
  ).toBeVisible();
  await expect(
    board
      .getByTestId("preparing")
      .getByTestId("board-number")
      .filter({ hasText: new RegExp(`^${number}$`) }),
  ).toHaveCount(0);

  await boardContext.close();
  await kitchenContext.close();
});

test("the numbers of a shift count up from 1 and restart at 1 after the manager starts a new shift", async ({ page, env, request }) => {
  const alpha = env.tenants["e2e-alpha"]!;
  // The floor is empty first: a number still open is never handed out again (decision 0027),
  // and the tests before this one leave orders of alpha open. The kitchen hands them out.
  const kitchen = { authorization: `Bearer ${alpha.apiKeys.kitchen}` };
  const open = await request.get(`/api/v1/orgs/${alpha.slug}/orders?status=PLACED,READY`, { headers: kitchen });
  expect(open.status()).toBe(200);
  for (const o of ((await open.json()) as { orders: { id: string; status: string }[] }).orders) {
    for (const status of o.status === "PLACED" ? ["READY", "COLLECTED"] : ["COLLECTED"]) {
      expect((await request.post(`/api/v1/orgs/${alpha.slug}/orders/${o.id}/status`, { headers: kitchen, data: { status } })).status()).toBe(200);
    }
  }
  await signIn(page, alpha.slug, "Manager", alpha.staff.manager);
  await page.goto(`/${alpha.slug}/manager`);
  await page.getByRole("button", { name: /start new shift/i }).click();
  // A confirm step protects against a stray tap.
  await page.getByRole("button", { name: /yes, start/i }).click();
  await expect(page.getByRole("status").or(page.getByText(/next number is 1/i))).toContainText(/next number is 1/i);

  await page.goto(`/${alpha.slug}/kiosk`);
  const numbers: string[] = [];
  for (let i = 0; i < 2; i++) {
    await page.getByTestId("item-name-0").fill(`Dumplings ${i}`);
    await page.getByRole("button", { name: "Take order" }).click();
    await expect(page.getByTestId("issued-number")).toHaveText(/^\d+$/);
    numbers.push((await page.getByTestId("issued-number").textContent())!.trim());
    await page.getByRole("button", { name: "Next order" }).click();
  }
  expect(numbers).toEqual(["1", "2"]);
});

test("a board of restaurant B never shows restaurant A's numbers", async ({ browser, env, baseURL, request }) => {
  const alpha = env.tenants["e2e-alpha"]!;
  const bravo = env.tenants["e2e-bravo"]!;
  const ctx = await browser.newContext({ baseURL });
  const boardB = await ctx.newPage();
  await boardB.goto(`/${bravo.slug}/board`);
  await expect(boardB.getByText("Live")).toBeVisible();

  // Five orders for A, then one for B. B's board must show exactly B's one order.
  const post = (slug: string, key: string) =>
    request.post(`/api/v1/orgs/${slug}/orders`, { headers: { authorization: `Bearer ${key}` }, data: { items: [{ name: "Tea", qty: 1 }] } });
  const aIds: string[] = [];
  for (let i = 0; i < 5; i++) {
    const res = await post(alpha.slug, alpha.apiKeys.cashier);
    expect(res.status()).toBe(201);
    aIds.push(((await res.json()) as { id: string }).id);
  }
  const resB = await post(bravo.slug, bravo.apiKeys.cashier);
  expect(resB.status()).toBe(201);
  const b = (await resB.json()) as { number: number };

  // B's own order arrived live, so A's five would have arrived by now too if they leaked.
  await expect(boardB.getByTestId("preparing").getByTestId("board-number")).toHaveText([String(b.number)]);
  await boardB.reload();
  await expect(boardB.getByTestId("preparing").getByTestId("board-number")).toHaveText([String(b.number)]);
  const html = await boardB.content();
  for (const id of aIds) expect(html).not.toContain(id);
  await ctx.close();
});

test("staff screens refuse the wrong role and the wrong restaurant", async ({ page, env }) => {
  const alpha = env.tenants["e2e-alpha"]!;
  const bravo = env.tenants["e2e-bravo"]!;

  await page.goto(`/${alpha.slug}/kiosk`);
  await expect(page).toHaveURL(new RegExp(`/${alpha.slug}/sign-in`));

  await signIn(page, alpha.slug, "Kitchen", "definitely-wrong");
  await expect(page.getByTestId("sign-in-error")).toContainText(/wrong sign-in code/i);

  await signIn(page, alpha.slug, "Kitchen", alpha.staff.kitchen);
  await page.goto(`/${alpha.slug}/kiosk`);
  await expect(page).toHaveURL(new RegExp(`/${alpha.slug}/sign-in`));
  await expect(page.getByText(/needs cashier/i)).toBeVisible();

  await page.goto(`/${bravo.slug}/kitchen`);
  await expect(page).toHaveURL(new RegExp(`/${bravo.slug}/sign-in`));
  await expect(page.getByText(/another restaurant/i)).toBeVisible();
});
