/**
 * The settings page's time-zone list renders the server's offsets in the browser too: a
 * browser whose time-zone data differs from the server's (Chromium here gives America/Inuvik
 * UTC−06:00 where Node gives UTC−07:00) must neither show its own offsets nor hit a
 * hydration error (decision 0047). The browser's data is made to differ for certain, not
 * only where its release happens to: its Intl reports a made-up offset for America/Inuvik.
 */
import { expect, signIn, test } from "./fixtures";

const ZONE = "America/Inuvik";
const FAKE = "GMT+05:45";

/** Runs in the page before its scripts: this browser's tz data gives ZONE another offset. */
function skewZone({ zone, fake }: { zone: string; fake: string }) {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the formatter as `this`
  const original = Intl.DateTimeFormat.prototype.formatToParts;
  Intl.DateTimeFormat.prototype.formatToParts = function (this: Intl.DateTimeFormat, date?: Date | number) {
    const parts = original.call(this, date);
    if (this.resolvedOptions().timeZone !== zone) return parts;
    return parts.map((p) => (p.type === "timeZoneName" ? { ...p, value: fake } : p));
  };
}

/** The offset the server (Node.js, as this test process) gives the zone now. */
function serverOffset(zone: string): string {
  const part = new Intl.DateTimeFormat("en-GB", { timeZone: zone, timeZoneName: "longOffset" })
    .formatToParts(new Date())
    .find((p) => p.type === "timeZoneName");
  return (part?.value ?? "GMT").replace("GMT", "UTC");
}

test("the time-zone list shows the server's offsets and hydrates without an error, whatever the browser's time-zone data", async ({ page, newTenant }) => {
  const t = await newTenant({ name: "Zone Diner", timeZone: "Europe/Berlin" });
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(m.text());
  });
  await page.addInitScript(skewZone, { zone: ZONE, fake: FAKE });
  await signIn(page, t.slug, "Manager", t.staff.manager);
  await page.goto(`/${t.slug}/manager/settings?lang=en`);

  // Hydrated: the filter narrows the list (a handler only the browser runs).
  await page.getByLabel("Filter by city or region").fill("inuvik");
  await expect(page.getByTestId("timezone-matches")).toHaveText(/^1 zone matches/);
  const option = page.locator("#s-timezone option", { hasText: "Inuvik" });
  await expect(option).toHaveText(`America/Inuvik (${serverOffset(ZONE)})`);
  expect(problems.filter((p) => /hydrat|#418|#423|#425/i.test(p))).toEqual([]);
});
