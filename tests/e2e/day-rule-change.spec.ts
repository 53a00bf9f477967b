/**
 * A manager changes the time zone in the middle of service, to one where another business
 * day is under way: every open order stays on the board, in the kitchen and on its
 * customer's phone, marked as of its day; the settings page said so before saving.
 */
import { businessDayAt } from "@/lib/core/business-day";
import { expect, signIn, test } from "./fixtures";

/** A zone whose business day (day start 04:00) differs from Berlin's right now. */
function zoneOfAnotherDay(): string {
  const now = new Date();
  const berlin = businessDayAt(now, { timeZone: "Europe/Berlin", dayStartMinutes: 240 });
  const zone = ["Pacific/Kiritimati", "Asia/Shanghai", "America/Los_Angeles", "Pacific/Pago_Pago"].find(
    (z) => businessDayAt(now, { timeZone: z, dayStartMinutes: 240 }) !== berlin,
  );
  if (!zone) throw new Error("no zone of another business day (UTC+14 … UTC−11 always has one)");
  return zone;
}

test("a time-zone change during service keeps every open order on the board, the kitchen and the phone", async ({
  browser,
  baseURL,
  newTenant,
  request,
  page,
}) => {
  const t = await newTenant({ name: "Zone Bistro", timeZone: "Europe/Berlin", dayStart: "04:00" });
  const as = (key: string) => ({ authorization: `Bearer ${key}` });
  const ids: string[] = [];
  for (let i = 0; i < 6; i++) {
    const res = await request.post(`/api/v1/orgs/${t.slug}/orders`, { headers: as(t.apiKeys.cashier), data: { items: [{ name: "Noodles", qty: 1 }] } });
    expect(res.status()).toBe(201);
    ids.push(((await res.json()) as { id: string }).id);
  }
  for (const id of ids.slice(0, 2)) {
    expect((await request.post(`/api/v1/orgs/${t.slug}/orders/${id}/status`, { headers: as(t.apiKeys.kitchen), data: { status: "READY" } })).status()).toBe(
      200,
    );
  }

  const guests = await browser.newContext({ baseURL });
  const board = await guests.newPage();
  await board.setViewportSize({ width: 1920, height: 1080 });
  await board.goto(`/${t.slug}/board?lang=en`);
  await expect(board.getByTestId("board-number")).toHaveCount(6);
  const phone = await guests.newPage();
  await phone.setViewportSize({ width: 390, height: 844 });
  await phone.goto(`/${t.slug}/o/${ids[0]}?lang=en`);
  await expect(phone.getByTestId("order-status")).toHaveAttribute("data-stage", "ready");

  // The manager types the new zone: the page says what it does before saving.
  const zone = zoneOfAnotherDay();
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, t.slug, "Manager", t.staff.manager);
  await page.goto(`/${t.slug}/manager/settings?lang=en`);
  await page.getByLabel("Filter by city or region").fill(zone.split("/")[1]!);
  await page.getByLabel("Time zone", { exact: true }).selectOption(zone);
  const note = page.getByTestId("day-rule-change");
  await expect(note).toContainText("The business day");
  await expect(note).toContainText("The 6 open orders stay on the floor.");
  await page.screenshot({ path: "test-results/screenshots/manager-settings-day-change-en.png" });
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByTestId("settings-saved")).toBeVisible();

  // Reloaded or live, every open order is still there.
  await board.reload();
  await expect(board.getByTestId("board-number")).toHaveCount(6);
  // Marked with their day if the new zone's day is later (with their shift they would be no different).
  await board.screenshot({ path: "test-results/screenshots/board-after-zone-change-en.png" });
  await phone.reload();
  await expect(phone.getByTestId("order-status")).toHaveAttribute("data-stage", "ready");
  const kitchen = await (await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } })).newPage();
  await signIn(kitchen, t.slug, "Kitchen", t.staff.kitchen);
  await kitchen.goto(`/${t.slug}/kitchen?lang=en`);
  for (const status of ["PLACED", "READY"]) {
    const res = await request.get(`/api/v1/orgs/${t.slug}/orders/${ids[status === "READY" ? 0 : 5]}`, { headers: as(t.apiKeys.kitchen) });
    const o = (await res.json()) as { number: number; shift: number };
    await expect(kitchen.getByText(String(o.number), { exact: true }).first()).toBeVisible();
  }
  await expect(kitchen.getByTestId("to-prepare")).toContainText("(4)");
  await guests.close();
});
