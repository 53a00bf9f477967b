/**
 * A fair share of the webhook workers for every restaurant (decision 0044), end to end on a
 * real app server, PostgreSQL, Redis and loopback endpoints: restaurant A's 20 webhooks at an
 * endpoint that accepts and never answers hold at most half of a node's workers, so
 * restaurant B's message is delivered while most of A's are still waiting for their first
 * attempt. Taken in turn, oldest first, B's would wait behind every one of A's.
 */
import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/db";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { type Api, apiClient, expectStatus } from "../support/http";
import { startAppServer, testKeyPrefix, type AppServer } from "../support/app-server";
import { WebhookReceiver } from "../support/webhook-receiver";

const org = (slug: string, rest: string) => `/api/v1/orgs/${slug}/${rest}`;

/** A's webhooks (the most a restaurant may have) and orders: 60 first attempts of 4 s each, 4 workers. */
const A_HOOKS = 20;
const A_ORDERS = 3;

describe("fair webhook delivery", () => {
  let db: TestDatabase;
  let app: AppServer;
  let call: Api;
  let t: Record<"a" | "b", TestTenant>;
  let silent: Server;
  const held: Socket[] = [];
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    db = await createTestDatabase("webhook-fairness");
    const slugs = { a: uniqueSlug("hook-a"), b: uniqueSlug("hook-b") };
    const made = await provisionTenants(db.url, [stableDaySpec(slugs.a, "Hoarder"), stableDaySpec(slugs.b, "Neighbour")]);
    t = { a: made[slugs.a]!, b: made[slugs.b]! };
    app = await startAppServer({
      databaseUrl: db.url,
      keyPrefix: testKeyPrefix("fairhook"),
      // A silent endpoint holds a worker for the whole timeout; retries far enough apart not to count here.
      env: { WEBHOOKS_ALLOW_PRIVATE: "true", WEBHOOKS_TIMEOUT_MS: "4000", WEBHOOKS_RETRY_BASE_MS: "600000", SESSION_SECRET: randomBytes(32).toString("hex") },
    });
    call = apiClient(app.url);
    // Accepts, reads, never answers: every attempt at it waits out WEBHOOKS_TIMEOUT_MS.
    silent = createServer((socket) => {
      held.push(socket);
      socket.resume();
      socket.on("error", () => {});
    });
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    receiver = await WebhookReceiver.start(() => 204);
  });
  afterAll(async () => {
    await app?.stop();
    for (const s of held) s.destroy();
    await new Promise((r) => silent?.close(r));
    await receiver?.close();
    await db?.drop();
  });

  it("delivers restaurant B's message while most of restaurant A's silent endpoints have not been tried yet", async () => {
    const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    for (let i = 0; i < A_HOOKS; i++) {
      const json = { url: `${silentUrl}/hook-${i}`, events: ["order.created"] };
      expectStatus(await call("POST", org(t.a.slug, "webhooks"), { key: t.a.apiKeys.manager, json }), 201);
    }
    expectStatus(await call("POST", org(t.b.slug, "webhooks"), { key: t.b.apiKeys.manager, json: { url: receiver.url, events: ["order.created"] } }), 201);

    for (let i = 0; i < A_ORDERS; i++) expectStatus(await call("POST", org(t.a.slug, "orders"), { key: t.a.apiKeys.cashier, json: {} }), 201);
    // B's message is queued after all of A's.
    expectStatus(await call("POST", org(t.b.slug, "orders"), { key: t.b.apiKeys.cashier, json: {} }), 201);

    await receiver.until(() => receiver.accepted().length === 1, "B's order.created", 60_000);
    // Two workers at a time on A's endpoints, 4 s each: a handful of attempts so far, not the 60 in front of B.
    expect(held.length).toBeGreaterThan(0);
    expect(held.length).toBeLessThan((A_HOOKS * A_ORDERS) / 2);
  }, 120_000);
});
