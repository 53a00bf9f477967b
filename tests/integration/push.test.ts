/**
 * Web Push end to end (decision 0053): real app servers, PostgreSQL, Redis, and a push
 * service stand-in on 127.0.0.1 that checks the VAPID JWT and decrypts every payload with
 * the subscriber's keys. The key endpoint; subscribing (validation, the limit under parallel
 * posts); a push per subscription when an order is made ready and when it is called again;
 * 410 deletes the subscription; 500 is retried; the metrics count it; two nodes send each push once.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrisma } from "@/lib/adapters/postgres/prisma.server";
import { prunePush } from "@/lib/adapters/postgres/push-queue.server";
import { recentPushes } from "@/lib/adapters/postgres/push-store.server";
import { createTestDatabase, type TestDatabase } from "../support/db";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { type Api, apiClient, expectApiError, expectStatus, type OrderJson, UUID } from "../support/http";
import { SHARED_SERVER_ENV, startAppServer, testKeyPrefix, type AppServer } from "../support/app-server";
import { PushServiceStandIn, type Subscriber, pushJobsLeft } from "../support/push-service";
import { eventually } from "../support/until";

const CONTACT = "mailto:ops@example.com";
const METRICS_TOKEN = randomBytes(16).toString("hex");
const OFF_MESSAGE = "Push notifications are off on this server (PUSH_CONTACT is not set).";
const org = (slug: string, rest: string) => `/api/v1/orgs/${slug}/${rest}`;

let db: TestDatabase;
let prisma: ReturnType<typeof createPrisma>;
let push: PushServiceStandIn;
let a: AppServer;
let b: AppServer | null = null;
let off: AppServer;
let call: Api;
let t: Record<"main" | "other", TestTenant>;
const keyPrefix = testKeyPrefix("push");
const sessionSecret = randomBytes(32).toString("hex");

const startNode = () =>
  startAppServer({
    databaseUrl: db.url,
    keyPrefix,
    env: { ...SHARED_SERVER_ENV, SESSION_SECRET: sessionSecret, PUSH_CONTACT: CONTACT, PUSH_SERVICES: push.origin, METRICS_TOKEN },
  });

beforeAll(async () => {
  db = await createTestDatabase("push");
  prisma = createPrisma(db.url, { max: 2 });
  const slugs = { main: uniqueSlug("push-main"), other: uniqueSlug("push-other") };
  const made = await provisionTenants(db.url, [stableDaySpec(slugs.main, "Noodle Bar"), stableDaySpec(slugs.other, "Tea House")]);
  t = { main: made[slugs.main]!, other: made[slugs.other]! };
  push = await PushServiceStandIn.start(CONTACT);
  [a, off] = await Promise.all([
    startNode(),
    // Push off (no PUSH_CONTACT); another database, so its workers never take this one's jobs.
    createTestDatabase("push-off").then(async (offDb) => {
      await provisionTenants(offDb.url, [stableDaySpec(slugs.main, "Noodle Bar")]);
      const s = await startAppServer({ databaseUrl: offDb.url, keyPrefix: testKeyPrefix("push-off"), env: { ...SHARED_SERVER_ENV } });
      const stop = s.stop.bind(s);
      s.stop = async (signal) => {
        const code = await stop(signal);
        await offDb.drop();
        return code;
      };
      return s;
    }),
  ]);
  call = apiClient(a.url);
}, 120_000);

afterAll(async () => {
  await Promise.allSettled([a?.stop(), b?.stop(), off?.stop()]);
  await push?.close();
  await prisma?.$disconnect();
  await db?.drop();
});

async function newOrder(tenant: TestTenant, via: Api = call): Promise<OrderJson> {
  return expectStatus(
    await via<OrderJson>("POST", org(tenant.slug, "orders"), { key: tenant.apiKeys.cashier, json: { items: [{ name: "Noodles", qty: 1 }] } }),
    201,
  );
}
const subscribe = (tenant: TestTenant, orderId: string, body: unknown, query = "", via: Api = call) =>
  via<{ id: string }>("POST", org(tenant.slug, `orders/${orderId}/subscriptions${query}`), { json: body });
const asBody = (s: Subscriber) => ({ endpoint: s.endpoint, expirationTime: null, keys: s.keys });
const move = async (tenant: TestTenant, id: string, status: string, via: Api = call) =>
  expectStatus(await via<OrderJson>("POST", org(tenant.slug, `orders/${id}/status`), { key: tenant.apiKeys.kitchen, json: { status } }), 200);

describe("the key", () => {
  it("is a 65-byte uncompressed P-256 point, the same on every request; 404 while push is off", async () => {
    const res = await call<{ publicKey: string }>("GET", "/api/v1/push/key");
    const { publicKey } = expectStatus(res, 200);
    const point = Buffer.from(publicKey, "base64url");
    expect(point.length).toBe(65);
    expect(point[0]).toBe(4);
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    expect(expectStatus(await call<{ publicKey: string }>("GET", "/api/v1/push/key"), 200).publicKey).toBe(publicKey);
    const refused = expectApiError(await apiClient(off.url)("GET", "/api/v1/push/key"), 404, "NOT_FOUND");
    expect(refused.message).toBe(OFF_MESSAGE);
  });
});

describe("push off", () => {
  it("another SESSION_SECRET cannot open the stored key: push off with an error in the log, no new key", async () => {
    const before = await prisma.pushKey.findUniqueOrThrow({ where: { id: 1 } });
    const other = await startAppServer({
      databaseUrl: db.url,
      keyPrefix,
      env: { ...SHARED_SERVER_ENV, SESSION_SECRET: randomBytes(32).toString("hex"), PUSH_CONTACT: CONTACT, PUSH_SERVICES: push.origin, SCHEDULER: "off" },
    });
    try {
      expectApiError(await apiClient(other.url)("GET", "/api/v1/push/key"), 404, "NOT_FOUND");
      expect(other.output()).toMatch(/VAPID private key in PushKey cannot be opened with this SESSION_SECRET/);
      expect((await prisma.pushKey.findUniqueOrThrow({ where: { id: 1 } })).publicKey).toBe(before.publicKey);
    } finally {
      await other.stop();
    }
  });

  it("a local contact (Apple refuses it) turns push off with a start-up warning naming it; the server runs", async () => {
    const local = await startAppServer({
      databaseUrl: db.url,
      keyPrefix,
      env: { ...SHARED_SERVER_ENV, SESSION_SECRET: sessionSecret, PUSH_CONTACT: "mailto:me@shop.local", PUSH_SERVICES: push.origin, SCHEDULER: "off" },
    });
    try {
      expect(expectApiError(await apiClient(local.url)("GET", "/api/v1/push/key"), 404, "NOT_FOUND").message).toBe(OFF_MESSAGE);
      expect(local.output()).toMatch(/PUSH_CONTACT is invalid: customer push notifications are off/);
      expect(local.output()).toContain("mailto:me@shop.local");
    } finally {
      await local.stop();
    }
  });
});

describe("subscribing", () => {
  it("refuses endpoints that are not push services, bad keys, unknown and finished orders; push off is 404", async () => {
    const order = await newOrder(t.main);
    const sub = push.subscriber();
    const bad = [
      { ...asBody(sub), endpoint: "https://attacker.example.com/collect" },
      { ...asBody(sub), endpoint: "http://fcm.googleapis.com/fcm/send/x" },
      { ...asBody(sub), endpoint: push.origin.replace(/:(\d+)$/, (_m, p: string) => `:${Number(p) + 1}`) + "/push/x" },
      { ...asBody(sub), keys: { ...sub.keys, p256dh: sub.keys.p256dh.slice(4) } },
      { ...asBody(sub), keys: { ...sub.keys, auth: "short" } },
      { endpoint: sub.endpoint },
    ];
    for (const body of bad) expectApiError(await subscribe(t.main, order.id, body), 400, "BAD_INPUT");
    const why = expectApiError(await subscribe(t.main, order.id, { ...asBody(sub), endpoint: "https://attacker.example.com/collect" }), 400, "BAD_INPUT");
    expect(why.message).toMatch(/not a known push service/);

    expectApiError(await subscribe(t.main, randomUUID(), asBody(sub)), 404, "NOT_FOUND");
    expectApiError(await subscribe(t.main, "not-an-id", asBody(sub)), 404, "NOT_FOUND");
    // Another restaurant's order is unknown here.
    expectApiError(await subscribe(t.other, order.id, asBody(sub)), 404, "NOT_FOUND");

    await move(t.main, order.id, "READY");
    await move(t.main, order.id, "COLLECTED");
    const finished = expectApiError(await subscribe(t.main, order.id, asBody(sub)), 409, "CONFLICT");
    expect(finished.message).toMatch(/^This order is finished;/);

    const offRefusal = expectApiError(
      await apiClient(off.url)("POST", org(t.main.slug, `orders/${randomUUID()}/subscriptions`), { json: asBody(sub) }),
      404,
      "NOT_FOUND",
    );
    expect(offRefusal.message).toBe(OFF_MESSAGE);
  });

  it("both routes count against the public limit per address, before anything is looked up", async () => {
    const unknownSlug = await call("POST", org("no-such-restaurant", `orders/${randomUUID()}/subscriptions`), { json: asBody(push.subscriber()) });
    expectApiError(unknownSlug, 404, "NOT_FOUND");
    const key = await call("GET", "/api/v1/push/key");
    for (const res of [unknownSlug, key]) {
      expect(res.headers.get("ratelimit-policy")).toBe(`"public";q=${SHARED_SERVER_ENV.PUBLIC_REQUESTS_PER_MINUTE};w=60`);
      expect(res.headers.get("ratelimit")).toMatch(/^"public";r=\d+;t=\d+$/);
    }
  });

  it("the same endpoint again updates its keys under the same id; at most 5 per order, even posted in parallel", async () => {
    const order = await newOrder(t.main);
    const first = push.subscriber();
    const created = await subscribe(t.main, order.id, asBody(first));
    const { id } = expectStatus(created, 201);
    expect(id).toMatch(UUID);
    const again = push.subscriber();
    const same = await subscribe(t.main, order.id, { ...asBody(first), keys: again.keys });
    expect(expectStatus(same, 200).id).toBe(id);
    const stored = await prisma.pushSubscription.findUniqueOrThrow({ where: { id } });
    expect(stored.p256dh).toBe(again.keys.p256dh);

    const answers = await Promise.all(Array.from({ length: 8 }, () => subscribe(t.main, order.id, asBody(push.subscriber()))));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 201, 201, 409, 409, 409, 409]);
    for (const r of answers.filter((x) => x.status === 409)) expect(expectApiError(r, 409, "CONFLICT").message).toMatch(/5 devices/);
    expect(await prisma.pushSubscription.count({ where: { orderId: order.id } })).toBe(5);
  });
});

describe("delivery", () => {
  it("made ready: one push per subscription, signed and encrypted, in its language; called again: one more", async () => {
    const order = await newOrder(t.main);
    const en = push.subscriber();
    const zh = push.subscriber();
    expectStatus(await subscribe(t.main, order.id, asBody(en)), 201);
    expectStatus(await subscribe(t.main, order.id, asBody(zh), "?lang=zh-CN"), 201);
    const readyAt = Date.now();
    await move(t.main, order.id, "READY");
    await push.until(() => push.to(en.path).length === 1 && push.to(zh.path).length === 1, "one push to each");
    const display = order.display;
    const [p] = push.to(en.path);
    expect(p!.problems).toEqual([]);
    expect(p!.payload).toEqual({
      title: "Noodle Bar",
      body: `Your order ${display} is ready`,
      url: `/${t.main.slug}/o/${order.id}`,
      tag: `order-${order.id}`,
      number: display,
    });
    expect(p!.headers.topic).toBe(order.id.replace(/-/g, ""));
    expect(Number(p!.headers.ttl)).toBeGreaterThan(1800 - (Date.now() - readyAt) / 1000 - 5);
    expect(Number(p!.headers.ttl)).toBeLessThanOrEqual(1800);
    const [q] = push.to(zh.path);
    expect(q!.problems).toEqual([]);
    expect(q!.payload).toMatchObject({ title: "Noodle Bar", body: `您的 ${display} 号已备好，请取餐`, number: display });

    expectStatus(await call("POST", org(t.main.slug, `orders/${order.id}/call`), { key: t.main.apiKeys.kitchen }), 200);
    await push.until(() => push.to(en.path).length === 2 && push.to(zh.path).length === 2, "a second push to each");
    expect(push.to(en.path)[1]!.payload).toMatchObject({ body: `Number ${display} is being called again — please collect it` });
    expect(push.to(zh.path)[1]!.payload).toMatchObject({ body: `${display} 号再次叫号，请尽快取餐` });
    expect(push.to(en.path)[1]!.problems).toEqual([]);

    // Nothing more: every delivery of the order is finished, delivered.
    const rows = await eventually(
      "deliveries finished",
      () => prisma.pushDelivery.findMany({ where: { orderId: order.id } }),
      (r) => r.every((d) => d.outcome !== null),
    );
    expect(rows.map((d) => [d.kind, d.outcome, d.attempts]).sort()).toEqual([
      ["again", "delivered", 1],
      ["again", "delivered", 1],
      ["ready", "delivered", 1],
      ["ready", "delivered", 1],
    ]);
    expect(push.to(en.path).length + push.to(zh.path).length).toBe(4);
  });

  it("a browser subscribing while the order is already ready gets the ready push", async () => {
    const order = await newOrder(t.main);
    await move(t.main, order.id, "READY");
    const late = push.subscriber();
    expectStatus(await subscribe(t.main, order.id, asBody(late)), 201);
    await push.until(() => push.to(late.path).length === 1, "the late subscriber's push", 15_000);
    expect(push.to(late.path)[0]!.payload).toMatchObject({ body: expect.stringMatching(/is ready$/) });
  });

  it("410 deletes the subscription and is not retried; 500 then 201 is retried and delivered", async () => {
    const order = await newOrder(t.main);
    const gone = push.subscriber();
    const flaky = push.subscriber();
    push.answer(gone.path, [410]);
    push.answer(flaky.path, [500, { status: 503, retryAfter: "1" }]);
    const { id: goneId } = expectStatus(await subscribe(t.main, order.id, asBody(gone)), 201);
    expectStatus(await subscribe(t.main, order.id, asBody(flaky)), 201);
    await move(t.main, order.id, "READY");
    await push.until(() => push.to(flaky.path).length === 3, "500, 503, then 201", 30_000);
    expect(push.to(flaky.path).map((r) => r.status)).toEqual([500, 503, 201]);
    expect(push.to(flaky.path).every((r) => r.problems.length === 0)).toBe(true);
    // Retry-After: 1 was honoured (at least a second between the 503 and the next try).
    expect(push.to(flaky.path)[2]!.at - push.to(flaky.path)[1]!.at).toBeGreaterThanOrEqual(900);
    await eventually(
      "the gone subscription deleted",
      () => prisma.pushSubscription.count({ where: { id: goneId } }),
      (n) => n === 0,
    );
    expect(push.to(gone.path).map((r) => r.status)).toEqual([410]);
    const flakyRow = await eventually(
      "the flaky delivery delivered",
      () => prisma.pushDelivery.findFirst({ where: { orderId: order.id } }),
      (d) => d?.outcome === "delivered",
    );
    expect(flakyRow!.attempts).toBe(3);
    // A call again reaches only the one left.
    expectStatus(await call("POST", org(t.main.slug, `orders/${order.id}/call`), { key: t.main.apiKeys.kitchen }), 200);
    await push.until(() => push.to(flaky.path).length === 4, "the call again");
    expect(push.to(gone.path).length).toBe(1);

    const metrics = await (await fetch(`${a.url}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    const count = (outcome: string) => Number(new RegExp(`^nextup_push_sends_total\\{outcome="${outcome}"\\} (\\d+)`, "m").exec(metrics)?.[1] ?? NaN);
    expect(count("gone")).toBeGreaterThanOrEqual(1);
    expect(count("retrying")).toBeGreaterThanOrEqual(2);
    expect(count("delivered")).toBeGreaterThanOrEqual(2);
    expect(metrics).toMatch(/^nextup_push_enabled 1$/m);
  });

  it("a pending push of an order collected meanwhile is skipped, not sent", async () => {
    const order = await newOrder(t.other);
    const s = push.subscriber();
    expectStatus(await subscribe(t.other, order.id, asBody(s)), 201);
    push.answer(s.path, [500]);
    await move(t.other, order.id, "READY");
    await push.until(() => push.to(s.path).length === 1, "the first (failed) push");
    await move(t.other, order.id, "COLLECTED");
    const row = await eventually(
      "the retry skipped",
      () => prisma.pushDelivery.findFirst({ where: { orderId: order.id } }),
      (d) => d?.outcome === "skipped",
    );
    expect(row!.attempts).toBe(1);
    expect(push.to(s.path).length).toBe(1);
  });

  it("a refused push (403) is given up, not retried, and the restaurant's recent figures say so", async () => {
    const order = await newOrder(t.other);
    const s = push.subscriber();
    push.answer(s.path, [403]);
    expectStatus(await subscribe(t.other, order.id, asBody(s)), 201);
    await move(t.other, order.id, "READY");
    const recent = await eventually(
      "the failure counted",
      () => recentPushes(prisma, t.other.id),
      (r) => r.failed >= 1,
    );
    expect(recent.lastError).toBe("the push service answered 403");
    expect(recent.lastErrorAt).toBeInstanceOf(Date);
    expect(push.to(s.path).map((r) => r.status)).toEqual([403]);
    const row = await prisma.pushDelivery.findFirstOrThrow({ where: { orderId: order.id } });
    expect([row.outcome, row.attempts, row.lastStatus]).toEqual(["gave_up", 1, 403]);
  });

  it("two nodes: each push is sent once, all signed with the one key", async () => {
    b = await startNode();
    const viaB = apiClient(b.url);
    const subs: Subscriber[] = [];
    for (let i = 0; i < 12; i++) {
      const via = i % 2 === 0 ? call : viaB;
      const order = await newOrder(t.main, via);
      const s = push.subscriber();
      subs.push(s);
      expectStatus(await subscribe(t.main, order.id, asBody(s), "", via), 201);
      await move(t.main, order.id, "READY", i % 3 === 0 ? viaB : call);
    }
    await push.until(() => subs.every((s) => push.to(s.path).length >= 1), "a push to each of 12");
    await eventually(
      "every push job done",
      () => pushJobsLeft(prisma),
      (n) => n === 0,
    );
    expect(subs.map((s) => push.to(s.path).length)).toEqual(subs.map(() => 1));
    const keys = new Set(subs.map((s) => /k=(\S+)$/.exec(String(push.to(s.path)[0]!.headers.authorization))![1]));
    expect(keys.size).toBe(1);
    expect(subs.flatMap((s) => push.to(s.path)[0]!.problems)).toEqual([]);
  });
});

describe("the stand-in", () => {
  it("finds a forged signature, a wrong audience and a body it cannot decrypt", async () => {
    const s = push.subscriber();
    const { generateKeyPairSync } = await import("node:crypto");
    const { SignJWT } = await import("jose");
    const { privateKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
    const other = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
    const jwk = other.publicKey.export({ format: "jwk" });
    const k = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, "base64url"), Buffer.from(jwk.y!, "base64url")]).toString("base64url");
    const jwt = (aud: string, key = privateKey) =>
      new SignJWT({ sub: CONTACT }).setProtectedHeader({ alg: "ES256", typ: "JWT" }).setAudience(aud).setExpirationTime("1h").sign(key);
    const send = async (authorization: string) =>
      fetch(s.endpoint, {
        method: "POST",
        headers: { authorization, ttl: "60", urgency: "high", topic: "t", "content-encoding": "aes128gcm" },
        body: "plain text",
      });
    await send(`vapid t=${await jwt(push.origin)}, k=${k}`);
    await send(`vapid t=${await jwt("https://elsewhere.example", other.privateKey)}, k=${k}`);
    await push.until(() => push.to(s.path).length === 2, "two forged pushes");
    const [forged, wrongAud] = push.to(s.path);
    expect(forged!.problems.join(" ")).toMatch(/VAPID: .*signature/i);
    expect(wrongAud!.problems.join(" ")).toMatch(/VAPID: .*aud/i);
    expect(forged!.problems.join(" ")).toMatch(/cannot decrypt/);
  });
});

describe("the table does not grow forever", () => {
  it("subscriptions of orders finished over a day ago are deleted with their deliveries; recent ones stay", async () => {
    const [old, recent] = [await newOrder(t.other), await newOrder(t.other)];
    const [s1, s2] = [push.subscriber(), push.subscriber()];
    expectStatus(await subscribe(t.other, old.id, asBody(s1)), 201);
    expectStatus(await subscribe(t.other, recent.id, asBody(s2)), 201);
    for (const o of [old, recent]) await move(t.other, o.id, "READY");
    await push.until(() => push.to(s1.path).length === 1 && push.to(s2.path).length === 1, "both ready pushes");
    for (const o of [old, recent]) await move(t.other, o.id, "COLLECTED");
    await prisma.$executeRaw`UPDATE "Order" SET "collectedAt" = now() - interval '25 hours' WHERE id = ${old.id}::uuid`;
    expect(await prunePush(prisma)).toBeGreaterThanOrEqual(1);
    expect(await prisma.pushSubscription.count({ where: { orderId: old.id } })).toBe(0);
    expect(await prisma.pushDelivery.count({ where: { orderId: old.id } })).toBe(0);
    expect(await prisma.pushSubscription.count({ where: { orderId: recent.id } })).toBe(1);
  });
});
