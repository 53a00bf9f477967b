/**
 * The console's webhooks page in Chromium: a manager adds an endpoint (the secret shown
 * once), sees each message delivered or retrying, is refused a forbidden address in words,
 * deletes the endpoint; axe in both languages. The e2e server allows private destinations
 * (global setup), so the receiver runs on 127.0.0.1.
 */
import { expectNoSeriousAxe } from "./axe";
import { Webhook } from "standardwebhooks";
import { LOCALES } from "@/lib/core/locales";
import { WebhookReceiver } from "../support/webhook-receiver";
import { expect, signIn, test } from "./fixtures";

test("a manager adds a webhook, sees its secret once and its messages' status, and deletes it", async ({ page, baseURL, newTenant }) => {
  const t = await newTenant({ name: "Hook House" });
  // Order-created messages are accepted; order-ready ones fail, so they wait for a retry.
  const receiver = await WebhookReceiver.start((_id, _earlier, body) => (body.includes('"type":"order.ready"') ? 503 : 204));
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await signIn(page, t.slug, "Manager", t.staff.manager);
    await page.goto(`/${t.slug}/manager/webhooks`);
    await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();
    await expect(page.getByText("No webhooks yet.")).toBeVisible();

    // A cloud metadata address is refused, in words, and nothing is added.
    await page.getByLabel("Address (URL)").fill("http://169.254.169.254/latest/meta-data");
    await page.getByRole("button", { name: "Add webhook" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "belongs to a cloud metadata service" })).toContainText("webhooks are never sent there");
    // Here the restaurant's network is allowed already: the manager is not sent to ask for it.
    await page.getByLabel("Address (URL)").fill("http://169.254.170.23/v1/credentials");
    await page.getByRole("button", { name: "Add webhook" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "169.254.170.23" })).toContainText("belongs to a cloud metadata service");
    await expect(page.getByRole("alert").filter({ hasText: "169.254.170.23" })).not.toContainText("allow your restaurant's own network");
    await expect(page.getByText("No webhooks yet.")).toBeVisible();

    await page.getByLabel("Address (URL)").fill(receiver.url);
    await page.getByRole("checkbox", { name: /New shift/ }).uncheck();
    await page.getByRole("button", { name: "Add webhook" }).click();
    const secret = (await page.getByTestId("new-webhook-secret").textContent())!;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{44}$/);
    await expect(page.getByTestId("webhook")).toContainText("Order taken · Order ready · Order collected · Order cancelled · Order cleared off the floor");

    const api = (path: string, key: string, json: unknown) =>
      fetch(new URL(`/api/v1/orgs/${t.slug}/${path}`, baseURL), {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify(json),
      }).then((r) => r.json() as Promise<{ id: string }>);
    const first = await api("orders", t.apiKeys.cashier, { items: [{ name: "Beef noodles", qty: 2 }] });
    await api("orders", t.apiKeys.cashier, { items: [{ name: "Tea", qty: 1 }] });
    await api(`orders/${first.id}/status`, t.apiKeys.kitchen, { status: "READY" });
    await receiver.until(() => receiver.accepted().length === 2 && receiver.received.some((r) => r.status === 503), "two delivered, one failed");
    // What arrived is signed with the secret the page showed.
    expect(new Webhook(secret).verify(receiver.accepted()[0]!.body, receiver.accepted()[0]!.headers as Record<string, string>)).toMatchObject({
      type: "order.created",
    });

    // The receiver has answered; the node records each attempt just after, so reload until it has.
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId("delivery-delivered")).toHaveCount(2, { timeout: 1_000 });
      await expect(page.getByTestId("delivery-retrying")).toHaveCount(1, { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    await expect(page.getByTestId("new-webhook-secret")).toHaveCount(0); // shown once
    await expect(page.getByTestId("delivery-retrying")).toContainText(/Retrying at \d\d\/\d\d, \d\d:\d\d:\d\d/);
    await expect(page.getByTestId("delivery-retrying")).toContainText("HTTP 503");
    await page.screenshot({ path: "test-results/screenshots/manager-webhooks-en.png" });
    await page.screenshot({ path: "test-results/screenshots/manager-webhooks-full-en.png", fullPage: true });
    await page.goto(`/${t.slug}/manager/webhooks?lang=zh-CN`);
    await expect(page.getByTestId("delivery-delivered").first()).toContainText("已送达");
    await page.screenshot({ path: "test-results/screenshots/manager-webhooks-zh-CN.png" });
    await page.goto(`/${t.slug}/manager/webhooks?lang=en`);

    await page.getByRole("button", { name: "Delete" }).click();
    await expect(page.getByText("Delete this webhook? Messages not yet sent are dropped.")).toBeVisible();
    await page.getByRole("button", { name: "Yes, delete" }).click();
    await expect(page.getByRole("status").filter({ hasText: `Webhook ${receiver.url} deleted.` })).toHaveCount(1);
    await expect(page.getByText("No webhooks yet.")).toBeVisible();
    await page.goto(`/${t.slug}/manager/audit`);
    await expect(page.getByTestId("audit-log").getByRole("row").nth(1)).toContainText("Webhook deleted");
    await expect(page.getByTestId("audit-log").getByRole("row").nth(2)).toContainText(`Webhook added`);
  } finally {
    await receiver.close();
  }
});

for (const locale of LOCALES) {
  test(`the webhooks page, with an endpoint and its messages, passes axe in ${locale}`, async ({ page, baseURL, newTenant }) => {
    const t = await newTenant({ name: locale === "en" ? "Axe Hooks" : "斧头钩子" });
    const receiver = await WebhookReceiver.start(() => 204);
    try {
      const made = await fetch(new URL(`/api/v1/orgs/${t.slug}/webhooks`, baseURL), {
        method: "POST",
        headers: { authorization: `Bearer ${t.apiKeys.manager}`, "content-type": "application/json" },
        body: JSON.stringify({ url: receiver.url, events: ["order.created"] }),
      });
      expect(made.status).toBe(201);
      await fetch(new URL(`/api/v1/orgs/${t.slug}/orders`, baseURL), {
        method: "POST",
        headers: { authorization: `Bearer ${t.apiKeys.cashier}`, "content-type": "application/json" },
        body: "{}",
      });
      await receiver.until(() => receiver.accepted().length === 1, "the order");
      await page.setViewportSize({ width: 1280, height: 800 });
      await signIn(page, t.slug, "Manager", t.staff.manager);
      await page.goto(`/${t.slug}/manager/webhooks?lang=${locale}`);
      await expect(page.locator("html")).toHaveAttribute("lang", locale);
      await expect(page.getByTestId("delivery-delivered")).toHaveCount(1);
      await expectNoSeriousAxe(page, `webhooks (${locale})`);
    } finally {
      await receiver.close();
    }
  });
}

test("Send test delivers a ping whose outcome shows under the endpoint's messages by itself; Edit changes its address and events", async ({
  page,
  baseURL,
  newTenant,
}) => {
  const t = await newTenant({ name: "Ping Place" });
  const first = await WebhookReceiver.start(() => 204);
  const second = await WebhookReceiver.start(() => 204);
  try {
    const made = await fetch(new URL(`/api/v1/orgs/${t.slug}/webhooks`, baseURL), {
      method: "POST",
      headers: { authorization: `Bearer ${t.apiKeys.manager}`, "content-type": "application/json" },
      body: JSON.stringify({ url: first.url, events: ["order.cancelled"] }),
    });
    expect(made.status).toBe(201);
    await page.setViewportSize({ width: 1280, height: 800 });
    await signIn(page, t.slug, "Manager", t.staff.manager);
    await page.goto(`/${t.slug}/manager/webhooks`);
    const card = page.getByTestId("webhook");

    await card.getByRole("button", { name: "Send test" }).click();
    await expect(page.getByTestId("ping-sent")).toHaveText("Test message queued: its outcome shows under Recent messages within seconds.");
    // No reload: the page re-reads itself while a message is on its way.
    await expect(card.getByTestId("delivery-delivered")).toHaveCount(1, { timeout: 15_000 });
    await expect(card.getByTestId("delivery-delivered")).toContainText("Test message");
    await expect(card.getByTestId("delivery-delivered")).toContainText("HTTP 204");
    expect(first.accepted()[0]!.body).toContain('"type":"ping"');

    await card.getByRole("button", { name: "Edit" }).click();
    const form = page.getByRole("form", { name: `Change the webhook ${first.url}` });
    await form.getByLabel("Address (URL)").fill(second.url);
    await form.getByRole("checkbox", { name: /Order taken/ }).check();
    await form.getByRole("checkbox", { name: /Order cancelled/ }).uncheck();
    await form.getByRole("button", { name: "Save changes" }).click();
    await expect(form).toHaveCount(0);
    await expect(card.getByRole("heading", { level: 2 })).toHaveText(second.url);
    await expect(card).toContainText("Order taken");
    await expect(card).not.toContainText("Order cancelled");
    await page.screenshot({ path: "test-results/screenshots/console-webhooks-en.png" });
    await page.goto(`/${t.slug}/manager/webhooks?lang=zh-CN`);
    await expect(card.getByTestId("delivery-delivered")).toContainText("测试消息");
    await page.screenshot({ path: "test-results/screenshots/console-webhooks-zh-CN.png" });
    await page.goto(`/${t.slug}/manager/audit?lang=en`);
    const log = page.getByTestId("audit-log");
    await expect(log.getByRole("row").nth(1)).toContainText(`Webhook address ${first.url} → ${second.url}`);
    await expect(log.getByRole("row").nth(1)).toContainText(`Webhook ${second.url} now receives: Order taken`);
    await expect(log.getByRole("row").nth(2)).toContainText(`Test message sent to ${first.url}`);

    // A new secret, confirmed, shown once; the next message is signed with it.
    await page.goto(`/${t.slug}/manager/webhooks`);
    await card.getByRole("button", { name: "New secret" }).click();
    await expect(card.getByText("Make a new signing secret? The current one stops working at once")).toBeVisible();
    await card.getByRole("button", { name: "Yes, new secret" }).click();
    const secret = (await card.getByTestId("rotated-webhook-secret").textContent())!;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{44}$/);
    await page.screenshot({ path: "test-results/screenshots/console-webhooks-new-secret-en.png" });
    await card.getByRole("button", { name: "Send test" }).click();
    await second.until(() => second.accepted().length === 1, "the ping after the new secret");
    expect(new Webhook(secret).verify(second.accepted()[0]!.body, second.accepted()[0]!.headers as Record<string, string>)).toMatchObject({ type: "ping" });
    await page.goto(`/${t.slug}/manager/audit?lang=zh-CN`);
    await expect(log.getByRole("row").nth(2)).toContainText(`已为 Webhook ${second.url} 生成新的签名密钥`);
  } finally {
    await first.close();
    await second.close();
  }
});
