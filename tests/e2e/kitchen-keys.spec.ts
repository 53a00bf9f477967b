/**
 * The kitchen keyboard never jams, and long notes are never cut (issue #40): `20` is the 20
 * without letters beside D20, `d20` is D20; where K12 and D12 both show 12 the question
 * shows its keys (1, 2, ↑/↓ Enter, Esc) and every path ends in a bump or back in the field;
 * a 300-character allergy note is on its ticket whole. Screenshots in English and Chinese
 * go to test-results/screenshots/kitchen-keys-*.png.
 */
import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { stableDaySpec } from "../support/fixtures";
import { insertSeries, type TestTenant } from "../support/tenants";
import { expectNoSeriousAxe } from "./axe";
import { expect, signIn, test, type NewTenant } from "./fixtures";

const SHOTS = "test-results/screenshots";

const LONG_NOTE =
  "ALLERGY: severe peanut and tree nut allergy (anaphylaxis). No peanuts, no cashews, no walnuts, no sesame oil. " +
  "Use clean pans and utensils, fresh gloves, and keep it away from the satay station. Sauce on the side, no crispy shallots. " +
  "If unsure about any ingredient, call the customer before cooking it.";
const LONG_NOTE_ZH =
  "过敏：对花生和坚果严重过敏（会休克）。不要花生、腰果、核桃，也不要芝麻油。请用干净的锅和餐具，换新手套，远离沙爹酱台。酱汁另放，不要油葱酥。对任何配料不确定，请先打电话问顾客再做。";

async function tenantWith(newTenant: NewTenant, name: string, series: { name: string; prefix: string; first: number; channels: string[] }[]) {
  // A day-start 12 hours away: the business day cannot turn over mid-test (no "earlier day" marks).
  const { timeZone, dayStart } = stableDaySpec("x");
  const t = await newTenant({ name, timeZone, dayStart });
  for (const s of series) await insertSeries(process.env.E2E_DATABASE_URL!, t.id, { ...s, last: 299 });
  return t;
}

async function place(request: APIRequestContext, t: TestTenant, body: Record<string, unknown>): Promise<{ id: string; display: string }> {
  const res = await request.post(`/api/v1/orgs/${t.slug}/orders`, { headers: { authorization: `Bearer ${t.apiKeys.cashier}` }, data: body });
  expect(res.status()).toBe(201);
  return (await res.json()) as { id: string; display: string };
}

const typed = (page: Page, label = "Order number") => page.getByLabel(label, { exact: true });
async function typeNumber(page: Page, value: string, label?: string) {
  await typed(page, label).fill(value);
  await typed(page, label).press("Enter");
}
const pile = (page: Page, id: "to-prepare" | "waiting-pickup") => page.getByTestId(id);
const ticket = (page: Page, display: string) => page.getByRole("article", { name: `Order ${display}`, exact: true });

async function openKitchen(page: Page, t: TestTenant, lang: "en" | "zh-CN") {
  await page.goto(`/${t.slug}/kitchen?lang=${lang}`);
  await expect(page.locator("[data-connection=live]")).toBeVisible();
}

/** The note is on its ticket whole: its text, nothing clipped, above the ticket's buttons. */
async function expectWholeNote(card: Locator, note: string) {
  await expect(card.getByTestId("ticket-note")).toContainText(note);
  const fit = await card.evaluate((article) => {
    const box = article.querySelector("[data-testid=ticket-note]")!;
    const text = box.querySelector("p")!;
    const content = box.parentElement!;
    // The ticket's own buttons (Ready, Cancel), not a "+N more" among its lines.
    const buttons = [...article.querySelectorAll("button")].find((b) => !content.contains(b))!.getBoundingClientRect();
    return {
      textFits: text.scrollHeight <= text.clientHeight + 1 && text.scrollWidth <= text.clientWidth + 1,
      contentFits: content.scrollHeight <= content.clientHeight + 1,
      aboveButtons: box.getBoundingClientRect().bottom <= buttons.top + 1,
      lines: Math.round(text.getBoundingClientRect().height / 20),
    };
  });
  expect(fit).toMatchObject({ textFits: true, contentFits: true, aboveButtons: true });
  // Wrapped, not one cut line.
  expect(fit.lines).toBeGreaterThan(3);
}

test.describe("the kitchen keyboard at 1280×800", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("20 is the 20 without letters, d20 is D20; a long allergy note is on its ticket whole", async ({ page, request, newTenant }) => {
    // The counter's numbers 20–299 without letters beside delivery's D20–D299.
    const t = await tenantWith(newTenant, "Keys Kitchen", [
      { name: "Counter", prefix: "", first: 20, channels: ["counter"] },
      { name: "Delivery", prefix: "D", first: 20, channels: ["delivery"] },
    ]);
    const plain = await place(request, t, { items: [{ name: "Tea", qty: 1 }], channel: "counter" });
    const d20 = await place(request, t, { items: [{ name: "Dumplings", qty: 2 }], channel: "delivery" });
    const noted = await place(request, t, {
      items: [
        { name: "Satay noodles", qty: 1 },
        { name: "Rice", qty: 2 },
      ],
      channel: "counter",
      note: LONG_NOTE,
    });
    const notedZh = await place(request, t, { items: [{ name: "宫保鸡丁", qty: 1 }], channel: "delivery", note: LONG_NOTE_ZH });
    expect([plain.display, d20.display, noted.display, notedZh.display]).toEqual(["20", "D20", "21", "D21"]);
    expect(LONG_NOTE.length).toBeGreaterThanOrEqual(300);

    await signIn(page, t.slug, "Kitchen", t.staff.kitchen);
    await openKitchen(page, t, "en");
    await expectWholeNote(ticket(page, "21"), LONG_NOTE);
    await expectWholeNote(ticket(page, "D21"), LONG_NOTE_ZH);
    // Only a ticket with a long note grows; one without keeps the grid's height, and a noted one still shows a dish.
    const [plainBox, notedBox] = [(await ticket(page, "20").boundingBox())!, (await ticket(page, "21").boundingBox())!];
    expect(Math.round(plainBox.height)).toBe(148);
    expect(notedBox.height).toBeGreaterThan(plainBox.height);
    // Two columns wide, so the whole ticket, its Ready button too, is on an 800 px screen.
    expect(notedBox.width).toBeGreaterThan(2 * plainBox.width);
    expect(notedBox.y + notedBox.height).toBeLessThanOrEqual(800);
    await expect(ticket(page, "21").getByRole("button", { name: "Ready", exact: true })).toBeInViewport();
    await expect(ticket(page, "21").getByRole("listitem").first()).toContainText("Satay noodles");
    await expectNoSeriousAxe(page, "kitchen with a long note (en)");
    await page.screenshot({ path: `${SHOTS}/kitchen-keys-long-note-en.png` });

    // Digits alone: the 20 without letters, at once — no question.
    await typeNumber(page, "20");
    await expect(page.getByTestId("kitchen-status")).toHaveText("20 → Ready");
    await expect(page.getByTestId("typed-choice")).toHaveCount(0);
    await expect(pile(page, "waiting-pickup").getByRole("article", { name: "Order 20", exact: true })).toBeVisible();
    await expect(pile(page, "to-prepare").getByRole("article", { name: "Order D20", exact: true })).toBeVisible();
    // Letters: D20.
    await typeNumber(page, "d20");
    await expect(page.getByTestId("kitchen-status")).toHaveText("D20 → Ready");
    await expect(pile(page, "waiting-pickup").getByRole("article", { name: "Order D20", exact: true })).toBeVisible();
    await expect(typed(page)).toBeFocused();

    await openKitchen(page, t, "zh-CN");
    const zh21 = page.getByRole("article", { name: "21号单", exact: true });
    await expectWholeNote(zh21, LONG_NOTE);
    await expectWholeNote(page.getByRole("article", { name: "D21号单", exact: true }), LONG_NOTE_ZH);
    await expectNoSeriousAxe(page, "kitchen with a long note (zh-CN)");
    await page.screenshot({ path: `${SHOTS}/kitchen-keys-long-note-zh-CN.png` });
    await page.goto(`/${t.slug}/kitchen?lang=en`);
  });

  test("K12 and D12: the question shows its keys; 2, ↓ Enter, Esc, an empty Enter and letters all end in a bump or the field", async ({
    page,
    request,
    newTenant,
  }) => {
    const t = await tenantWith(newTenant, "Keys Series", [
      { name: "Kiosk", prefix: "K", first: 12, channels: ["kiosk"] },
      { name: "Delivery", prefix: "D", first: 12, channels: ["delivery"] },
    ]);
    const k12 = await place(request, t, { items: [{ name: "Beef noodles", qty: 1 }], channel: "kiosk" });
    const d12 = await place(request, t, { items: [{ name: "Dumplings", qty: 2 }], channel: "delivery" });
    expect([k12.display, d12.display]).toEqual(["K12", "D12"]);
    await signIn(page, t.slug, "Kitchen", t.staff.kitchen);
    await openKitchen(page, t, "en");
    const choice = page.getByTestId("typed-choice");
    const status = page.getByTestId("kitchen-status");
    const statusOf = (display: string, id: "to-prepare" | "waiting-pickup") =>
      expect(pile(page, id).getByRole("article", { name: `Order ${display}`, exact: true })).toBeVisible();

    // 12 alone, no 12 without letters: the screen asks, focus in the question, each order with its key.
    await typeNumber(page, "12");
    await expect(choice.getByRole("alert")).toHaveText("Which 12? Pick one, or type it with its letter (D12).");
    await expect(choice).toBeFocused();
    const options = choice.getByRole("button", { name: /^[KD]12 / });
    await expect(options).toHaveText(["1D12 To prepare · Dumplings", "2K12 To prepare · Beef noodles"]);
    await expect(options.nth(1)).toHaveAccessibleName("K12 To prepare · Beef noodles");
    await expect(options.nth(1)).toHaveAttribute("aria-keyshortcuts", "2");
    await expect(choice.locator("#typed-choice-keys")).toContainText("pick that order");
    await expect(choice.locator("#typed-choice-keys")).toContainText("back to typing, nothing moved");
    await expectNoSeriousAxe(page, "kitchen asking which 12, keys shown (en)");
    await page.screenshot({ path: `${SHOTS}/kitchen-keys-choice-en.png` });

    // 2 picks the second: K12 moves, focus back in the field.
    await page.keyboard.press("2");
    await expect(status).toHaveText("K12 → Ready");
    await expect(choice).toHaveCount(0);
    await expect(typed(page)).toBeFocused();
    await statusOf("K12", "waiting-pickup");
    await statusOf("D12", "to-prepare");

    // ↓ highlights the first, Enter picks it.
    await typeNumber(page, "12");
    await expect(choice).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(choice.getByRole("button", { name: /^D12 / })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(status).toHaveText("D12 → Ready");
    await expect(typed(page)).toBeFocused();
    await statusOf("D12", "waiting-pickup");

    // Esc leaves the question: nothing moved, focus in the field.
    await typeNumber(page, "12");
    await expect(choice).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(choice).toHaveCount(0);
    await expect(typed(page)).toBeFocused();
    // An Enter with nothing highlighted (out of habit) leaves it too, and moves nothing.
    await typeNumber(page, "12");
    await expect(choice).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(choice).toHaveCount(0);
    await expect(typed(page)).toBeFocused();
    // Back in the field while asked: an empty Enter there leaves the question as well.
    await typeNumber(page, "12");
    await expect(choice).toBeFocused();
    await typed(page).click();
    await typed(page).press("Enter");
    await expect(choice).toHaveCount(0);
    await statusOf("K12", "waiting-pickup");
    await statusOf("D12", "waiting-pickup");
    await expect(page.getByTestId("collected-K12")).toHaveCount(0);
    await expect(page.getByTestId("collected-D12")).toHaveCount(0);

    // Letters typed at the question go to the field: k12 Enter moves K12.
    await typeNumber(page, "12");
    await expect(choice).toBeFocused();
    await page.keyboard.type("k12");
    await expect(choice).toHaveCount(0);
    await expect(typed(page)).toHaveValue("k12");
    await page.keyboard.press("Enter");
    await expect(status).toHaveText("K12 → Collected");
    await expect(page.getByTestId("collected-K12")).toBeVisible();

    // A number no open order shows is said so.
    await typeNumber(page, "99");
    await expect(page.getByTestId("kitchen-error")).toHaveText("No open order has number 99.");

    // Chinese: the same question and keys, for the series' next tickets K13 and D13; 1 picks D13.
    const next = [await place(request, t, { items: [{ name: "牛肉面", qty: 1 }], channel: "kiosk" })];
    next.push(await place(request, t, { items: [{ name: "水饺", qty: 1 }], channel: "delivery" }));
    expect(next.map((o) => o.display)).toEqual(["K13", "D13"]);
    await openKitchen(page, t, "zh-CN");
    await expect(page.getByRole("article", { name: "D13号单", exact: true })).toBeVisible();
    await typeNumber(page, "13", "取餐号");
    await expect(choice.getByRole("alert")).toHaveText("是哪一张 13？请选择，或连字母一起输入（如 D13）。");
    await expect(choice).toBeFocused();
    await expect(options).toHaveCount(0);
    await expect(choice.getByRole("button", { name: /^[KD]13 / })).toHaveText(["1D13 待制作 · 水饺", "2K13 待制作 · 牛肉面"]);
    await expect(choice.locator("#typed-choice-keys")).toContainText("按编号选择");
    await expectNoSeriousAxe(page, "kitchen asking which 13, keys shown (zh-CN)");
    await page.screenshot({ path: `${SHOTS}/kitchen-keys-choice-zh-CN.png` });
    await page.keyboard.press("1");
    await expect(status).toHaveText("D13 → 待取餐");
    await expect(typed(page, "取餐号")).toBeFocused();
    await page.goto(`/${t.slug}/kitchen?lang=en`);
  });
});
