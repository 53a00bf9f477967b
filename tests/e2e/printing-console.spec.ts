/**
 * The console's Printers page in Chromium (issue #22, decision 0029), against the real
 * server and a printer stand-in on 127.0.0.1 (the e2e server allows 127.0.0.1/32 and ports
 * 1024–65535): a manager adds a printer with the keyboard alone, is refused an address
 * outside PRINTER_NETWORKS in words, prints a test page that names the printer; with the
 * printer switched off an order's ticket waits and the page says Offline, 1 ticket waiting,
 * by itself; switched on, OK and Printed. The same page in Chinese; axe in both languages.
 * Screenshots under test-results/screenshots/ (copied to docs/screenshots/ by hand).
 */
import type { APIRequestContext, Page } from "@playwright/test";
import { LOCALES } from "@/lib/core/locales";
import { expectNoSeriousAxe } from "./axe";
import { expect, signIn, test } from "./fixtures";
import type { TestTenant } from "../support/tenants";
import { PrinterStandIn } from "../support/printer-stand-in";
import { decodeEscPos } from "../support/escpos-decode";

const SHOTS = "test-results/screenshots";
const CONSOLE = { width: 1280, height: 800 };

const as = (key: string) => ({ authorization: `Bearer ${key}` });

async function post<T>(request: APIRequestContext, t: TestTenant, path: string, key: string, data: unknown, status = 201): Promise<T> {
  const res = await request.post(`/api/v1/orgs/${t.slug}/${path}`, { headers: as(key), data });
  expect(res.status(), await res.text()).toBe(status);
  return (await res.json()) as T;
}

/** Fills the add form with the keyboard alone, in reading order, and sends it with Enter. */
async function addWithKeyboard(page: Page, p: { name: string; host: string; port: number }) {
  const form = page.getByRole("form", { name: "Add a printer" });
  await form.getByLabel("Name", { exact: true }).focus();
  await page.keyboard.type(p.name);
  await page.keyboard.press("Tab");
  await expect(form.getByLabel("Address (IP or host name)")).toBeFocused();
  await page.keyboard.type(p.host);
  await page.keyboard.press("Tab");
  await expect(form.getByLabel("Port", { exact: true })).toBeFocused();
  await expect(form.getByLabel("Port", { exact: true })).toHaveValue("9100");
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type(String(p.port));
  await page.keyboard.press("Tab");
  // Paper: a radio group (arrows choose), 80 mm by default; keep it.
  await expect(form.getByRole("radio", { name: "80 mm" })).toBeFocused();
  await page.keyboard.press("Tab");
  // Characters: Latin by default for a restaurant without a Chinese language.
  await expect(form.getByRole("radio", { name: /^Latin/ })).toBeFocused();
  await expect(form.getByRole("radio", { name: /^Latin/ })).toBeChecked();
  await page.keyboard.press("Tab");
  await expect(form.getByRole("checkbox", { name: "Default" })).toBeFocused();
  for (const channel of ["Kiosk", "Counter", "API"]) {
    await page.keyboard.press("Tab");
    await expect(form.getByRole("checkbox", { name: channel })).toBeFocused();
  }
  // Orders through the REST API are of the API channel.
  await page.keyboard.press("Space");
  await expect(form.getByRole("checkbox", { name: "API" })).toBeChecked();
  for (const channel of ["POS", "Delivery", "Phone", "Web"]) {
    await page.keyboard.press("Tab");
    await expect(form.getByRole("checkbox", { name: channel })).toBeFocused();
  }
  await page.keyboard.press("Tab");
  await expect(form.getByRole("button", { name: "Add printer" })).toBeFocused();
  await page.keyboard.press("Enter");
}

test("a manager adds a printer with the keyboard, prints a test page, and watches a ticket wait while the printer is off", async ({
  page,
  request,
  newTenant,
}) => {
  test.setTimeout(150_000);
  const t = await newTenant({ name: "Print Palace" });
  const printer = await new PrinterStandIn().start();
  try {
    await page.setViewportSize(CONSOLE);
    await signIn(page, t.slug, "Manager", t.staff.manager);
    await page.goto(`/${t.slug}/manager`);
    await page.getByRole("navigation", { name: "Manager console" }).getByRole("link", { name: "Printers" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Printers" })).toBeVisible();
    await expect(page.getByText("No printers yet")).toBeVisible();
    const form = page.getByRole("form", { name: "Add a printer" });
    await expect(form).toContainText("PRINTER_NETWORKS");
    await expect(form).toContainText("port 9100");

    // An address outside PRINTER_NETWORKS: refused in words, beside the address, and nothing is added.
    await form.getByLabel("Name", { exact: true }).fill("Far away");
    await form.getByLabel("Address (IP or host name)").fill("10.0.0.9");
    await form.getByLabel("Port", { exact: true }).fill(String(printer.address.port));
    await form.getByRole("button", { name: "Add printer" }).click();
    const refusal = form.getByRole("alert");
    await expect(refusal).toContainText("This printer address is not allowed. Use an address on an allowed network, or ask whoever runs Nextup to allow it.");
    await expect(form.getByLabel("Address (IP or host name)")).toHaveAttribute("aria-invalid", "true");
    await expect(form.getByLabel("Address (IP or host name)")).toHaveAttribute("aria-describedby", /printer-host-error/);
    await page.screenshot({ path: `${SHOTS}/manager-printers-refused-en.png` });
    await expect(page.getByTestId("printer")).toHaveCount(0);
    // What was typed stays; the message goes once the address is edited.
    await expect(form.getByLabel("Name", { exact: true })).toHaveValue("Far away");
    await form.getByLabel("Address (IP or host name)").fill("");
    await expect(refusal).toHaveCount(0);
    await page.reload();

    await addWithKeyboard(page, { name: "Counter", ...printer.address });
    await expect(page.getByRole("status").filter({ hasText: "Printer Counter added." })).toBeVisible();
    const card = page.getByTestId("printer");
    await expect(card).toHaveCount(1);
    await expect(card.getByRole("heading", { level: 2 })).toHaveText("Counter");
    await expect(card).toContainText(`127.0.0.1:${printer.address.port} · 80 mm paper · Latin characters`);
    await expect(card).toContainText("Prints for: API");
    await expect(card.getByTestId("printer-queue")).toContainText("No tickets waiting");

    // A test page: the stand-in receives it, and it names the printer.
    await card.getByRole("button", { name: "Print test page" }).click();
    await expect(page.getByTestId("test-queued")).toHaveText("Test page sent to Counter: it shows under Recent print jobs.");
    const [testPage] = await printer.waitForJobs(1, 15_000);
    expect(decodeEscPos(testPage!, "latin").lines.join("\n")).toContain("Counter");
    // Live: printed, and the printer answered OK.
    await expect(card.getByTestId("printer-status")).toHaveText("OK", { timeout: 15_000 });
    await expect(page.getByTestId("job-printed")).toContainText("Test page");

    // Switched off: an order's ticket waits, and the page says so without a reload.
    await printer.stop();
    const order = await post<{ id: string; display: string }>(request, t, "orders", t.apiKeys.cashier, { items: [{ name: "Beef noodles", qty: 1 }] });
    await expect(card.getByTestId("printer-status")).toHaveText("Offline", { timeout: 20_000 });
    await expect(card.getByTestId("printer-queue")).toContainText("1 ticket waiting");
    await expect(card.getByTestId("printer-error")).toContainText("Last error:");
    await expect(page.getByTestId("job-queued")).toContainText(order.display);
    await expect(page.getByTestId("job-queued")).toContainText("Waiting");
    await page.screenshot({ path: `${SHOTS}/manager-printers-offline-en.png` });

    // Removing it would drop the waiting ticket: the confirmation says so. Go back.
    await card.getByRole("button", { name: "Remove Counter" }).click();
    await expect(card).toContainText("Remove the printer Counter? 1 waiting ticket will not be printed.");
    await expect(card.getByRole("button", { name: "Yes, remove" })).toBeFocused();
    await card.getByRole("button", { name: "Go back" }).click();

    // Switched on: the ticket prints, and the page says OK, nothing waiting, Printed.
    await printer.start();
    const jobs = await printer.waitForJobs(2, 30_000);
    expect(decodeEscPos(jobs[1]!, "latin").lines.join("\n")).toContain("Beef noodles");
    await expect(card.getByTestId("printer-status")).toHaveText("OK", { timeout: 20_000 });
    await expect(card.getByTestId("printer-queue")).toContainText("No tickets waiting");
    await expect(page.getByTestId("job-printed")).toHaveCount(2);
    await expect(page.getByTestId("job-printed").first()).toContainText(order.display);
    await page.screenshot({ path: `${SHOTS}/manager-printers-en.png` });
    await page.screenshot({ path: `${SHOTS}/manager-printers-full-en.png`, fullPage: true });

    // The same page in Chinese.
    await page.goto(`/${t.slug}/manager/printers?lang=zh-CN`);
    await expect(page.getByRole("heading", { level: 1, name: "打印机" })).toBeVisible();
    await expect(card.getByTestId("printer-status")).toHaveText("正常");
    await expect(card.getByTestId("printer-queue")).toContainText("没有待打印的小票");
    await expect(page.getByTestId("job-printed").first()).toContainText("已打印");
    await expect(page.getByRole("button", { name: "打印测试页" })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/manager-printers-zh-CN.png` });
    await page.screenshot({ path: `${SHOTS}/manager-printers-full-zh-CN.png`, fullPage: true });
    const zhForm = page.getByRole("form", { name: "添加打印机" });
    await zhForm.getByLabel("名称").fill("远处");
    await zhForm.getByLabel("地址（IP 或主机名）").fill("10.0.0.9");
    await zhForm.getByRole("button", { name: "添加打印机" }).click();
    await expect(zhForm.getByRole("alert")).toContainText("不允许使用这个打印机地址");

    // Edit in place, then remove (nothing waits now), in English.
    await page.goto(`/${t.slug}/manager/printers?lang=en`);
    await card.getByRole("button", { name: "Edit Counter" }).click();
    const edit = page.getByRole("form", { name: "Change the printer Counter" });
    await edit.getByLabel("Name", { exact: true }).fill("Front counter");
    await edit.getByRole("radio", { name: "58 mm" }).check();
    await edit.getByRole("checkbox", { name: "Default" }).check();
    await edit.getByRole("button", { name: "Save changes" }).click();
    await expect(edit).toHaveCount(0);
    await expect(card.getByRole("heading", { level: 2 })).toHaveText("Front counter");
    await expect(card).toContainText("58 mm paper");
    await expect(card).toContainText("Prints for: series Default, API");
    await card.getByRole("button", { name: "Remove Front counter" }).click();
    await expect(card).toContainText("No ticket is waiting for it.");
    await card.getByRole("button", { name: "Yes, remove" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Printer Front counter removed." })).toHaveCount(1);
    await expect(page.getByTestId("printer")).toHaveCount(0);
  } finally {
    await printer.stop();
  }
});

for (const locale of LOCALES) {
  test(`the printers page, with a printer and its jobs, passes axe in ${locale}`, async ({ page, request, newTenant }) => {
    const t = await newTenant({ name: locale === "en" ? "Axe Printers" : "斧头打印" });
    const printer = await new PrinterStandIn({ mode: "paperOut" }).start();
    try {
      await post(request, t, "printers", t.apiKeys.manager, { name: "Kitchen", ...printer.address, channels: ["api"] });
      await post(request, t, "orders", t.apiKeys.cashier, { items: [{ name: "Tea", qty: 1 }] });
      await page.setViewportSize(CONSOLE);
      await signIn(page, t.slug, "Manager", t.staff.manager);
      await page.goto(`/${t.slug}/manager/printers?lang=${locale}`);
      await expect(page.locator("html")).toHaveAttribute("lang", locale);
      await expect(page.getByTestId("printer-status")).toHaveAttribute("data-status", "paperOut", { timeout: 20_000 });
      await expect(page.getByTestId("printer-status")).toHaveText(locale === "en" ? "Paper out" : "缺纸");
      await expectNoSeriousAxe(page, `printers (${locale})`);
    } finally {
      await printer.stop();
    }
  });
}

test("the settings form gives up on unprinted tickets after the minutes the manager chooses, refused out of range in words", async ({
  page,
  request,
  newTenant,
}) => {
  const t = await newTenant({ name: "Give Up Grill" });
  await page.setViewportSize(CONSOLE);
  await signIn(page, t.slug, "Manager", t.staff.manager);
  await page.goto(`/${t.slug}/manager/settings`);
  const field = page.getByLabel("Give up on unprinted tickets after (minutes)");
  await expect(field).toHaveValue("10");
  await expect(field).toHaveAccessibleDescription(/A late ticket is useless/);
  await field.fill("121");
  // The browser's own range check is skipped: the server's message is the one to read.
  await field.evaluate((input) => ((input as HTMLInputElement).form!.noValidate = true));
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByTestId("settings-error")).toHaveText("Give up on unprinted tickets after (minutes): a whole number of minutes from 1 to 120.");
  await field.fill("3");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByTestId("settings-saved")).toHaveText("Settings saved.");
  const res = await request.get(`/api/v1/orgs/${t.slug}/settings`, { headers: as(t.apiKeys.manager) });
  expect(((await res.json()) as { printGiveUpMinutes: number }).printGiveUpMinutes).toBe(3);
  await page.goto(`/${t.slug}/manager/settings?lang=zh-CN`);
  await expect(page.getByLabel("小票未打印多久后放弃（分钟）")).toHaveValue("3");
});

test("a ticket given up while the printer was off shows as not printed, and Print again prints it once the printer is back", async ({
  page,
  request,
  newTenant,
}) => {
  test.setTimeout(180_000);
  const t = await newTenant({ name: "Late Ticket Diner" });
  const printer = await new PrinterStandIn().start();
  try {
    const put = await request.put(`/api/v1/orgs/${t.slug}/settings`, { headers: as(t.apiKeys.manager), data: { printGiveUpMinutes: 1 } });
    expect(put.status(), await put.text()).toBe(200);
    await post(request, t, "printers", t.apiKeys.manager, { name: "Pass", ...printer.address, channels: ["api"] });
    await printer.stop();
    const order = await post<{ id: string; display: string }>(request, t, "orders", t.apiKeys.cashier, { items: [{ name: "Dumplings", qty: 6 }] });
    await page.setViewportSize(CONSOLE);
    await signIn(page, t.slug, "Manager", t.staff.manager);
    await page.goto(`/${t.slug}/manager/printers`);
    await expect(page.getByTestId("job-queued")).toContainText(order.display, { timeout: 20_000 });
    // A minute later the ticket is given up: the page says so by itself.
    const gaveUp = page.getByTestId("job-gaveUp");
    await expect(gaveUp).toContainText("Not printed (given up)", { timeout: 90_000 });
    await expect(gaveUp).toContainText("not printed within 1 minute");
    await expect(page.getByTestId("printer-queue")).toContainText("No tickets waiting");

    await printer.start();
    await gaveUp.getByRole("button", { name: `Print again: number ${order.display} on Pass` }).click();
    await expect(page.getByTestId("reprinted")).toHaveText(`Number ${order.display} sent to Pass again.`);
    const [ticket] = await printer.waitForJobs(1, 30_000);
    expect(decodeEscPos(ticket!, "latin").lines.join("\n")).toContain("Dumplings");
    await expect(page.getByTestId("job-printed")).toContainText(order.display, { timeout: 20_000 });
    await expect(page.getByTestId("printer-status")).toHaveText("OK");
  } finally {
    await printer.stop();
  }
});
