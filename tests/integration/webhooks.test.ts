/**
 * Webhooks end to end (real app servers, PostgreSQL, Redis, a node:http receiver on
 * 127.0.0.1): every event reaches a receiver that fails twice and then accepts exactly
 * once per webhook-id, signed per Standard Webhooks (checked by the package's verify and
 * by hand); an order recorded just before a kill -9 is delivered after the restart; SSRF
 * destinations are refused at creation and at delivery; tenants cannot see or delete each
 * other's webhooks. Each server here has a database of its own: a server's workers take
 * any queued attempt of its database, whatever its policy.
 */
import { addDays } from "@/lib/core/business-day";
import { localDate } from "../support/clock";
import { createHmac, randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrisma } from "@/lib/adapters/postgres/prisma.server";
import { WebhookOutbox } from "@/lib/adapters/postgres/webhook-outbox.server";
import { WEBHOOK_QUEUE, type WebhookQueue } from "@/lib/adapters/postgres/webhook-queue.server";
import { orderCleared } from "@/lib/core/webhooks/events";
import { SecretCipher } from "@/lib/auth/webhook-secrets.server";
import { createTestDatabase, type TestDatabase } from "../support/db";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { type Api, apiClient, contractFetch, expectApiError, expectStatus, ISO_TIMESTAMP, type OrderJson, UUID } from "../support/http";
import { startAppServer, testKeyPrefix, type AppServer } from "../support/app-server";
import { WebhookReceiver, type ReceivedHook } from "../support/webhook-receiver";
import { PrismaOrderRepository } from "@/lib/adapters/postgres/order-repository.server";
import { eventually as until } from "../support/until";

/**
 * Waits until the queue holds no attempt it could still make (every pg-boss job of the webhook queue completed,
 * failed or cancelled; an attempt in flight is an active job): from then on nothing is sent unless a new message
 * is queued. The positive signal before asserting that nothing more arrived, instead of a fixed sleep.
 */
async function noAttemptLeft(databaseUrl: string): Promise<void> {
  const prisma = createPrisma(databaseUrl, { max: 1 });
  try {
    await until(
      "no webhook attempt left in the queue",
      async () =>
        (
          await prisma.$queryRaw<
            { n: number }[]
          >`SELECT count(*)::int AS n FROM pgboss.job WHERE name = ${WEBHOOK_QUEUE} AND state IN ('created', 'retry', 'active')`
        )[0]!.n,
      (n) => n === 0,
      60_000,
    );
  } finally {
    await prisma.$disconnect();
  }
}

const org = (slug: string, rest: string) => `/api/v1/orgs/${slug}/${rest}`;
/**
 * Who an order event made through these tenants' keys names (`data.by`, issue #38): the API key's label, and keys
 * made by `org create` have none: "API key <prefix>". Named keys and people: tests/integration/order-history.test.ts.
 */
const keyBy = (key: string) => `API key ${key.split("_")[2]}`;
/** An order event's `data`: the order as REST answers it (without GET's history), and who made the change. */
/** A webhook's `data`: the order as GET answers it, without what only GET adds (its history, the wait estimate). */
const eventData = (o: OrderJson & { history?: unknown; estimate?: unknown }, by: string | null) => {
  const order: Partial<typeof o> = { ...o };
  delete order.history;
  delete order.estimate;
  return { ...order, by };
};
const ALL_EVENTS = ["order.created", "order.ready", "order.collected", "order.cancelled", "order.cleared", "shift.started"];
const METRICS_TOKEN = randomBytes(16).toString("hex");

interface WebhookJson {
  id: string;
  url: string;
  events: string[];
  createdAt: string;
  createdBy: string | null;
  secret?: string;
}
interface DeliveryJson {
  id: string;
  type: string;
  createdAt: string;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  gaveUpAt: string | null;
}

/** The signature checked twice: by the standardwebhooks package and by a hand-made HMAC. */
function expectSigned(hook: ReceivedHook, secret: string): { type: string; timestamp: string; data: Record<string, unknown> } {
  const headers = {
    "webhook-id": String(hook.headers["webhook-id"]),
    "webhook-timestamp": String(hook.headers["webhook-timestamp"]),
    "webhook-signature": String(hook.headers["webhook-signature"]),
  };
  const verified = new Webhook(secret).verify(hook.body, headers) as { type: string; timestamp: string; data: Record<string, unknown> };
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const mac = createHmac("sha256", key).update(`${headers["webhook-id"]}.${headers["webhook-timestamp"]}.${hook.body}`).digest("base64");
  expect(headers["webhook-signature"]).toBe(`v1,${mac}`);
  expect(Math.abs(Number(headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(300);
  expect(hook.headers["content-type"]).toBe("application/json");
  return verified;
}

async function deliveries(call: Api, t: TestTenant, webhookId: string): Promise<DeliveryJson[]> {
  return expectStatus(await call<{ deliveries: DeliveryJson[] }>("GET", org(t.slug, `webhooks/${webhookId}/deliveries`), { key: t.apiKeys.manager }), 200)
    .deliveries;
}

describe("on a restaurant's own network (WEBHOOKS_ALLOW_PRIVATE=true)", () => {
  let db: TestDatabase;
  let app: AppServer;
  let call: Api;
  let t: Record<"main" | "crash" | "other" | "clear", TestTenant>;
  const sessionSecret = randomBytes(32).toString("hex");
  const env = { WEBHOOKS_ALLOW_PRIVATE: "true", WEBHOOKS_RETRY_BASE_MS: "100", WEBHOOKS_TIMEOUT_MS: "2000", SESSION_SECRET: sessionSecret, METRICS_TOKEN };
  // One prefix for every node and restart: they share the counters and the invalidation bus.
  const keyPrefix = testKeyPrefix("hooks");
  const start = (port?: number) => startAppServer({ databaseUrl: db.url, keyPrefix, env, port });
  /** An endpoint of t.other for order.created at `receiver`, and one order for it to be sent. */
  const hookWithOneOrder = async (receiver: WebhookReceiver): Promise<WebhookJson> => {
    const hook = expectStatus(
      await call<WebhookJson>("POST", org(t.other.slug, "webhooks"), { key: t.other.apiKeys.manager, json: { url: receiver.url, events: ["order.created"] } }),
      201,
    );
    expectStatus(await call("POST", org(t.other.slug, "orders"), { key: t.other.apiKeys.cashier, json: {} }), 201);
    return hook;
  };

  beforeAll(async () => {
    db = await createTestDatabase("webhooks");
    const slugs = { main: uniqueSlug("wh-main"), crash: uniqueSlug("wh-crash"), other: uniqueSlug("wh-other"), clear: uniqueSlug("wh-clear") };
    const made = await provisionTenants(
      db.url,
      Object.values(slugs).map((s) => stableDaySpec(s)),
    );
    t = { main: made[slugs.main]!, crash: made[slugs.crash]!, other: made[slugs.other]!, clear: made[slugs.clear]! };
    app = await start();
    call = apiClient(app.url);
  });
  afterAll(async () => {
    await app?.stop();
    await db?.drop();
  });

  it("a receiver that fails twice then accepts gets every event exactly once per webhook-id, validly signed", async () => {
    // Fails the first two attempts of each message, then accepts.
    const receiver = await WebhookReceiver.start((_id, earlier) => (earlier.length < 2 ? 500 : 204));
    const readyOnly = await WebhookReceiver.start(() => 200);
    try {
      const all = expectStatus(
        await call<WebhookJson>("POST", org(t.main.slug, "webhooks"), { key: t.main.apiKeys.manager, json: { url: receiver.url, events: ALL_EVENTS } }),
        201,
      );
      expect(all).toEqual({
        id: expect.stringMatching(UUID),
        url: receiver.url,
        events: ALL_EVENTS,
        createdAt: expect.stringMatching(ISO_TIMESTAMP),
        createdBy: expect.any(String),
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      });
      const ready = expectStatus(
        await call<WebhookJson>("POST", org(t.main.slug, "webhooks"), { key: t.main.apiKeys.manager, json: { url: readyOnly.url, events: ["order.ready"] } }),
        201,
      );

      const first = expectStatus(
        await call<OrderJson>("POST", org(t.main.slug, "orders"), {
          key: t.main.apiKeys.cashier,
          json: { items: [{ name: "Beef noodles", qty: 2 }], note: "no coriander" },
        }),
        201,
      );
      const second = expectStatus(
        await call<OrderJson>("POST", org(t.main.slug, "orders"), { key: t.main.apiKeys.cashier, json: { items: [{ name: "Tea", qty: 1 }] } }),
        201,
      );
      const readied = expectStatus(
        await call<OrderJson>("POST", org(t.main.slug, `orders/${first.id}/status`), { key: t.main.apiKeys.kitchen, json: { status: "READY" } }),
        200,
      );
      const collected = expectStatus(
        await call<OrderJson>("POST", org(t.main.slug, `orders/${first.id}/status`), { key: t.main.apiKeys.kitchen, json: { status: "COLLECTED" } }),
        200,
      );
      const cancelled = expectStatus(
        await call<OrderJson>("POST", org(t.main.slug, `orders/${second.id}/status`), { key: t.main.apiKeys.kitchen, json: { status: "CANCELLED" } }),
        200,
      );
      const shift = expectStatus(
        await call<{ shift: number; startedAt: string }>("POST", org(t.main.slug, "shifts"), { key: t.main.apiKeys.manager, json: { reason: "evening" } }),
        201,
      );

      // Six messages, each answered 500, 500, then 204.
      await receiver.until(() => receiver.accepted().length === 6, "six accepted messages");
      await readyOnly.until(() => readyOnly.accepted().length === 1, "the ready message");
      const received = new Map<string, ReceivedHook[]>();
      for (const r of receiver.received) received.set(r.id, [...(received.get(r.id) ?? []), r]);
      expect(received.size).toBe(6);
      const bodies = new Map<string, string>();
      for (const [id, hooks] of received) {
        expect(id).toMatch(UUID);
        expect(hooks.map((h) => h.status)).toEqual([500, 500, 204]);
        // Every attempt of a message: same id, same body, a valid signature.
        expect(new Set(hooks.map((h) => h.body)).size).toBe(1);
        for (const h of hooks) expectSigned(h, all.secret!);
        bodies.set(id, hooks[0]!.body);
      }
      const events = [...bodies.values()].map((b) => JSON.parse(b) as { type: string; timestamp: string; data: Record<string, unknown> });
      const byType = (type: string) => events.filter((e) => e.type === type);
      expect(events.map((e) => e.type).sort()).toEqual([
        "order.cancelled",
        "order.collected",
        "order.created",
        "order.created",
        "order.ready",
        "shift.started",
      ]);
      expect(
        byType("order.created")
          .map((e) => e.data)
          .sort((a, b) => Number(a.number) - Number(b.number)),
      ).toEqual([eventData(first, keyBy(t.main.apiKeys.cashier)), eventData(second, keyBy(t.main.apiKeys.cashier))]);
      expect(byType("order.created")[0]!.timestamp).toMatch(ISO_TIMESTAMP);
      expect(byType("order.ready")[0]).toEqual({ type: "order.ready", timestamp: readied.readyAt, data: eventData(readied, keyBy(t.main.apiKeys.kitchen)) });
      expect(byType("order.collected")[0]).toEqual({
        type: "order.collected",
        timestamp: collected.collectedAt,
        data: eventData(collected, keyBy(t.main.apiKeys.kitchen)),
      });
      expect(byType("order.cancelled")[0]).toEqual({
        type: "order.cancelled",
        timestamp: cancelled.cancelledAt,
        data: eventData(cancelled, keyBy(t.main.apiKeys.kitchen)),
      });
      expect(byType("shift.started")[0]).toMatchObject({
        type: "shift.started",
        timestamp: shift.startedAt,
        data: { shift: shift.shift, reason: "evening", startedAt: shift.startedAt },
      });

      // The other endpoint only had the event it subscribed to, signed with its own secret.
      expect(readyOnly.received).toHaveLength(1);
      expect(expectSigned(readyOnly.received[0]!, ready.secret!)).toEqual({
        type: "order.ready",
        timestamp: readied.readyAt,
        data: eventData(readied, keyBy(t.main.apiKeys.kitchen)),
      });

      // The deliveries endpoint tells the same story, once each last attempt is recorded (after its answer came).
      const listed = await until(
        "six deliveries recorded as delivered",
        () => deliveries(call, t.main, all.id),
        (ds) => ds.length === 6 && ds.every((d) => d.deliveredAt !== null),
      );
      expect(listed.map((d) => d.id).sort()).toEqual([...received.keys()].sort());
      for (const d of listed) {
        expect(d).toEqual({
          id: d.id,
          type: expect.any(String),
          createdAt: expect.stringMatching(ISO_TIMESTAMP),
          attempts: 3,
          lastStatus: 204,
          lastError: null,
          nextAttemptAt: null,
          deliveredAt: expect.stringMatching(ISO_TIMESTAMP),
          gaveUpAt: null,
        });
        expect(JSON.parse(bodies.get(d.id)!).type).toBe(d.type);
      }

      // Nothing more arrives once the queue has nothing left to try: a delivered message is never sent again.
      const count = receiver.received.length;
      await noAttemptLeft(db.url);
      expect(receiver.received).toHaveLength(count);

      const metrics = await (await contractFetch(`${app.url}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
      expect(metrics).toMatch(/nextup_webhook_deliveries_total\{outcome="delivered"\} 7\b/);
      expect(metrics).toMatch(/nextup_webhook_deliveries_total\{outcome="retrying"\} 12\b/);
      expect(metrics).toMatch(/nextup_webhook_queue_depth 0\b/);
    } finally {
      await receiver.close();
      await readyOnly.close();
    }
  });

  it("an order recorded just before a kill -9 is delivered after the restart", async () => {
    let up = false;
    const receiver = await WebhookReceiver.start(() => (up ? 204 : 503));
    try {
      const hook = expectStatus(
        await call<WebhookJson>("POST", org(t.crash.slug, "webhooks"), {
          key: t.crash.apiKeys.manager,
          json: { url: receiver.url, events: ["order.created"] },
        }),
        201,
      );
      const order = expectStatus(
        await call<OrderJson>("POST", org(t.crash.slug, "orders"), { key: t.crash.apiKeys.cashier, json: { items: [{ name: "Dumplings", qty: 6 }] } }),
        201,
      );
      const killed = new Promise((resolve) => app.proc.once("exit", resolve));
      app.proc.kill("SIGKILL");
      await killed;
      expect(receiver.accepted()).toEqual([]);

      up = true;
      app = await start(app.port);
      await receiver.until(() => receiver.accepted().length === 1, "the order after the restart");
      const hooks = receiver.received;
      expect(new Set(hooks.map((h) => h.id)).size).toBe(1);
      expect(expectSigned(receiver.accepted()[0]!, hook.secret!)).toEqual({
        type: "order.created",
        timestamp: order.createdAt,
        data: eventData(order, keyBy(t.crash.apiKeys.cashier)),
      });
      // Recorded after the receiver's answer came: wait for that, not for the arrival.
      const [d] = await until(
        "the delivery recorded as delivered",
        () => deliveries(call, t.crash, hook.id),
        (ds) => ds[0]?.deliveredAt != null,
      );
      expect(d).toMatchObject({
        id: hooks[0]!.id,
        type: "order.created",
        lastStatus: 204,
        lastError: null,
        nextAttemptAt: null,
        deliveredAt: expect.stringMatching(ISO_TIMESTAMP),
      });
      // An attempt made just before the kill may have gone unrecorded (at least once): never more recorded than made.
      expect(d!.attempts).toBeGreaterThanOrEqual(1);
      expect(d!.attempts).toBeLessThanOrEqual(hooks.length);
    } finally {
      await receiver.close();
    }
  });

  it("two app nodes on one database send each message once (each attempt runs on one node)", async () => {
    const second = await start();
    const receiver = await WebhookReceiver.start(() => 204);
    try {
      // The second node learns (and caches) that this restaurant has no webhooks; creating one
      // on the first node must make it forget that before its next order.
      expectStatus(await apiClient(second.url)("POST", org(t.other.slug, "orders"), { key: t.other.apiKeys.cashier, json: {} }), 201);
      const hook = expectStatus(
        await call<WebhookJson>("POST", org(t.other.slug, "webhooks"), {
          key: t.other.apiKeys.manager,
          json: { url: receiver.url, events: ["order.created"] },
        }),
        201,
      );
      const nodes = [call, apiClient(second.url)];
      for (let i = 0; i < 12; i++) expectStatus(await nodes[i % 2]!("POST", org(t.other.slug, "orders"), { key: t.other.apiKeys.cashier, json: {} }), 201);
      await receiver.until(() => receiver.received.length >= 12, "twelve messages");
      await noAttemptLeft(db.url); // neither node has anything left to send
      expect(receiver.received).toHaveLength(12);
      expect(new Set(receiver.received.map((r) => r.id)).size).toBe(12);
      for (const r of receiver.received) expectSigned(r, hook.secret!);
      expectStatus(await call("DELETE", org(t.other.slug, `webhooks/${hook.id}`), { key: t.other.apiKeys.manager }), 200);
    } finally {
      await receiver.close();
      await second.stop();
    }
  });

  it("a failing endpoint's deliveries show attempts, the last status and error, and when the next attempt is due", async () => {
    const receiver = await WebhookReceiver.start(() => 503);
    try {
      const hook = await hookWithOneOrder(receiver);
      const [d] = await until(
        "a failed attempt",
        () => deliveries(call, t.other, hook.id),
        (ds) => ds.length === 1 && ds[0]!.attempts >= 1,
      );
      expect(d).toMatchObject({ type: "order.created", lastStatus: 503, lastError: "HTTP 503", deliveredAt: null, gaveUpAt: null });
      expect(d!.nextAttemptAt).toMatch(ISO_TIMESTAMP); // still pending: the next attempt's time
      // Deleting the endpoint drops its messages: nothing is sent after.
      expectStatus(await call("DELETE", org(t.other.slug, `webhooks/${hook.id}`), { key: t.other.apiKeys.manager }), 200);
      const count = receiver.received.length;
      await noAttemptLeft(db.url); // the queued retry ran (and found its message gone) or was never due
      expect(receiver.received.length).toBeLessThanOrEqual(count + 1); // at most the attempt already in flight
      expectApiError(await call("GET", org(t.other.slug, `webhooks/${hook.id}/deliveries`), { key: t.other.apiKeys.manager }), 404, "NOT_FOUND");
    } finally {
      await receiver.close();
    }
  });

  it("a clearing reports each cleared order (order.cleared) to the endpoints that chose it, and to no other", async () => {
    const cleared = await WebhookReceiver.start(() => 204);
    const before = await WebhookReceiver.start(() => 204);
    const prisma = createPrisma(db.url, { max: 1 });
    try {
      const hook = expectStatus(
        await call<WebhookJson>("POST", org(t.clear.slug, "webhooks"), { key: t.clear.apiKeys.manager, json: { url: cleared.url, events: ["order.cleared"] } }),
        201,
      );
      // An endpoint subscribed to every event there was before order.cleared: its list is explicit, so it gets none.
      const older = ALL_EVENTS.filter((e) => e !== "order.cleared");
      expectStatus(
        await call<WebhookJson>("POST", org(t.clear.slug, "webhooks"), { key: t.clear.apiKeys.manager, json: { url: before.url, events: older } }),
        201,
      );
      const place = async () =>
        expectStatus(
          await call<OrderJson>("POST", org(t.clear.slug, "orders"), { key: t.clear.apiKeys.cashier, json: { items: [{ name: "Tea", qty: 1 }] } }),
          201,
        );
      const [placed, ready, collected] = [await place(), await place(), await place()];
      const moveTo = async (o: OrderJson, status: string) =>
        expectStatus(await call<OrderJson>("POST", org(t.clear.slug, `orders/${o.id}/status`), { key: t.clear.apiKeys.kitchen, json: { status } }), 200);
      await moveTo(ready, "READY");
      await moveTo(collected, "READY");
      await moveTo(collected, "COLLECTED");

      const shift = expectStatus(
        await call<{ cleared: number }>("POST", org(t.clear.slug, "shifts"), { key: t.clear.apiKeys.manager, json: { openOrders: "clear" } }),
        201,
      );
      expect(shift.cleared).toBe(2);
      // Written with the clearing, before the answer: the messages are already stored.
      expect(await prisma.webhookDelivery.count({ where: { endpointId: hook.id, type: "order.cleared" } })).toBe(2);

      // Forgotten for more than 12 hours by the database's clock: cleared when the board is next read.
      const forgotten = await place();
      await prisma.$executeRaw`UPDATE "Order" SET "createdAt" = now() - interval '13 hours' WHERE id = ${forgotten.id}::uuid`;
      expectStatus(await call("GET", org(t.clear.slug, "board")), 200);

      await cleared.until(() => cleared.accepted().length === 3, "three order.cleared messages");
      const got = cleared.accepted().map((h) => expectSigned(h, hook.secret!));
      const now = async (o: OrderJson) =>
        expectStatus(await call<OrderJson>("GET", org(t.clear.slug, `orders/${o.id}`), { key: t.clear.apiKeys.cashier }), 200);
      const expected = [await now(placed), await now(ready), await now(forgotten)];
      for (const o of expected) expect(o).toMatchObject({ cleared: true, clearedAt: expect.stringMatching(ISO_TIMESTAMP) });
      expect(expected.map((o) => o.status)).toEqual(["PLACED", "READY", "PLACED"]);
      // Messages carry no order between them (one restaurant's attempts may be deferred, decision 0044): compared by order id.
      const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
      expect(got.sort((a, b) => byId(String(a.data.id), String(b.data.id)))).toEqual(
        // Cleared by the new shift: who started it (the manager's key); by the 12-hour sweep: no one.
        expected
          .sort((a, b) => byId(a.id, b.id))
          .map((o) => ({ type: "order.cleared", timestamp: o.clearedAt, data: eventData(o, o.id === forgotten.id ? null : keyBy(t.clear.apiKeys.manager)) })),
      );

      // The other endpoint had all the rest (4 created, 2 ready, 1 collected, the shift) and no clearing.
      await before.until(() => before.accepted().length === 8, "the other endpoint's eight messages");
      await noAttemptLeft(db.url);
      expect(before.received.map((h) => (JSON.parse(h.body) as { type: string }).type)).not.toContain("order.cleared");
      expect(cleared.received).toHaveLength(3);
      for (const w of expectStatus(await call<{ webhooks: WebhookJson[] }>("GET", org(t.clear.slug, "webhooks"), { key: t.clear.apiKeys.manager }), 200)
        .webhooks)
        expectStatus(await call("DELETE", org(t.clear.slug, `webhooks/${w.id}`), { key: t.clear.apiKeys.manager }), 200);
    } finally {
      await prisma.$disconnect();
      await cleared.close();
      await before.close();
    }
  });

  it("a clearing whose order.cleared events cannot be stored does not happen (one transaction)", async () => {
    const prisma = createPrisma(db.url, { max: 1 });
    try {
      const hook = expectStatus(
        await call<WebhookJson>("POST", org(t.clear.slug, "webhooks"), {
          key: t.clear.apiKeys.manager,
          json: { url: "http://127.0.0.1:9/x", events: ["order.cleared"] },
        }),
        201,
      );
      const o = expectStatus(await call<OrderJson>("POST", org(t.clear.slug, "orders"), { key: t.clear.apiKeys.cashier, json: {} }), 201);
      // The queue refuses the attempts' jobs, as a database error inside the transaction would.
      const broken = { enqueue: () => Promise.reject(new Error("queue down")), wake: () => {} } as unknown as WebhookQueue;
      const repo = new PrismaOrderRepository(prisma, new WebhookOutbox(broken, prisma));
      const emits = orderCleared({ slug: t.clear.slug });
      await expect(repo.clearOpen(t.clear.id, o.businessDay, o.shift + 1, new Date(), emits)).rejects.toThrow("queue down");
      await expect(repo.clearForgotten(t.clear.id, 0, new Date(), emits)).rejects.toThrow("queue down");
      const after = expectStatus(await call<OrderJson>("GET", org(t.clear.slug, `orders/${o.id}`), { key: t.clear.apiKeys.cashier }), 200);
      expect(after).toMatchObject({ status: "PLACED", cleared: false, clearedAt: null });
      expect(await prisma.webhookDelivery.count({ where: { endpointId: hook.id } })).toBe(0);
      expectStatus(await call("DELETE", org(t.clear.slug, `webhooks/${hook.id}`), { key: t.clear.apiKeys.manager }), 200);
      expectStatus(await call("POST", org(t.clear.slug, `orders/${o.id}/status`), { key: t.clear.apiKeys.kitchen, json: { status: "CANCELLED" } }), 200);
    } finally {
      await prisma.$disconnect();
    }
  });

  it("a new shift clearing 300 open orders stores 300 order.cleared messages with it and delivers each without waiting a poll per message", async () => {
    const receiver = await WebhookReceiver.start(() => 204);
    const prisma = createPrisma(db.url, { max: 1 });
    try {
      const hook = expectStatus(
        await call<WebhookJson>("POST", org(t.clear.slug, "webhooks"), {
          key: t.clear.apiKeys.manager,
          json: { url: receiver.url, events: ["order.cleared"] },
        }),
        201,
      );
      // Open orders of a day long gone (written directly: 300 sales through the API would only take time).
      await prisma.order.createMany({
        data: Array.from({ length: 300 }, (_, i) => ({
          tenantId: t.clear.id,
          businessDay: new Date(`${addDays(localDate("UTC"), -30)}T00:00:00Z`),
          shift: 1,
          number: i + 1,
          items: [{ name: "Tea", qty: 1 }],
          channel: "api",
        })),
      });
      const shift = expectStatus(
        await call<{ cleared: number }>("POST", org(t.clear.slug, "shifts"), { key: t.clear.apiKeys.manager, json: { openOrders: "clear" } }),
        201,
      );
      expect(shift.cleared).toBe(300);
      expect(await prisma.webhookDelivery.count({ where: { endpointId: hook.id } })).toBe(300);
      // Every message arrives (how fast is a matter for a bench, not a timed test).
      await receiver.until(() => receiver.accepted().length === 300, "300 messages", 90_000);
      const numbers = receiver.accepted().map((h) => (JSON.parse(h.body) as { data: OrderJson }).data.number);
      expect(new Set(numbers).size).toBe(300);
      expect(new Set(receiver.accepted().map((h) => h.id)).size).toBe(300);
      expectStatus(await call("DELETE", org(t.clear.slug, `webhooks/${hook.id}`), { key: t.clear.apiKeys.manager }), 200);
    } finally {
      await prisma.$disconnect();
      await receiver.close();
    }
  }, 120_000);

  it("a retry starts at nextAttemptAt (jitter included), never before it", async () => {
    const arrivals: number[] = [];
    const receiver = await WebhookReceiver.start(() => (arrivals.push(Date.now()), 503));
    try {
      const hook = await hookWithOneOrder(receiver);
      // After 5 failed attempts the next waits 100 ms × 2^4 (+ up to 10 %): time enough to read when.
      const [d] = await until(
        "five failed attempts",
        () => deliveries(call, t.other, hook.id),
        (ds) => (ds[0]?.attempts ?? 0) >= 5,
      );
      const due = Date.parse(d!.nextAttemptAt!);
      const next = d!.attempts; // index of the attempt after the ones recorded
      await receiver.until(() => arrivals.length > next, "the next attempt");
      // The attempt counted from the end of the last one: at least 1.6 s later. The jitter's upper bound is a unit
      // test (tests/unit/webhooks.test.ts); how soon after the due time the workers poll is for a bench.
      expect(due - arrivals[next - 1]!).toBeGreaterThanOrEqual(1_600);
      expect(arrivals[next]!).toBeGreaterThanOrEqual(due);
      expectStatus(await call("DELETE", org(t.other.slug, `webhooks/${hook.id}`), { key: t.other.apiKeys.manager }), 200);
    } finally {
      await receiver.close();
    }
  });

  it("refuses cloud metadata addresses even here, and bad input naming the field; nothing is stored", async () => {
    const bad: [unknown, string][] = [
      [{ url: "http://169.254.169.254/latest/meta-data", events: ["order.created"] }, "url"],
      [{ url: "ftp://127.0.0.1/x", events: ["order.created"] }, "url"],
      [{ url: "http://user:pw@127.0.0.1/x", events: ["order.created"] }, "url"],
      [{ url: "not a url", events: ["order.created"] }, "url"],
      [{ events: ["order.created"] }, "url"],
      [{ url: "http://127.0.0.1:9/x", events: [] }, "events"],
      [{ url: "http://127.0.0.1:9/x", events: ["order.eaten"] }, "events"],
      [{ url: "http://127.0.0.1:9/x", events: ["order.created"], colour: "red" }, "colour"],
    ];
    for (const [json, field] of bad) {
      const err = expectApiError(await call("POST", org(t.other.slug, "webhooks"), { key: t.other.apiKeys.manager, json }), 400, "BAD_INPUT");
      expect(err.message, JSON.stringify(json)).toContain(field);
    }
    // Metadata ranges stay refused here (all four were accepted), saying what is true: the
    // restaurant's network is allowed already, so the manager is not sent to ask for that.
    const metadata: [string, string][] = [
      ["http://169.254.170.23/v1/credentials", "metadata"],
      ["http://[fd00:ec2::23]/v1/credentials", "metadata"],
      ["http://100.100.100.200/latest/meta-data", "metadata"],
      ["http://169.254.169.253/", "linkLocal"],
    ];
    for (const [url, problem] of metadata) {
      const err = expectApiError(
        await call("POST", org(t.other.slug, "webhooks"), { key: t.other.apiKeys.manager, json: { url, events: ["order.created"] } }),
        400,
        "BAD_INPUT",
      );
      expect(err.details, url).toMatchObject({ problem, fields: [{ path: "url" }] });
      expect(err.message, url).toMatch(
        problem === "metadata" ? /is a cloud metadata address: .* webhooks never go there/ : /refused even where the restaurant's own network is allowed/,
      );
      expect(err.message, url).not.toMatch(/ask whoever runs Nextup to allow the restaurant's own network/);
    }
    expect(expectStatus(await call<{ webhooks: unknown[] }>("GET", org(t.other.slug, "webhooks"), { key: t.other.apiKeys.manager }), 200).webhooks).toEqual([]);
  });

  it("at delivery the rules of creation apply (a metadata address is refused, nothing connects) and a private address without HTTP answer says only that", async () => {
    const prisma = createPrisma(db.url, { max: 1 });
    const closed = await WebhookReceiver.start(() => 204);
    const closedUrl = closed.url;
    await closed.close(); // nothing listens there any more: "connection refused" would map the port
    try {
      const rows = [
        { id: "0b9f6c1e-4a3d-4c55-9a1e-000000000002", url: "http://169.254.170.23/v1/credentials" },
        { id: "0b9f6c1e-4a3d-4c55-9a1e-000000000003", url: closedUrl },
      ];
      for (const r of rows)
        await prisma.webhookEndpoint.create({
          data: {
            ...r,
            tenantId: t.other.id,
            events: ["order.created"],
            secretEnc: new SecretCipher(sessionSecret).seal(`whsec_${randomBytes(32).toString("base64")}`, r.id),
          },
        });
      expectStatus(await call("POST", org(t.other.slug, "orders"), { key: t.other.apiKeys.cashier, json: {} }), 201);
      const [metadata] = await until(
        "a refused attempt",
        () => deliveries(call, t.other, rows[0]!.id),
        (ds) => ds[0]?.attempts !== undefined && ds[0].attempts >= 1,
      );
      expect(metadata).toMatchObject({ lastStatus: null, lastError: "destination refused: 169.254.170.23 is a cloud metadata address" });
      const [quiet] = await until(
        "a failed attempt",
        () => deliveries(call, t.other, rows[1]!.id),
        (ds) => ds[0]?.attempts !== undefined && ds[0].attempts >= 1,
      );
      expect(quiet).toMatchObject({ lastStatus: null, lastError: "no HTTP answer (for a private address the reason is in the server's log only)" });
      for (const r of rows) expectStatus(await call("DELETE", org(t.other.slug, `webhooks/${r.id}`), { key: t.other.apiKeys.manager }), 200);
    } finally {
      await prisma.$disconnect();
    }
  });

  it("Send test: a ping goes through the same queue to that endpoint, whatever its events, signed; its delivery and audit entry show it", async () => {
    const receiver = await WebhookReceiver.start(() => 204);
    try {
      const made = expectStatus(
        await call<WebhookJson>("POST", org(t.other.slug, "webhooks"), {
          key: t.other.apiKeys.manager,
          json: { url: receiver.url, events: ["order.cancelled"] },
        }),
        201,
      );
      const pinged = expectStatus(
        await call<{ deliveryId: string }>("POST", org(t.other.slug, `webhooks/${made.id}/ping`), { key: t.other.apiKeys.manager }),
        202,
      );
      expect(pinged).toEqual({ deliveryId: expect.stringMatching(UUID) });
      await receiver.until(() => receiver.accepted().length === 1, "the ping");
      const body = expectSigned(receiver.accepted()[0]!, made.secret!);
      expect(body).toMatchObject({ type: "ping", data: { endpointId: made.id } });
      const [d] = await until(
        "the ping recorded",
        () => deliveries(call, t.other, made.id),
        (ds) => ds[0]?.deliveredAt !== null && ds.length === 1,
      );
      expect(d).toMatchObject({ id: pinged.deliveryId, type: "ping", attempts: 1, lastStatus: 204 });
      const audit = expectStatus(
        await call<{ entries: { action: string; details: unknown }[] }>("GET", org(t.other.slug, "audit"), { key: t.other.apiKeys.manager }),
        200,
      );
      expect(audit.entries[0]).toMatchObject({ action: "webhook.ping", details: { id: made.id } });
      // Not a manager, another restaurant's key, an unknown id: refused as everywhere else.
      expectApiError(await call("POST", org(t.other.slug, `webhooks/${made.id}/ping`), { key: t.other.apiKeys.cashier }), 403, "FORBIDDEN");
      expectApiError(await call("POST", org(t.main.slug, `webhooks/${made.id}/ping`), { key: t.main.apiKeys.manager }), 404, "NOT_FOUND");
      expectApiError(await call("POST", org(t.other.slug, "webhooks/nope/ping"), { key: t.other.apiKeys.manager }), 404, "NOT_FOUND");
      await call("DELETE", org(t.other.slug, `webhooks/${made.id}`), { key: t.other.apiKeys.manager });
    } finally {
      await receiver.close();
    }
  });

  it("PATCH changes an endpoint's events and URL (checked like a new one, the secret kept), audited; bad input is 400 naming the field", async () => {
    const a = await WebhookReceiver.start(() => 204);
    const b = await WebhookReceiver.start(() => 204);
    try {
      const made = expectStatus(
        await call<WebhookJson>("POST", org(t.other.slug, "webhooks"), { key: t.other.apiKeys.manager, json: { url: a.url, events: ["order.cancelled"] } }),
        201,
      );
      const path = org(t.other.slug, `webhooks/${made.id}`);
      const changed = expectStatus(
        await call<WebhookJson>("PATCH", path, { key: t.other.apiKeys.manager, json: { url: b.url, events: ["order.created"] } }),
        200,
      );
      expect(changed).toEqual({ ...made, url: b.url, events: ["order.created"], secret: undefined });
      const audit = expectStatus(
        await call<{ entries: { action: string; details: unknown }[] }>("GET", org(t.other.slug, "audit"), { key: t.other.apiKeys.manager }),
        200,
      );
      expect(audit.entries[0]).toMatchObject({
        action: "webhook.update",
        details: { id: made.id, from: { url: a.url, events: ["order.cancelled"] }, to: { url: b.url, events: ["order.created"] } },
      });
      // The new events and URL are in force at once: an order reaches b, signed with the old secret.
      expectStatus(await call("POST", org(t.other.slug, "orders"), { key: t.other.apiKeys.cashier, json: { items: [{ name: "Tea", qty: 1 }] } }), 201);
      await b.until(() => b.accepted().length === 1, "the order at the new URL");
      expect(expectSigned(b.accepted()[0]!, made.secret!).type).toBe("order.created");
      expect(a.received).toEqual([]);

      const bad = expectApiError(await call("PATCH", path, { key: t.other.apiKeys.manager, json: { url: "https://169.254.169.254/x" } }), 400, "BAD_INPUT");
      expect((bad.details as { fields: { path: string }[] }).fields.map((f) => f.path)).toEqual(["url"]);
      expectApiError(await call("PATCH", path, { key: t.other.apiKeys.manager, json: { events: [] } }), 400, "BAD_INPUT");
      expectApiError(await call("PATCH", path, { key: t.other.apiKeys.manager, json: {} }), 400, "BAD_INPUT");
      expectApiError(await call("PATCH", path, { key: t.other.apiKeys.manager, json: { secret: "whsec_x" } }), 400, "BAD_INPUT");
      expectApiError(await call("PATCH", path, { key: t.other.apiKeys.kitchen, json: { events: ["order.ready"] } }), 403, "FORBIDDEN");
      expectApiError(
        await call("PATCH", org(t.main.slug, `webhooks/${made.id}`), { key: t.main.apiKeys.manager, json: { events: ["order.ready"] } }),
        404,
        "NOT_FOUND",
      );
      await call("DELETE", path, { key: t.other.apiKeys.manager });
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("POST …/webhooks/{id}/secret: a new secret shown once, the old one stops at once (a queued message's next attempt too), audited; manager key only", async () => {
    let accept = false;
    const receiver = await WebhookReceiver.start(() => (accept ? 204 : 503));
    try {
      // A message whose first attempt fails before the rotation.
      const made = await hookWithOneOrder(receiver);
      await receiver.until(() => receiver.received.length >= 1, "the first, refused attempt");
      expect(expectSigned(receiver.received[0]!, made.secret!).type).toBe("order.created");

      const path = org(t.other.slug, `webhooks/${made.id}/secret`);
      const res = await contractFetch(`${app.url}${path}`, { method: "POST", headers: { authorization: `Bearer ${t.other.apiKeys.manager}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("no-store");
      const rotated = (await res.json()) as WebhookJson;
      expect(rotated).toEqual({ ...made, secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/) });
      expect(rotated.secret).not.toBe(made.secret);

      // From now on every attempt is signed with the new secret only: the queued message's retry, and a new message.
      // An attempt already on its way when the secret changed is attempt n0 + 1 at most; once that one is recorded,
      // the next (its job is queued by that record) reads the endpoint afterwards. Accept only from then on.
      const n0 = receiver.received.length;
      await until(
        "the attempt on its way at the rotation, recorded",
        () => deliveries(call, t.other, made.id),
        (ds) => (ds[0]?.attempts ?? 0) > n0,
      );
      accept = true;
      expectStatus(await call("POST", org(t.other.slug, "orders"), { key: t.other.apiKeys.cashier, json: {} }), 201);
      await receiver.until(() => receiver.accepted().length === 2, "both messages, signed anew");
      for (const h of receiver.accepted()) {
        expect(expectSigned(h, rotated.secret!).type).toBe("order.created");
        expect(() => expectSigned(h, made.secret!)).toThrow();
      }

      const listed = expectStatus(await call<{ webhooks: WebhookJson[] }>("GET", org(t.other.slug, "webhooks"), { key: t.other.apiKeys.manager }), 200);
      expect(JSON.stringify(listed)).not.toContain("whsec_");
      const audit = expectStatus(
        await call<{ entries: { action: string; details: unknown }[] }>("GET", org(t.other.slug, "audit"), { key: t.other.apiKeys.manager }),
        200,
      );
      expect(audit.entries[0]).toEqual(expect.objectContaining({ action: "webhook.rotateSecret", details: { id: made.id, url: receiver.url } }));
      expect(JSON.stringify(audit)).not.toContain("whsec_");

      // Not a manager, another restaurant, an unknown id, no key: refused as everywhere else, and nothing changes.
      expectApiError(await call("POST", path, {}), 401, "UNAUTHENTICATED");
      expectApiError(await call("POST", path, { key: t.other.apiKeys.cashier }), 403, "FORBIDDEN");
      expectApiError(await call("POST", path, { key: t.other.apiKeys.kitchen }), 403, "FORBIDDEN");
      expectApiError(await call("POST", path, { key: t.main.apiKeys.manager }), 403, "FORBIDDEN");
      expectApiError(await call("POST", org(t.main.slug, `webhooks/${made.id}/secret`), { key: t.main.apiKeys.manager }), 404, "NOT_FOUND");
      expectApiError(await call("POST", org(t.other.slug, "webhooks/nope/secret"), { key: t.other.apiKeys.manager }), 404, "NOT_FOUND");
      expectApiError(await call("GET", path, { key: t.other.apiKeys.manager }), 405, "METHOD_NOT_ALLOWED");
      await call("DELETE", org(t.other.slug, `webhooks/${made.id}`), { key: t.other.apiKeys.manager });
    } finally {
      await receiver.close();
    }
  });

  it("tenants cannot see, read or delete each other's webhooks; only a manager key may", async () => {
    const hook = expectStatus(
      await call<WebhookJson>("POST", org(t.main.slug, "webhooks"), {
        key: t.main.apiKeys.manager,
        json: { url: "http://127.0.0.1:9/x", events: ["order.ready"] },
      }),
      201,
    );
    const paths: [string, string][] = [
      ["GET", "webhooks"],
      ["POST", "webhooks"],
      ["DELETE", `webhooks/${hook.id}`],
      ["GET", `webhooks/${hook.id}/deliveries`],
    ];
    for (const [method, path] of paths) {
      const json = method === "POST" ? { url: "http://127.0.0.1:9/y", events: ["order.ready"] } : undefined;
      expectApiError(await call(method, org(t.main.slug, path), { json }), 401, "UNAUTHENTICATED");
      expectApiError(await call(method, org(t.main.slug, path), { json, key: t.main.apiKeys.cashier }), 403, "FORBIDDEN");
      expectApiError(await call(method, org(t.main.slug, path), { json, key: t.main.apiKeys.kitchen }), 403, "FORBIDDEN");
      expectApiError(await call(method, org(t.main.slug, path), { json, key: t.other.apiKeys.manager }), 403, "FORBIDDEN");
    }
    // Through its own slug, another restaurant's id is simply not there.
    expectApiError(await call("DELETE", org(t.other.slug, `webhooks/${hook.id}`), { key: t.other.apiKeys.manager }), 404, "NOT_FOUND");
    expectApiError(await call("GET", org(t.other.slug, `webhooks/${hook.id}/deliveries`), { key: t.other.apiKeys.manager }), 404, "NOT_FOUND");
    expectApiError(await call("DELETE", org(t.other.slug, "webhooks/not-a-uuid"), { key: t.other.apiKeys.manager }), 404, "NOT_FOUND");
    expect(
      expectStatus(await call<{ webhooks: WebhookJson[] }>("GET", org(t.other.slug, "webhooks"), { key: t.other.apiKeys.manager }), 200).webhooks.map(
        (w) => w.id,
      ),
    ).not.toContain(hook.id);

    const listed = expectStatus(await call<{ webhooks: WebhookJson[] }>("GET", org(t.main.slug, "webhooks"), { key: t.main.apiKeys.manager }), 200).webhooks;
    expect(listed.find((w) => w.id === hook.id)).toEqual({
      id: hook.id,
      url: hook.url,
      events: ["order.ready"],
      createdAt: hook.createdAt,
      createdBy: hook.createdBy,
    });
    expect(JSON.stringify(listed)).not.toContain("whsec_");
    expect(JSON.stringify(listed)).not.toContain("secret");

    expectStatus(await call("DELETE", org(t.main.slug, `webhooks/${hook.id}`), { key: t.main.apiKeys.manager }), 200);
    expectApiError(await call("DELETE", org(t.main.slug, `webhooks/${hook.id}`), { key: t.main.apiKeys.manager }), 404, "NOT_FOUND");
    const audit = expectStatus(
      await call<{ entries: { action: string; details: Record<string, unknown> }[] }>("GET", org(t.main.slug, "audit"), { key: t.main.apiKeys.manager }),
      200,
    ).entries;
    expect(audit.filter((e) => e.details.id === hook.id).map((e) => e.action)).toEqual(["webhook.delete", "webhook.create"]);
    expect(JSON.stringify(audit)).not.toContain("whsec_");
  });
});

describe("with the default policy (no private destinations)", () => {
  let db: TestDatabase;
  let app: AppServer;
  let call: Api;
  let tenant: TestTenant;
  const sessionSecret = randomBytes(32).toString("hex");

  beforeAll(async () => {
    db = await createTestDatabase("webhooks_ssrf");
    const slug = uniqueSlug("wh-ssrf");
    tenant = (await provisionTenants(db.url, [stableDaySpec(slug)]))[slug]!;
    app = await startAppServer({
      databaseUrl: db.url,
      keyPrefix: testKeyPrefix("hooks-ssrf"),
      env: { WEBHOOKS_RETRY_BASE_MS: "100", WEBHOOKS_TIMEOUT_MS: "2000", SESSION_SECRET: sessionSecret },
    });
    call = apiClient(app.url);
  });
  afterAll(async () => {
    await app?.stop();
    await db?.drop();
  });

  it("refuses loopback, private, link-local, unique-local, multicast, unspecified, metadata and IPv4-mapped destinations at creation (400 naming url)", async () => {
    const refused = [
      "https://127.0.0.1/hook",
      "https://127.1/hook",
      "https://localhost:8443/hook",
      "https://10.0.0.7/hook",
      "https://172.16.5.4/hook",
      "https://192.168.1.20/hook",
      "https://169.254.169.254/latest/meta-data",
      "https://169.254.10.1/hook",
      "https://0.0.0.0/hook",
      "https://[::1]/hook",
      "https://[::]/hook",
      "https://[fd00::1]/hook",
      "https://[fe80::1]/hook",
      "https://224.0.0.1/hook",
      "https://[ff02::1]/hook",
      "https://[::ffff:127.0.0.1]/hook",
      "https://[::ffff:a00:1]/hook",
      "https://100.64.0.1/hook",
      // Plain http only for a restaurant's own network.
      "http://93.184.215.14/hook",
    ];
    for (const url of refused) {
      const err = expectApiError(
        await call("POST", org(tenant.slug, "webhooks"), { key: tenant.apiKeys.manager, json: { url, events: ["order.created"] } }),
        400,
        "BAD_INPUT",
      );
      expect(err.message, url).toMatch(/^url: /);
      // Words a manager can act on: never the name of a server setting.
      expect(JSON.stringify(err), url).not.toMatch(/WEBHOOKS_|ALLOW_PRIVATE/);
      expect(
        (err.details as { fields: { path: string }[] }).fields.map((f) => f.path),
        url,
      ).toEqual(["url"]);
    }
    expect(expectStatus(await call<{ webhooks: unknown[] }>("GET", org(tenant.slug, "webhooks"), { key: tenant.apiKeys.manager }), 200).webhooks).toEqual([]);
  });

  it("refuses at delivery a host name that resolves to a loopback address (DNS changed since creation): no connection is made", async () => {
    const receiver = await WebhookReceiver.start(() => 204);
    const prisma = createPrisma(db.url, { max: 1 });
    try {
      // As if `localhost` had resolved to a public address when the webhook was created
      // (DNS rebinding): the row is written directly, since creation refuses it now.
      const id = "0b9f6c1e-4a3d-4c55-9a1e-000000000001";
      await prisma.webhookEndpoint.create({
        data: {
          id,
          tenantId: tenant.id,
          url: `http://localhost:${receiver.port}/hooks`,
          events: ["order.created"],
          secretEnc: new SecretCipher(sessionSecret).seal(`whsec_${randomBytes(32).toString("base64")}`, id),
        },
      });
      expectStatus(await call("POST", org(tenant.slug, "orders"), { key: tenant.apiKeys.cashier, json: {} }), 201);
      const [d] = await until(
        "two refused attempts",
        () => deliveries(call, tenant, id),
        (ds) => ds.length === 1 && ds[0]!.attempts >= 2,
      );
      expect(d).toMatchObject({ type: "order.created", lastStatus: null, deliveredAt: null });
      expect(d!.lastError).toMatch(/^destination refused: localhost resolves to (127\.0\.0\.1|::1): .* loopback address/);
      expect(receiver.received).toEqual([]);
    } finally {
      await prisma.$disconnect();
      await receiver.close();
    }
  });
});
