/**
 * The kiosk and network printers (issue #22, decision 0029), in a real browser against the
 * real server and a printer stand-in on a real TCP port: a device picks the printer, its
 * tickets print there with no dialog (the right number, the right QR code), a printer
 * switched off or out of paper shows a banner naming the waiting ticket, live, and clears
 * when it is back; a ticket given up offers Reprint; "Reprint last ticket" prints on the
 * server; a device without a printer still prints through the browser's dialog.
 */
import { copyFileSync, mkdirSync } from "node:fs";
import type { APIRequestContext, Page } from "@playwright/test";
import { expectNoSeriousAxe } from "./axe";
import { expect, signIn, test } from "./fixtures";
import { decodeEscPos } from "../support/escpos-decode";
import { startPrinterStandIn, type PrinterStandIn } from "../support/printer-stand-in";
import type { TestTenant } from "../support/tenants";

const SHOTS = "test-results/screenshots";
const DOCS = "docs/screenshots";
test.use({ viewport: { width: 1024, height: 768 } });

let stand: PrinterStandIn | null = null;
test.afterEach(async () => {
  await stand?.stop();
  stand = null;
});

/** Counts window.print() calls (headless Chromium would otherwise do nothing visible). */
async function recordPrints(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { prints: number };
    w.prints = 0;
    window.print = () => void w.prints++;
  });
}
const prints = (page: Page) => page.evaluate(() => (window as unknown as { prints: number }).prints);

/** A printer at the stand-in's address that only prints for devices choosing it (no channel, no series). */
async function addPrinter(request: APIRequestContext, t: TestTenant, printer: PrinterStandIn, name: string, channels: string[] = []): Promise<string> {
  const res = await request.post(`/api/v1/orgs/${t.slug}/printers`, {
    headers: { authorization: `Bearer ${t.apiKeys.manager}` },
    data: { name, ...printer.address, channels },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function openKiosk(page: Page, t: TestTenant, locale: "en" | "zh-CN" = "en") {
  await signIn(page, t.slug, "Cashier", t.staff.cashier);
  await page.goto(`/${t.slug}/kiosk?lang=${locale}`);
  await expect(page.locator("main")).toHaveAttribute("data-connection", "live");
  // A reload would lose this: the checks below prove the banner comes and goes without one.
  await page.evaluate(() => ((window as unknown as { sameLoad: boolean }).sameLoad = true));
}
const sameLoad = (page: Page) => page.evaluate(() => (window as unknown as { sameLoad?: boolean }).sameLoad === true);

/** Takes an order of `item`; its number and order id. */
async function takeOrder(page: Page, item: string, button = "Take order") {
  await page.getByTestId("item-name-0").fill(item);
  await page.getByRole("button", { name: button, exact: true }).click();
  await expect(page.getByTestId("issued-number")).toHaveText(/^\d+$/);
  const number = (await page.getByTestId("issued-number").textContent())!.trim();
  const url = (await page.getByTestId("ticket").first().getByTestId("ticket-url").textContent())!.trim();
  return { number, orderId: url.split("/o/")[1]!, url };
}

/** The big number and the QR payload of a ticket the stand-in received. */
function readTicket(bytes: Buffer) {
  const decoded = decodeEscPos(bytes, "latin");
  const big = [...decoded.scales].sort((a, b) => b.height - a.height)[0];
  return { number: big?.text ?? null, qr: decoded.qr[0] ?? null, lines: decoded.lines };
}

/** The centre of `testId`'s element is what the pointer hits there: nothing covers it. */
async function uncovered(page: Page, name: string) {
  const button = page.getByRole("button", { name, exact: true });
  await button.scrollIntoViewIfNeeded();
  return button.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !!top && (el === top || el.contains(top));
  });
}

test("a device that chose a network printer: no dialog, its ticket at the printer, trouble shown live, Reprint on the server", async ({
  page,
  request,
  newTenant,
}) => {
  test.setTimeout(120_000);
  const t = await newTenant({ name: "Harbour Grill" });
  stand = await startPrinterStandIn();
  const printerId = await addPrinter(request, t, stand, "Counter");
  await recordPrints(page);
  await openKiosk(page, t);

  // The picker: this screen's dialog (as before) or the restaurant's printer, its state in words.
  const picker = page.getByLabel("Printer", { exact: true });
  await expect(picker).toHaveValue("");
  await expect(picker.locator("option").first()).toHaveText("This screen's print dialog");
  await expect(picker.locator(`option[value="${printerId}"]`)).toHaveText(/^Counter — (ready|status unknown)$/);
  await picker.selectOption(printerId);

  // An order: the server prints it, the browser does not.
  const first = await takeOrder(page, "Fish and chips");
  await expect(page.getByRole("button", { name: "Print ticket" })).toHaveCount(0);
  await expect(page.getByTestId("issued-printing")).toHaveText(/Printed on Counter/);
  const [job] = await stand.waitForJobs(1, 15_000);
  const ticket = readTicket(job!);
  expect(ticket.number).toBe(first.number);
  expect(ticket.qr).toMatch(new RegExp(`/${t.slug}/o/${first.orderId}$`));
  expect(ticket.lines.join("\n")).toContain("Fish and chips");
  expect(await prints(page)).toBe(0);
  await page.screenshot({ path: `${SHOTS}/kiosk-printed-on-printer-en.png` });

  // Remembered on the device.
  await page.getByRole("button", { name: "Next order" }).click();
  await page.reload();
  await expect(page.locator("main")).toHaveAttribute("data-connection", "live");
  await expect(picker).toHaveValue(printerId);
  await page.evaluate(() => ((window as unknown as { sameLoad: boolean }).sameLoad = true));

  // Switched off: the next order's ticket waits, and the banner says which, live.
  await stand.stop();
  const second = await takeOrder(page, "Lemonade");
  const offline = page.getByTestId("print-trouble-offline");
  await expect(offline).toHaveText(`Printer “Counter” offline — ticket ${second.number} will print when it is back`);
  await expect(page.getByTestId("printing-banner")).toHaveAttribute("role", "status");
  await expect(page.getByTestId("issued-printing")).toHaveText(/Waiting for Counter \(offline\)/);
  await page.screenshot({ path: `${SHOTS}/kiosk-printer-offline-issued-en.png` });
  await page.getByRole("button", { name: "Next order" }).click();
  await expect(offline).toBeVisible();
  // The banner sits in the page's flow: the form's buttons stay where they can be tapped.
  for (const name of ["Take order", "Number only", "Reprint last ticket"]) expect(await uncovered(page, name), name).toBe(true);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SHOTS}/kiosk-printer-offline-en.png` });
  await expectNoSeriousAxe(page, "the kiosk with the printer-offline banner");
  await expect(picker.locator(`option[value="${printerId}"]`)).toHaveText("Counter — offline");

  // Back on: the waiting ticket prints and the banner goes.
  await stand.start();
  await expect(offline).toHaveCount(0, { timeout: 20_000 });
  const jobs = await stand.waitForJobs(2, 15_000);
  expect(readTicket(jobs[1]!).number).toBe(second.number);

  // Out of paper: said so, with the ticket that waits.
  stand.mode = "paperOut";
  const third = await takeOrder(page, "Dumplings");
  await expect(page.getByTestId("print-trouble-paperOut")).toHaveText(`Printer “Counter” out of paper — ticket ${third.number} will print when paper is in`);
  await page.screenshot({ path: `${SHOTS}/kiosk-printer-paper-out-en.png` });
  stand.mode = "online";
  await expect(page.getByTestId("print-trouble-paperOut")).toHaveCount(0, { timeout: 20_000 });
  await expect(page.getByTestId("issued-printing")).toHaveText(/Printed on Counter/);
  expect(readTicket((await stand.waitForJobs(3, 15_000))[2]!).number).toBe(third.number);

  // Reprint last ticket: a second copy at the printer, still no dialog.
  await page.getByRole("button", { name: "Next order" }).click();
  await page.getByRole("button", { name: "Reprint last ticket" }).click();
  await expect(page.getByTestId("reprint-sent")).toHaveText(/Sent to Counter/);
  const copies = await stand.waitForJobs(4, 15_000);
  expect(readTicket(copies[3]!).number).toBe(third.number);
  expect(readTicket(copies[3]!).qr).toMatch(new RegExp(`/${t.slug}/o/${third.orderId}$`));
  expect(await prints(page)).toBe(0);
  expect(await sameLoad(page)).toBe(true);
});

test("a device with no printer chosen prints through the browser's dialog, as before, even when the restaurant has printers", async ({
  page,
  request,
  newTenant,
}) => {
  const t = await newTenant();
  stand = await startPrinterStandIn();
  await addPrinter(request, t, stand, "Counter");
  await recordPrints(page);
  await openKiosk(page, t);
  await expect(page.getByLabel("Printer", { exact: true })).toHaveValue("");
  const { number } = await takeOrder(page, "Dumplings");
  await expect(page.getByTestId("issued-printing")).toHaveCount(0);
  await page.getByRole("button", { name: "Print ticket" }).click();
  expect(await prints(page)).toBe(1);
  await page.getByRole("button", { name: "Next order" }).click();
  await page.getByRole("button", { name: "Reprint last ticket" }).click();
  expect(await prints(page)).toBe(2);
  await expect(page.getByTestId("print-root").getByTestId("ticket-number")).toHaveText(number);
  await expect(page.getByTestId("printing-banner")).toBeEmpty();
  expect(stand.jobs()).toEqual([]);
});

test("a device with no printer chosen whose tickets go to the kiosk channel's printer: the menu names that printer, not the dialog", async ({
  page,
  request,
  newTenant,
}) => {
  const t = await newTenant();
  stand = await startPrinterStandIn();
  await addPrinter(request, t, stand, "Counter", ["kiosk"]);
  await recordPrints(page);
  await openKiosk(page, t);
  const picker = page.getByLabel("Printer", { exact: true });
  await expect(picker).toHaveValue("");
  await expect(picker.locator("option").first()).toHaveText(/^Automatic: Counter — (ready|status unknown)$/);
  await takeOrder(page, "Dumplings");
  await stand.waitForJobs(1, 20_000);
  expect(await prints(page)).toBe(0);
});

test("a remembered printer removed by the manager: the device is back on its dialog and says so once", async ({ page, request, newTenant }) => {
  const t = await newTenant();
  stand = await startPrinterStandIn();
  const printerId = await addPrinter(request, t, stand, "Counter");
  await recordPrints(page);
  await openKiosk(page, t);
  await page.getByLabel("Printer", { exact: true }).selectOption(printerId);
  const res = await request.delete(`/api/v1/orgs/${t.slug}/printers/${printerId}`, { headers: { authorization: `Bearer ${t.apiKeys.manager}` } });
  expect(res.status(), await res.text()).toBeLessThan(300);
  // printer:changed reaches the open kiosk: no picker any more (no printer left), and a word on why.
  await expect(page.getByTestId("printer-gone")).toHaveText(
    "The printer “Counter” chosen on this kiosk no longer exists: tickets now print with this screen's print dialog.",
  );
  await expect(page.getByLabel("Printer", { exact: true })).toHaveCount(0);
  await takeOrder(page, "Dumplings");
  await page.getByRole("button", { name: "Print ticket" }).click();
  expect(await prints(page)).toBe(1);
  await page.reload();
  await expect(page.locator("main")).toHaveAttribute("data-connection", "live");
  await expect(page.getByTestId("printer-gone")).toHaveCount(0);
});

test("in Chinese: the offline banner names the waiting ticket", async ({ page, request, newTenant }) => {
  const t = await newTenant({ name: "金龙餐厅" });
  stand = await startPrinterStandIn();
  const printerId = await addPrinter(request, t, stand, "前台");
  await recordPrints(page);
  await openKiosk(page, t, "zh-CN");
  const picker = page.getByLabel("打印机", { exact: true });
  await expect(picker.locator("option").first()).toHaveText("本机打印对话框");
  await picker.selectOption(printerId);
  const first = await takeOrder(page, "牛肉面", "下单");
  await expect(page.getByTestId("issued-printing")).toHaveText(/已在“前台”打印/);
  await stand.waitForJobs(1, 15_000);
  await page.screenshot({ path: `${SHOTS}/kiosk-printed-on-printer-zh-CN.png` });
  expect(first.number).toBe("1");

  await stand.stop();
  await page.getByRole("button", { name: "下一单" }).click();
  const second = await takeOrder(page, "担担面", "下单");
  await expect(page.getByTestId("print-trouble-offline")).toHaveText(`打印机“前台”离线——${second.number} 号小票将在打印机恢复后打印`);
  await expect(page.getByTestId("issued-printing")).toHaveText(/等待“前台”（离线）/);
  await page.screenshot({ path: `${SHOTS}/kiosk-printer-offline-issued-zh-CN.png` });
  await page.getByRole("button", { name: "下一单" }).click();
  await expect(page.getByTestId("print-trouble-offline")).toBeVisible();
  expect(await uncovered(page, "下单")).toBe(true);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SHOTS}/kiosk-printer-offline-zh-CN.png` });
  await expectNoSeriousAxe(page, "the Chinese kiosk with the printer-offline banner");
  expect(await prints(page)).toBe(0);

  // The shots the docs show.
  mkdirSync(DOCS, { recursive: true });
  copyFileSync(`${SHOTS}/kiosk-printer-offline-en.png`, `${DOCS}/kiosk-printer-offline-en.png`);
  copyFileSync(`${SHOTS}/kiosk-printer-offline-zh-CN.png`, `${DOCS}/kiosk-printer-offline-zh-CN.png`);
});

test("a ticket given up while the printer was off: the banner offers Reprint (it prints) and Dismiss", async ({ page, request, newTenant }) => {
  test.setTimeout(180_000);
  const t = await newTenant({ floor: { printGiveUpMinutes: 1 } });
  stand = await startPrinterStandIn();
  const printerId = await addPrinter(request, t, stand, "Counter");
  await recordPrints(page);
  await openKiosk(page, t);
  await page.getByLabel("Printer", { exact: true }).selectOption(printerId);
  await stand.stop();
  const first = await takeOrder(page, "Dumplings");
  await page.getByRole("button", { name: "Next order" }).click();
  const second = await takeOrder(page, "Noodles");
  await page.getByRole("button", { name: "Next order" }).click();
  await expect(page.getByTestId("print-trouble-offline")).toContainText(`ticket ${second.number} will print`);
  await expect(page.getByTestId("print-trouble-offline")).toContainText("2 tickets waiting");

  // A minute later both are given up: late tickets are useless, and the cashier hears of each.
  const gaveUp = page.getByTestId("print-trouble-gaveUp");
  await expect(gaveUp).toHaveCount(2, { timeout: 100_000 });
  await expect(gaveUp.filter({ hasText: `Ticket ${first.number} was not printed (too late)` })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/kiosk-printer-gave-up-en.png` });
  await expectNoSeriousAxe(page, "the kiosk with tickets given up");

  await stand.start();
  await gaveUp
    .filter({ hasText: `Ticket ${second.number} ` })
    .getByRole("button", { name: "Reprint" })
    .click();
  const [job] = await stand.waitForJobs(1, 20_000);
  expect(readTicket(job!).number).toBe(second.number);
  await expect(gaveUp.filter({ hasText: `Ticket ${second.number} ` })).toHaveCount(0);
  await gaveUp.getByRole("button", { name: `Dismiss: ticket ${first.number} was not printed` }).click();
  await expect(gaveUp).toHaveCount(0);
  expect(await prints(page)).toBe(0);
});
