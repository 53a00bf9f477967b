/**
 * The Content-Security-Policy does not break the app (issue #10): every main screen is used
 * in Chromium — the board live over WebSocket with its sound, the kiosk's ticket with its
 * QR code, the customer's page, the kitchen, the manager's console, sign-in and sign-out —
 * and the browser reports no CSP violation, neither as a `securitypolicyviolation` event
 * nor in the console. Each page came with a policy carrying a nonce.
 */
import type { BrowserContext, Page } from "@playwright/test";
import { expect, signIn, test } from "./fixtures";

type Watch = { violations: string[]; documents: { url: string; csp: string | null }[] };

/** Records CSP violations and the policy of every document the context loads. */
async function watch(context: BrowserContext): Promise<Watch> {
  const w: Watch = { violations: [], documents: [] };
  await context.exposeFunction("__reportCsp", (v: string) => void w.violations.push(v));
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      void (window as unknown as { __reportCsp(v: string): Promise<void> }).__reportCsp(
        `${location.pathname}: ${e.effectiveDirective} blocked ${e.blockedURI || "(inline)"}`,
      );
    });
  });
  context.on("console", (m) => {
    if (/content security policy/i.test(m.text())) w.violations.push(`console: ${m.text()}`);
  });
  context.on("response", async (res) => {
    if (res.request().resourceType() === "document")
      w.documents.push({ url: new URL(res.url()).pathname, csp: await res.headerValue("content-security-policy") });
  });
  return w;
}

async function live(page: Page) {
  await expect(page.getByTestId("connection")).toHaveAttribute("data-state", "live");
}

test("the main screens run under the policy without a single violation", async ({ browser, baseURL, newTenant }) => {
  test.setTimeout(120_000);
  const t = await newTenant({ name: "Policy Diner" });
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  const w = await watch(context);

  // The watcher itself: a blocked image from another origin is reported.
  const probe = await context.newPage();
  await probe.goto("/");
  await probe.evaluate(() => {
    const img = new Image();
    img.src = "http://127.0.0.2:9/blocked.png";
    document.body.append(img);
  });
  await expect.poll(() => w.violations.length).toBeGreaterThan(0);
  expect(w.violations.join("\n")).toMatch(/img-src blocked http:\/\/127\.0\.0\.2:9\/blocked\.png/);
  w.violations.length = 0;
  await probe.close();

  // The start page and the board: live over Socket.IO, sound enabled (the chime plays).
  const board = await context.newPage();
  await board.goto("/");
  await board.goto(`/${t.slug}/board?lang=en`);
  await live(board);
  await board.getByRole("button", { name: "Enable sound", exact: true }).click();
  await expect(board.getByRole("button", { name: "Enable sound", exact: true })).toHaveCount(0);

  // The kiosk takes an order: its ticket shows the QR code (a data: image).
  const kiosk = await context.newPage();
  await signIn(kiosk, t.slug, "Cashier", t.staff.cashier);
  await kiosk.goto(`/${t.slug}/kiosk?lang=en`);
  await kiosk.getByTestId("item-name-0").fill("Dumplings");
  await kiosk.getByRole("button", { name: "Take order" }).click();
  const number = (await kiosk.getByTestId("issued-number").textContent())!.trim();
  const ticket = kiosk.getByRole("article", { name: `Ticket for order ${number}` });
  const qr = ticket.locator("img").first();
  await expect(qr).toHaveAttribute("src", /^data:image\/svg\+xml;base64,/);
  await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  const url = (await ticket.getByTestId("ticket-url").textContent())!.trim();

  // The customer's page, live.
  const customer = await context.newPage();
  await customer.goto(`${new URL(baseURL!).protocol}//${url}?lang=en`);
  await expect(customer.getByTestId("order-number")).toHaveText(number);
  await expect(customer.getByTestId("live")).toHaveText("Updates by itself");

  // The kitchen marks it ready: the board moves and calls it, the customer's page says so.
  const kitchen = await context.newPage();
  await signIn(kitchen, t.slug, "Kitchen", t.staff.kitchen);
  await kitchen.goto(`/${t.slug}/kitchen?lang=en`);
  await kitchen.getByTestId(`order-${number}`).getByRole("button", { name: "Ready" }).click();
  await expect(board.getByTestId("ready").locator(`[data-testid=board-number][data-number="${number}"]`)).toBeVisible();
  await expect(customer.getByTestId("order-status")).toContainText("Ready! Please collect it");

  // The manager's console, page by page.
  const manager = await context.newPage();
  await signIn(manager, t.slug, "Manager", t.staff.manager);
  for (const section of ["", "/history", "/figures", "/menu", "/settings", "/access", "/audit"]) {
    await manager.goto(`/${t.slug}/manager${section}?lang=en`);
    await expect(manager.getByRole("heading", { level: 1 })).toBeVisible();
  }
  // Sign out (a server action and a redirect).
  await manager.getByRole("button", { name: "Sign out" }).click();
  await expect(manager).toHaveURL(new RegExp(`/${t.slug}/sign-in`));
  // Late reports: a deliberate violation on each open page is reported after any earlier one of that page.
  const open = context.pages();
  for (const [i, p] of open.entries())
    await p.evaluate((n) => {
      const img = new Image();
      img.src = `http://127.0.0.2:9/sentinel-${n}.png`;
      document.body.append(img);
    }, i);
  await expect.poll(() => open.filter((_, i) => w.violations.some((v) => v.includes(`blocked http://127.0.0.2:9/sentinel-${i}.png`))).length).toBe(open.length);

  // The deliberate ones (to 127.0.0.2:9) aside, none.
  expect(w.violations.filter((v) => !v.includes("127.0.0.2:9/"))).toEqual([]);
  const pages = w.documents.filter((d) => !d.url.startsWith("/_next"));
  expect(pages.length).toBeGreaterThanOrEqual(12);
  for (const d of pages) {
    expect(d.csp, d.url).toContain("frame-ancestors 'none'");
    expect(d.csp, d.url).toMatch(/'nonce-[^']+'/);
  }
  await context.close();
});
