/** Web Push's pure rules (decision 0053): which endpoints, which contact, retries within the window, the words. */
import { describe, expect, it } from "vitest";
import { contactProblem, endpointProblem, parsePushServices } from "@/lib/core/push/push-services";
import { parseRetryAfter, PUSH_WINDOW_SECONDS, pushOutcomeOf, ttlSeconds } from "@/lib/core/push/push-retry";
import { pushPayload, pushTopic } from "@/lib/core/push/push-payload";
import { subscriptionSchema } from "@/lib/core/push/push-subscriptions";

describe("endpointProblem", () => {
  it.each([
    "https://fcm.googleapis.com/fcm/send/abc:def",
    "https://android.googleapis.com/gcm/send/x",
    "https://updates.push.services.mozilla.com/wpush/v2/gAAA",
    "https://web.push.apple.com/QGx",
    "https://api.push.apple.com/3/device/x",
    "https://db5p.notify.windows.com/w/?token=abc",
  ])("allows the browsers' push service %s", (e) => expect(endpointProblem(e)).toBeNull());

  it.each([
    ["http://fcm.googleapis.com/fcm/send/x", /https/],
    ["https://fcm.googleapis.com.evil.example/x", /not a known push service/],
    ["https://evilfcm.googleapis.com/x", /not a known push service/],
    ["https://push.apple.com/x", /not a known push service/],
    ["https://notapush.apple.com/x", /not a known push service/],
    ["https://x.notify.windows.com:8443/x", /not a known push service/],
    ["https://fcm.googleapis.com:444/x", /not a known push service/],
    ["https://user:pw@fcm.googleapis.com/x", /user name/],
    ["http://127.0.0.1:4567/p", /https/],
    ["not a url", /not a URL/],
    [`https://fcm.googleapis.com/${"a".repeat(1100)}`, /longer/],
  ])("refuses %s", (e, why) => expect(endpointProblem(e)).toMatch(why));

  it("allows an origin named in PUSH_SERVICES exactly (http too), and no other port or host", () => {
    const extra = ["http://127.0.0.1:4567"];
    expect(endpointProblem("http://127.0.0.1:4567/sub/1", extra)).toBeNull();
    expect(endpointProblem("http://127.0.0.1:4568/sub/1", extra)).toMatch(/https/);
    expect(endpointProblem("https://127.0.0.1:4567/sub/1", extra)).toMatch(/not a known/);
  });

  it("parses PUSH_SERVICES and names a bad entry", () => {
    expect(parsePushServices("http://127.0.0.1:4567, https://push.example.com/")).toEqual({ origins: ["http://127.0.0.1:4567", "https://push.example.com"] });
    expect(parsePushServices(undefined)).toEqual({ origins: [] });
    expect(parsePushServices("https://push.example.com/path")).toEqual({ error: expect.stringContaining("push.example.com/path") });
    expect(parsePushServices("ftp://x")).toHaveProperty("error");
  });
});

describe("contactProblem (PUSH_CONTACT)", () => {
  it.each(["mailto:ops@example.com", "https://example.com/contact"])("takes %s", (c) => expect(contactProblem(c)).toBeNull());
  it.each([
    ["mailto:me@localhost", /local/],
    ["mailto:ops@shop.local", /local/],
    ["https://localhost/", /local/],
    ["https://127.0.0.1/", /local/],
    ["http://example.com", /mailto: or https:/],
    ["ops@example.com", /mailto: or https:/],
    ["mailto:ops", /no domain/],
  ])("refuses %s", (c, why) => expect(contactProblem(c)).toMatch(why));
});

describe("retries within the 30-minute window", () => {
  const since = new Date("2026-12-02T10:00:00Z");
  const at = (s: number) => new Date(since.getTime() + s * 1000);

  it("the TTL is what is left of 1800 s, never more, never negative", () => {
    expect(ttlSeconds(since, since)).toBe(PUSH_WINDOW_SECONDS);
    expect(ttlSeconds(since, at(-60))).toBe(1800);
    expect(ttlSeconds(since, at(600))).toBe(1200);
    expect(ttlSeconds(since, at(1800))).toBe(0);
    expect(ttlSeconds(since, at(5000))).toBe(0);
  });

  it("2xx delivered, 404/410 gone, 400/401/403/413 given up", () => {
    expect(pushOutcomeOf({ status: 201 }, 1, since, at(1)).outcome).toBe("delivered");
    for (const s of [404, 410]) expect(pushOutcomeOf({ status: s }, 1, since, at(1))).toEqual({ outcome: "gone", nextAt: null });
    for (const s of [400, 401, 403, 413]) expect(pushOutcomeOf({ status: s }, 1, since, at(1))).toEqual({ outcome: "gave_up", nextAt: null });
  });

  it("429, 5xx and no answer retry with a doubling backoff", () => {
    const r = () => 0;
    expect(pushOutcomeOf({ status: 500 }, 1, since, at(10), r)).toEqual({ outcome: "retrying", nextAt: at(11) });
    expect(pushOutcomeOf({ status: null }, 3, since, at(10), r)).toEqual({ outcome: "retrying", nextAt: at(14) });
    expect(pushOutcomeOf({ status: 429 }, 2, since, at(10), r)).toEqual({ outcome: "retrying", nextAt: at(12) });
  });

  it("honours Retry-After when longer than the backoff", () => {
    expect(pushOutcomeOf({ status: 429, retryAfterSeconds: 120 }, 1, since, at(10), () => 0).nextAt).toEqual(at(130));
  });

  it("gives up (expired) when the next try would land past the window", () => {
    expect(pushOutcomeOf({ status: 503 }, 1, since, at(1799.5), () => 0)).toEqual({ outcome: "expired", nextAt: null });
    expect(pushOutcomeOf({ status: 429, retryAfterSeconds: 900 }, 1, since, at(1000), () => 0)).toEqual({ outcome: "expired", nextAt: null });
    // Many failures: the doubling alone runs past the window.
    expect(pushOutcomeOf({ status: 500 }, 12, since, at(10), () => 0).outcome).toBe("expired");
  });

  it("reads Retry-After as seconds or an HTTP date", () => {
    const now = new Date("2026-12-02T10:00:00Z");
    expect(parseRetryAfter("30", now)).toBe(30);
    expect(parseRetryAfter("Wed, 02 Dec 2026 10:01:00 GMT", now)).toBe(60);
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });
});

describe("the payload", () => {
  const base = { restaurant: "Noodle Bar", slug: "noodle", orderId: "0b6c3d0e-1111-4222-8333-944455556666", prefix: "K", number: 12 };
  it("names the restaurant and the number as the board shows it, with the order's page", () => {
    expect(pushPayload({ ...base, kind: "ready", lang: "en" })).toEqual({
      title: "Noodle Bar",
      body: "Your order K12 is ready",
      url: "/noodle/o/0b6c3d0e-1111-4222-8333-944455556666",
      tag: "order-0b6c3d0e-1111-4222-8333-944455556666",
      number: "K12",
    });
    expect(pushPayload({ ...base, kind: "again", lang: "en" }).body).toBe("Number K12 is being called again — please collect it");
  });
  it("in Chinese for a zh-CN subscription; an unknown language falls back to English", () => {
    expect(pushPayload({ ...base, kind: "ready", lang: "zh-CN" }).body).toBe("您的 K12 号已备好，请取餐");
    expect(pushPayload({ ...base, kind: "again", lang: "zh-CN" }).body).toBe("K12 号再次叫号，请尽快取餐");
    expect(pushPayload({ ...base, kind: "ready", lang: "fr", prefix: "" }).body).toBe("Your order 12 is ready");
  });
  it("the Topic is the order's id without dashes: 32 base64url-safe characters", () => {
    expect(pushTopic(base.orderId)).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe("the subscription body", () => {
  const p256dh = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]).toString("base64url");
  const auth = Buffer.alloc(16, 1).toString("base64url");
  it("takes PushSubscription.toJSON()", () => {
    expect(subscriptionSchema.safeParse({ endpoint: "https://fcm.googleapis.com/x", expirationTime: null, keys: { p256dh, auth } }).success).toBe(true);
  });
  it("refuses keys of the wrong length or kind, and unknown fields", () => {
    const bad = [
      { endpoint: "https://x", keys: { p256dh: p256dh.slice(2), auth } },
      { endpoint: "https://x", keys: { p256dh: Buffer.alloc(65, 2).toString("base64url"), auth } },
      { endpoint: "https://x", keys: { p256dh, auth: Buffer.alloc(15).toString("base64url") } },
      { endpoint: "https://x", keys: { p256dh, auth: "not base64!" } },
      { endpoint: "https://x", keys: { p256dh, auth }, extra: 1 },
      { endpoint: "https://x" },
    ];
    for (const b of bad) expect(subscriptionSchema.safeParse(b).success, JSON.stringify(b)).toBe(false);
  });
});
