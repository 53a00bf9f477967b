/**
 * A new shift in the middle of service hides nobody's order: the confirmation says how
 * many orders are still open and keeps them unless the manager chooses to clear them.
 */
import { expect, signIn, test } from "./fixtures";

test("the new-shift confirmation counts the open orders, keeps them by default, and clears them only when asked", async ({
  page,
  browser,
  baseURL,
  newTenant,
  request,
}) => {
  const t = await newTenant({ name: "Shift Bistro" });
  const post = async () => {
    const res = await request.post(`/api/v1/orgs/${t.slug}/orders`, {
      headers: { authorization: `Bearer ${t.apiKeys.cashier}` },
      data: { items: [{ name: "Soup", qty: 1 }] },
    });
    expect(res.status()).toBe(201);
    return (await res.json()) as { id: string; number: number };
  };
  const [first, second] = [await post(), await post()];
  await request.post(`/api/v1/orgs/${t.slug}/orders/${second.id}/status`, {
    headers: { authorization: `Bearer ${t.apiKeys.kitchen}` },
    data: { status: "READY" },
  });

  const boardContext = await browser.newContext({ baseURL });
  const board = await boardContext.newPage();
  await board.goto(`/${t.slug}/board?lang=en`);
  const numbers = board.getByTestId("board-number");
  await expect(numbers).toHaveCount(2);

  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, t.slug, "Manager", t.staff.manager);
  await page.goto(`/${t.slug}/manager`);
  // The overview says where the numbers go before anything is pressed, and the confirmation again.
  const skips = page.getByTestId("shift-skips");
  await expect(skips).toHaveText("Next number 3; 1, 2 are still open and will be skipped.");
  await page.getByRole("button", { name: "Start new shift…" }).click();
  await expect(page.getByTestId("open-count")).toHaveText("2 orders are still open (being prepared or waiting for pickup).");
  await expect(skips).toHaveText("Next number 3; 1, 2 are still open and will be skipped.");
  await expect(page.getByRole("radio", { name: /Keep them/ })).toBeChecked();
  await page.screenshot({ path: "test-results/screenshots/manager-new-shift-en.png" });
  await page.getByRole("button", { name: "Yes, start shift 2" }).click();
  // 1 and 2 are kept open: the next order gets 3, and the manager is told so (decision 0027).
  await expect(page.getByRole("status")).toHaveText("Shift 2 started — next number is 3.");
  await expect(page.getByTestId("current-shift")).toHaveText("2");
  // Kept: both still on the board, marked with their shift.
  await expect(numbers).toHaveCount(2);
  await expect(board.getByText("S1")).toHaveCount(2);

  await page.getByRole("button", { name: "Start new shift…" }).click();
  await expect(page.getByTestId("open-count")).toContainText("2 orders are still open");
  await page.getByRole("radio", { name: /Clear them/ }).check();
  // Cleared orders hold no number: nothing is skipped.
  await expect(skips).toHaveText("Numbers start again from 1.");
  await page.getByRole("button", { name: "Yes, start shift 3" }).click();
  await expect(page.getByRole("status")).toHaveText("Shift 3 started — next number is 1. 2 open orders were cleared.");
  await expect(numbers).toHaveCount(0);

  // Cleared, not lost: the customer's page says so.
  const phone = await boardContext.newPage();
  await phone.goto(`/${t.slug}/o/${first.id}?lang=en`);
  await expect(phone.getByTestId("order-status")).toHaveAttribute("data-stage", "cleared");
  await expect(phone.getByTestId("order-status")).toContainText("This order was taken off the list. Please ask at the counter.");
  await boardContext.close();
});
