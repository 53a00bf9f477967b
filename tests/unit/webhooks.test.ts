import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import { createServer as netServer } from "node:net";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { describe, expect, it, vi } from "vitest";
import { addressCheck, addressRefusal, ipLiteral, linkLocalEntryProblem, urlProblem, type DestinationPolicy } from "@/lib/core/webhooks/destination";
import { MAX_ATTEMPTS, outcomeOf, retryDelayMs } from "@/lib/core/webhooks/retry";
import { orderCleared, orderCreated, orderEventDataSchema, orderMoved, shiftStarted, webhookBody } from "@/lib/core/webhooks/events";
import { orderJson } from "@/lib/core/order-json";
import { WEBHOOK_DEFER_MS, WebhookDispatcher } from "@/lib/core/webhooks/dispatcher";
import { WebhookService } from "@/lib/core/webhooks/webhook-service";
import { isAppError } from "@/lib/core/errors";
import type { Tenant } from "@/lib/core/tenants";
import type { Order } from "@/lib/core/orders";
import { createHttpSender, NO_HTTP_ANSWER, signatureHeaders } from "@/lib/adapters/webhooks/http-sender.server";
import { generateWebhookSecret, SecretCipher } from "@/lib/auth/webhook-secrets.server";
import type { DeliveryLedger, DueDelivery, WebhookSender, WebhookStore } from "@/lib/core/ports";

const strict = { allowPrivate: false };
const lan = { allowPrivate: true };

describe("destinations (SSRF)", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["10.0.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.0.1", "private"],
    ["169.254.169.254", "metadata"],
    ["169.254.1.1", "link-local"],
    ["0.0.0.0", "unspecified"],
    ["255.255.255.255", "broadcast"],
    ["224.0.0.251", "multicast"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["192.0.2.1", "special-purpose"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fd12:3456::1", "unique-local"],
    ["fe80::1", "link-local"],
    ["ff02::1", "multicast"],
    ["::ffff:127.0.0.1", "IPv4-mapped"],
    ["::ffff:8.8.8.8", "IPv4-mapped"],
    ["64:ff9b::7f00:1", "special-purpose"],
    ["2002:7f00:1::1", "special-purpose"],
  ])("refuses %s by default (%s)", (ip, why) => {
    expect(addressRefusal(ip, strict)).toContain(why);
  });

  it.each(["93.184.215.14", "8.8.8.8", "2606:4700:4700::1111"])("allows the public address %s", (ip) => {
    expect(addressRefusal(ip, strict)).toBeNull();
  });

  it("with WEBHOOKS_ALLOW_PRIVATE allows a restaurant's network, never metadata, multicast, unspecified or mapped addresses", () => {
    for (const ip of ["127.0.0.1", "10.1.2.3", "192.168.1.20", "100.64.0.1", "fd00::5", "fe80::1", "::1"]) expect(addressRefusal(ip, lan), ip).toBeNull();
    for (const ip of ["169.254.169.254", "fd00:ec2::254", "0.0.0.0", "224.0.0.1", "::ffff:10.0.0.1", "255.255.255.255"])
      expect(addressRefusal(ip, lan), ip).not.toBeNull();
  });

  it("cloud metadata stays refused under WEBHOOKS_ALLOW_PRIVATE: 169.254.0.0/16 but what the operator names, fd00:ec2::/32, 100.100.100.200", () => {
    // The finding: all four were accepted with WEBHOOKS_ALLOW_PRIVATE=true.
    for (const ip of ["169.254.170.23", "fd00:ec2::23", "100.100.100.200", "169.254.169.253", "169.254.0.23", "169.254.3.4", "168.63.129.16"]) {
      expect(addressCheck(ip, lan)?.kind, ip).toMatch(/^(metadata|linkLocal)$/);
      expect(addressCheck(ip, strict)?.kind, ip).toMatch(/^(metadata|linkLocal)$/);
    }
    expect(addressCheck("169.254.170.23", lan)).toEqual({ kind: "metadata", reason: "169.254.170.23 is a cloud metadata address" });
    expect(addressCheck("169.254.3.4", lan)?.kind).toBe("linkLocal");
    // The operator may name link-local addresses (with allowPrivate); the credential services never.
    const named = { allowPrivate: true, allowLinkLocal: ["169.254.3.4", "169.254.169.0/24"] };
    expect(addressRefusal("169.254.3.4", named)).toBeNull();
    expect(addressRefusal("169.254.169.253", named)).toBeNull();
    expect(addressCheck("169.254.169.254", named)?.kind).toBe("metadata");
    expect(addressCheck("169.254.3.5", named)?.kind).toBe("linkLocal");
    expect(addressCheck("169.254.3.4", { ...named, allowPrivate: false })?.kind).toBe("linkLocal");
  });

  it("names what an operator may not allow by name", () => {
    expect(linkLocalEntryProblem("169.254.7.20")).toBeNull();
    expect(linkLocalEntryProblem("169.254.7.0/24")).toBeNull();
    expect(linkLocalEntryProblem("169.254.169.254")).toMatch(/credentials/);
    expect(linkLocalEntryProblem("169.254.170.23")).toMatch(/credentials/);
    expect(linkLocalEntryProblem("10.0.0.1")).toMatch(/not inside 169\.254\.0\.0\/16/);
    expect(linkLocalEntryProblem("169.0.0.0/8")).toMatch(/not inside/);
    expect(linkLocalEntryProblem("fe80::1")).toMatch(/not an IPv4 address/);
    expect(linkLocalEntryProblem("printer")).toMatch(/not an IPv4 address/);
  });

  it("reads IP literals from URLs, however they are written", () => {
    expect(ipLiteral(new URL("https://127.1/x"))).toBe("127.0.0.1");
    expect(ipLiteral(new URL("https://0x7f000001/x"))).toBe("127.0.0.1");
    expect(ipLiteral(new URL("https://[::ffff:127.0.0.1]/x"))).toBe("::ffff:7f00:1");
    expect(ipLiteral(new URL("https://pos.example.com/x"))).toBeNull();
  });

  it("checks the form of a URL: https (http only on a restaurant's network), no credentials or fragment", () => {
    expect(urlProblem("https://pos.example.com/hook?x=1", strict)).toBeNull();
    expect(urlProblem("http://pos.example.com/hook", strict)).toMatch(/https/);
    expect(urlProblem("http://192.168.1.5:8080/hook", lan)).toBeNull();
    expect(urlProblem("ftp://pos.example.com/", lan)).toMatch(/https/);
    expect(urlProblem("https://u:p@pos.example.com/", strict)).toMatch(/user name or password/);
    expect(urlProblem("https://pos.example.com/#x", strict)).toMatch(/fragment/);
    expect(urlProblem("pos.example.com", strict)).toMatch(/absolute/);
    expect(urlProblem(`https://pos.example.com/${"a".repeat(2_000)}`, strict)).toMatch(/at most/);
  });
});

describe("the retry schedule", () => {
  it("the schedule api.md states: 15 attempts, delays adding up to 22.75–25.03 hours with the jitter", () => {
    const total = (r: number) => Array.from({ length: MAX_ATTEMPTS - 1 }, (_, i) => retryDelayMs(i + 1, 5_000, () => r)!).reduce((a, b) => a + b, 0);
    expect(total(0)).toBe(81_915_000); // 22.75 h
    expect(total(0.999_999)).toBeLessThanOrEqual(90_106_500); // 25.03 h
    expect(retryDelayMs(2, 5_000, () => 0.999_999)).toBe(11_000);
  });

  it("doubles from the base, first retries within seconds, and gives up after about a day", () => {
    const delays = Array.from({ length: MAX_ATTEMPTS - 1 }, (_, i) => retryDelayMs(i + 1, 5_000, () => 0)!);
    expect(delays.slice(0, 4)).toEqual([5_000, 10_000, 20_000, 40_000]);
    expect(retryDelayMs(MAX_ATTEMPTS, 5_000)).toBeNull();
    const lastAttemptAfterHours = delays.reduce((a, b) => a + b, 0) / 3_600_000;
    expect(lastAttemptAfterHours).toBeGreaterThan(20);
    expect(lastAttemptAfterHours * 1.1).toBeLessThan(26); // with the largest jitter too
  });

  it("adds at most 10 % jitter", () => {
    expect(retryDelayMs(3, 1_000, () => 0.999)).toBeLessThanOrEqual(4_400);
    expect(retryDelayMs(3, 1_000, () => 0.999)).toBeGreaterThan(4_000);
  });

  it("a 2xx delivers; anything else retries while attempts are left, then gives up", () => {
    const now = new Date("2026-11-23T10:00:00Z");
    expect(outcomeOf({ status: 204, error: null }, 1, 5_000, now)).toEqual({ outcome: "delivered", nextAttemptAt: null });
    expect(outcomeOf({ status: 302, error: "HTTP 302" }, 1, 5_000, now, () => 0)).toEqual({
      outcome: "retrying",
      nextAttemptAt: new Date("2026-11-23T10:00:05Z"),
    });
    expect(outcomeOf({ status: null, error: "connection refused" }, 2, 5_000, now, () => 0)).toEqual({
      outcome: "retrying",
      nextAttemptAt: new Date("2026-11-23T10:00:10Z"),
    });
    expect(outcomeOf({ status: 500, error: "HTTP 500" }, MAX_ATTEMPTS, 5_000, now)).toEqual({ outcome: "gave_up", nextAttemptAt: null });
  });
});

const order: Order = {
  id: "7d4c0000-0000-4000-8000-000000000001",
  tenantId: "t",
  businessDay: "2026-11-23",
  shift: 1,
  number: 42,
  prefix: "",
  seriesId: null,
  seriesName: null,
  ticket: null,
  status: "PLACED",
  items: [{ name: "Tea", qty: 1 }],
  note: null,
  channel: "pos",
  idempotencyKey: null,
  idempotencyScope: null,
  requestHash: null,
  createdAt: new Date("2026-11-23T10:00:00Z"),
  readyAt: null,
  collectedAt: null,
  cancelledAt: null,
  clearedAt: null,
  placedBy: "Delivery app",
  stations: [],
  service: null,
};

describe("events", () => {
  it("an order's events carry its public JSON, who made the change and the time of the change", () => {
    const [created] = orderCreated({ slug: "alpha" })(order);
    expect(JSON.parse(webhookBody(created!))).toEqual({
      type: "order.created",
      timestamp: "2026-11-23T10:00:00.000Z",
      data: { ...orderJson(order, { slug: "alpha" }), by: "Delivery app" },
    });
    // Taken with no one named (a node of the release before): by is null, not missing.
    expect(orderCreated({ slug: "alpha" })({ ...order, placedBy: null })[0]!.data).toMatchObject({ by: null });
    const ready = { ...order, status: "READY" as const, readyAt: new Date("2026-11-23T10:05:00Z") };
    expect(orderMoved({ slug: "alpha" }, "Li Wei")(ready)).toMatchObject([
      { type: "order.ready", timestamp: "2026-11-23T10:05:00.000Z", data: { status: "READY", by: "Li Wei" } },
    ]);
    expect(orderMoved({ slug: "alpha" }, "Kitchen")({ ...ready, status: "COLLECTED", collectedAt: new Date("2026-11-23T10:07:00Z") })).toMatchObject([
      { type: "order.collected", data: { by: "Kitchen" } },
    ]);
    expect(orderMoved({ slug: "alpha" }, "Till 2")({ ...order, status: "CANCELLED", cancelledAt: new Date() })).toMatchObject([
      { type: "order.cancelled", data: { by: "Till 2" } },
    ]);
    // An undo back to PLACED has no event type.
    expect(orderMoved({ slug: "alpha" }, "Li Wei")(order)).toEqual([]);
    // Every order event's data is the contract's OrderEventData: the order and `by`, nothing else.
    for (const e of [created!, ...orderMoved({ slug: "alpha" }, "Li Wei")(ready)]) expect(orderEventDataSchema.safeParse(e.data).success).toBe(true);
  });

  it("a cleared order's event: the order as it stands (status kept, cleared), at the time it was cleared; none while not cleared", () => {
    const clearedAt = new Date("2026-11-23T16:00:00Z");
    const [e] = orderCleared({ slug: "alpha" }, "Ana")({ ...order, status: "READY", readyAt: new Date("2026-11-23T10:05:00Z"), clearedAt });
    expect(JSON.parse(webhookBody(e!))).toEqual({
      type: "order.cleared",
      timestamp: "2026-11-23T16:00:00.000Z",
      data: expect.objectContaining({ id: order.id, status: "READY", cleared: true, clearedAt: "2026-11-23T16:00:00.000Z", by: "Ana" }),
    });
    // Cleared by the 12-hour sweep: no one.
    expect(orderCleared({ slug: "alpha" })({ ...order, clearedAt })[0]!.data).toMatchObject({ by: null });
    expect(orderCleared({ slug: "alpha" })(order)).toEqual([]);
  });

  it("a shift's event", () => {
    const startedAt = new Date("2026-11-23T16:00:00Z");
    expect(shiftStarted({ businessDay: "2026-11-23", shift: 2, firstNumber: 1, startedAt, startedBy: "Manager (staff)", reason: "evening" })).toEqual([
      {
        type: "shift.started",
        timestamp: startedAt.toISOString(),
        data: { businessDay: "2026-11-23", shift: 2, firstNumber: 1, startedAt: startedAt.toISOString(), startedBy: "Manager (staff)", reason: "evening" },
      },
    ]);
  });
});

describe("signing secrets", () => {
  it("are whsec_ with 32 random bytes, sealed so that only the same SESSION_SECRET and endpoint open them", () => {
    const secret = generateWebhookSecret();
    expect(Buffer.from(secret.slice(6), "base64")).toHaveLength(32);
    const cipher = new SecretCipher("a".repeat(64));
    const sealed = cipher.seal(secret, "endpoint-1");
    expect(sealed).not.toContain(secret.slice(6));
    expect(cipher.open(sealed, "endpoint-1")).toBe(secret);
    expect(cipher.open(sealed, "endpoint-2")).toBeNull();
    expect(new SecretCipher("b".repeat(64)).open(sealed, "endpoint-1")).toBeNull();
    expect(cipher.open("v1:AAAA", "endpoint-1")).toBeNull();
  });

  it("sign per Standard Webhooks: v1,base64(HMAC-SHA256(id.timestamp.body)) with the decoded secret", () => {
    const secret = generateWebhookSecret();
    const at = new Date();
    const body = JSON.stringify({ type: "order.created", timestamp: at.toISOString(), data: { number: 1, note: "辣" } });
    const headers = signatureHeaders({ id: "msg-1", body, secret }, at);
    const ts = String(Math.floor(at.getTime() / 1000));
    expect(headers["webhook-timestamp"]).toBe(ts);
    expect(headers["webhook-signature"]).toBe(
      `v1,${createHmac("sha256", Buffer.from(secret.slice(6), "base64"))
        .update(`msg-1.${ts}.${body}`)
        .digest("base64")}`,
    );
    expect(new Webhook(secret).verify(body, headers)).toMatchObject({ type: "order.created" });
  });
});

describe("the HTTP sender", () => {
  async function withServer(status: number, fn: (port: number, seen: { host?: string; n: number }) => Promise<void>) {
    const seen: { host?: string; n: number } = { n: 0 };
    const server = createServer((req, res) => {
      seen.n++;
      seen.host = req.headers.host;
      req.resume();
      req.on("end", () => res.writeHead(status, { location: "http://127.0.0.1:1/elsewhere" }).end());
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      await fn((server.address() as AddressInfo).port, seen);
    } finally {
      await new Promise((r) => server.close(r));
    }
  }

  it("connects to the address it checked, not to a second lookup, keeping the host name", async () => {
    await withServer(204, async (port, seen) => {
      let lookups = 0;
      const send = createHttpSender({ policy: lan, timeoutMs: 2_000, resolve: async () => (lookups++, ["127.0.0.1"]) });
      const r = await send({ url: `http://pos.nextup.invalid:${port}/hook`, id: "m1", body: "{}", secret: generateWebhookSecret() });
      expect(r).toEqual({ status: 204, error: null });
      expect(lookups).toBe(1);
      expect(seen.host).toBe(`pos.nextup.invalid:${port}`);
    });
  });

  it("refuses a name resolving to a private address by default, before connecting", async () => {
    await withServer(204, async (port, seen) => {
      const send = createHttpSender({ policy: strict, timeoutMs: 2_000, resolve: async () => ["8.8.8.8", "127.0.0.1"] });
      const r = await send({ url: `https://pos.nextup.invalid:${port}/hook`, id: "m1", body: "{}", secret: generateWebhookSecret() });
      expect(r).toEqual({ status: null, error: "destination refused: pos.nextup.invalid resolves to 127.0.0.1: 127.0.0.1 is a loopback address" });
      expect(seen.n).toBe(0);
    });
  });

  it("does not follow redirects, and times out", async () => {
    await withServer(302, async (port, seen) => {
      const send = createHttpSender({ policy: lan, timeoutMs: 2_000 });
      expect(await send({ url: `http://127.0.0.1:${port}/hook`, id: "m1", body: "{}", secret: generateWebhookSecret() })).toEqual({
        status: 302,
        error: "HTTP 302 (redirects are not followed)",
      });
      expect(seen.n).toBe(1);
    });
    const silent = createServer(() => {}); // never answers
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    try {
      const send = createHttpSender({ policy: lan, timeoutMs: 200 });
      expect(await send({ url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`, id: "m1", body: "{}", secret: generateWebhookSecret() })).toEqual(
        { status: null, error: NO_HTTP_ANSWER, detail: "no answer within 200 ms" },
      );
    } finally {
      silent.closeAllConnections();
      await new Promise((r) => silent.close(r));
    }
  });
});

describe("the HTTP sender on a private network", () => {
  it("does not tell a closed port from a silent one or one that does not speak HTTP (no port map); the log has the detail", async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    // Like Redis or PostgreSQL: answers something that is not HTTP and hangs up.
    const notHttp = netServer((socket) => socket.resume().end("-ERR unknown command 'POST'\r\n"));
    const silent = netServer((socket) => void socket.resume()); // reads, never answers
    await Promise.all([notHttp, silent].map((s) => new Promise<void>((r) => s.listen(0, "127.0.0.1", r))));
    try {
      const send = createHttpSender({ policy: lan, timeoutMs: 300 });
      const at = (port: number) => send({ url: `http://127.0.0.1:${port}/hook`, id: "m1", body: "{}", secret: generateWebhookSecret() });
      const results = [await at(closedPort), await at((notHttp.address() as AddressInfo).port), await at((silent.address() as AddressInfo).port)];
      expect(results.map((r) => [r.status, r.error])).toEqual([
        [null, NO_HTTP_ANSWER],
        [null, NO_HTTP_ANSWER],
        [null, NO_HTTP_ANSWER],
      ]);
      expect(results.map((r) => r.detail)).toEqual(["connection refused", expect.any(String), "no answer within 300 ms"]);
    } finally {
      for (const s of [notHttp, silent]) await new Promise((r) => s.close(r));
    }
  });
});

describe("the dispatcher", () => {
  function harness(due: DueDelivery | null, result: { status: number | null; error: string | null }) {
    const records: Parameters<DeliveryLedger["record"]>[2][] = [];
    const sent: Parameters<WebhookSender>[0][] = [];
    const outcomes: string[] = [];
    const ledger: DeliveryLedger = {
      due: async () => due,
      record: async (_d, _j, r) => void records.push(r),
      defer: async () => expect.unreachable("deferred without a share"),
    };
    const dispatcher = new WebhookDispatcher({
      ledger,
      send: async (m) => (sent.push(m), result),
      metrics: { delivery: (o) => void outcomes.push(o) },
      log: { info: () => {}, warn: () => {}, error: () => {} },
      clock: { now: () => new Date("2026-11-23T10:00:00Z") },
      retryBaseMs: 5_000,
    });
    return { dispatcher, records, sent, outcomes };
  }
  const due: DueDelivery = { id: "d1", tenantId: "t", type: "order.created", body: "{}", attempts: 0, url: "https://pos.example.com/h", secret: "whsec_AAAA" };

  it("a stale job (message done, deleted, or owned by a newer job) sends nothing", async () => {
    const h = harness(null, { status: 204, error: null });
    await h.dispatcher.attempt("d1", "j1");
    expect([h.sent, h.records, h.outcomes]).toEqual([[], [], []]);
  });

  it("records a delivery, a retry with its time, and giving up after the last attempt", async () => {
    const ok = harness(due, { status: 200, error: null });
    await ok.dispatcher.attempt("d1", "j1");
    expect(ok.sent).toEqual([{ url: due.url, id: "d1", body: "{}", secret: "whsec_AAAA" }]);
    expect(ok.records).toEqual([
      { attempts: 1, at: new Date("2026-11-23T10:00:00Z"), result: { status: 200, error: null }, delivered: true, nextAttemptAt: null },
    ]);
    expect(ok.outcomes).toEqual(["delivered"]);

    const failing = harness({ ...due, attempts: 1 }, { status: 500, error: "HTTP 500" });
    await failing.dispatcher.attempt("d1", "j1");
    expect(failing.records[0]).toMatchObject({ attempts: 2, delivered: false });
    expect(failing.records[0]!.nextAttemptAt!.getTime() - Date.parse("2026-11-23T10:00:00Z")).toBeGreaterThanOrEqual(10_000);
    expect(failing.outcomes).toEqual(["retrying"]);

    const last = harness({ ...due, attempts: MAX_ATTEMPTS - 1 }, { status: null, error: "connection refused" });
    await last.dispatcher.attempt("d1", "j1");
    expect(last.records[0]).toMatchObject({ attempts: MAX_ATTEMPTS, delivered: false, nextAttemptAt: null });
    expect(last.outcomes).toEqual(["gave_up"]);
  });

  it("a restaurant holds at most its share of the workers: beyond it an attempt is deferred, unsent; other restaurants go on (decision 0044)", async () => {
    const dues: Record<string, DueDelivery> = {
      a1: { ...due, id: "a1", tenantId: "A" },
      a2: { ...due, id: "a2", tenantId: "A" },
      a3: { ...due, id: "a3", tenantId: "A" },
      b1: { ...due, id: "b1", tenantId: "B" },
    };
    const hanging: Array<() => void> = [];
    let answering = false;
    const sent: string[] = [];
    const deferred: Array<[string, string, number]> = [];
    const outcomes: string[] = [];
    const now = new Date("2026-11-23T10:00:00Z");
    const dispatcher = new WebhookDispatcher({
      ledger: {
        due: async (id) => dues[id]!,
        record: async () => {},
        defer: async (id, job, until) => void deferred.push([id, job, until.getTime() - now.getTime()]),
      },
      // A's endpoint does not answer until told to; B's answers at once.
      send: (m) => {
        sent.push(m.id);
        return m.id.startsWith("a") && !answering
          ? new Promise((r) => hanging.push(() => r({ status: null, error: "no answer" })))
          : Promise.resolve({ status: 204, error: null });
      },
      metrics: { delivery: (o) => void outcomes.push(o) },
      log: { info: () => {}, warn: () => {}, error: () => {} },
      clock: { now: () => now },
      retryBaseMs: 5_000,
      perTenant: 2,
    });
    const a1 = dispatcher.attempt("a1", "j-a1");
    const a2 = dispatcher.attempt("a2", "j-a2");
    await vi.waitFor(() => expect(sent).toEqual(["a1", "a2"]));
    // A's third waits, unsent, its job handed on; B's goes out while A's two still hang.
    await dispatcher.attempt("a3", "j-a3");
    await dispatcher.attempt("b1", "j-b1");
    expect(sent).toEqual(["a1", "a2", "b1"]);
    expect(deferred).toEqual([["a3", "j-a3", WEBHOOK_DEFER_MS]]);
    expect(outcomes).toEqual(["deferred", "delivered"]);
    // Once A's attempts end, its share is free again.
    answering = true;
    for (const release of hanging) release();
    await Promise.all([a1, a2]);
    await dispatcher.attempt("a3", "j-a3b");
    expect(sent).toEqual(["a1", "a2", "b1", "a3"]);
    expect(deferred).toHaveLength(1);
  });

  it("an unreadable secret is a failed attempt, nothing is sent unsigned", async () => {
    const h = harness({ ...due, secret: null }, { status: 204, error: null });
    await h.dispatcher.attempt("d1", "j1");
    expect(h.sent).toEqual([]);
    expect(h.records[0]!.result.error).toMatch(/SESSION_SECRET/);
  });
});

describe("the webhook service", () => {
  const tenant = { id: "t1", slug: "alpha" } as Tenant;
  const E1 = {
    id: "0b8e3c1e-2f4a-4c1d-9a5e-1c2d3e4f5a6b",
    url: "https://pos.example.com/hook?token=x",
    events: ["order.ready" as const],
    createdAt: new Date(),
    createdBy: "Manager (staff)",
  };
  function service(opts: { resolve?: (h: string) => Promise<string[]>; count?: number; policy?: DestinationPolicy } = {}) {
    const created: unknown[] = [];
    const invalidated: string[] = [];
    const store: WebhookStore = {
      list: async () => [],
      count: async () => opts.count ?? 0,
      create: async (_t, e, audit) => {
        const row = { id: "e1", url: e.url, events: e.events, createdAt: new Date(), createdBy: e.createdBy };
        created.push({ ...e, audit: audit(row) });
        return row;
      },
      delete: async () => null,
      update: async (_t, id, patch, audit) => {
        if (id !== E1.id) return null;
        const after = { ...E1, ...patch };
        const entry = audit(E1, after);
        if (entry) created.push({ update: entry });
        return after;
      },
      rotateSecret: async (_t, id, secret, audit) => {
        if (id !== E1.id) return null;
        created.push({ rotated: secret, audit: audit(E1) });
        return E1;
      },
      ping: async (_t, id, event, audit) => {
        if (id !== E1.id) return null;
        created.push({ ping: event.type, audit: audit(E1) });
        return "d1";
      },
      deliveries: async () => null,
    };
    const svc = new WebhookService({
      store,
      resolve: opts.resolve ?? (async () => ["93.184.215.14"]),
      generateSecret: () => "whsec_c2VjcmV0",
      policy: opts.policy ?? strict,
      invalidate: { webhooksChanged: async (id) => void invalidated.push(id) },
    });
    return { svc, created, invalidated };
  }
  const refusal = async (p: Promise<unknown>) => {
    try {
      await p;
    } catch (e) {
      if (isAppError(e)) return { code: e.code, message: e.userMessage };
      throw e;
    }
    throw new Error("expected a refusal");
  };

  it("creates with the events in canonical order, audits the URL without its query, returns the secret", async () => {
    const { svc, created, invalidated } = service();
    const made = await svc.create(
      tenant,
      { url: "https://pos.example.com/hook?token=abc", events: ["shift.started", "order.created", "order.created"] },
      "api-key mgr:1",
    );
    expect(made).toMatchObject({ events: ["order.created", "shift.started"], secret: "whsec_c2VjcmV0" });
    // Every node forgets that this restaurant had no webhooks, so its next order writes the event.
    expect(invalidated).toEqual(["t1"]);
    expect(created).toEqual([
      expect.objectContaining({
        secret: "whsec_c2VjcmV0",
        audit: {
          actor: "api-key mgr:1",
          action: "webhook.create",
          details: { id: "e1", url: "https://pos.example.com/hook?…", events: ["order.created", "shift.started"] },
        },
      }),
    ]);
  });

  it("refuses a name that resolves to any private address, or does not resolve; stores nothing", async () => {
    const { svc, created } = service({ resolve: async () => ["93.184.215.14", "10.0.0.5"] });
    expect(await refusal(svc.create(tenant, { url: "https://pos.example.com/", events: ["order.ready"] }, "x"))).toEqual({
      code: "BAD_INPUT",
      message: expect.stringMatching(/^url: pos\.example\.com resolves to 10\.0\.0\.5: 10\.0\.0\.5 is a private address/),
    });
    const dead = service({ resolve: async () => Promise.reject(new Error("ENOTFOUND")) });
    expect(await refusal(dead.svc.create(tenant, { url: "https://nowhere.example/", events: ["order.ready"] }, "x"))).toEqual({
      code: "BAD_INPUT",
      message: "url: the host nowhere.example does not resolve",
    });
    expect([created, dead.created]).toEqual([[], []]);
  });

  it("a new secret: generated, stored with its audit entry (never the secret), shown once; unknown is NOT_FOUND", async () => {
    const { svc, created } = service();
    expect(await svc.rotateSecret(tenant, E1.id.toUpperCase(), "api-key mgr:1")).toEqual({ ...E1, secret: "whsec_c2VjcmV0" });
    expect(created).toEqual([
      {
        rotated: "whsec_c2VjcmV0",
        audit: { actor: "api-key mgr:1", action: "webhook.rotateSecret", details: { id: E1.id, url: "https://pos.example.com/hook?…" } },
      },
    ]);
    expect(await refusal(svc.rotateSecret(tenant, "0b8e3c1e-2f4a-4c1d-9a5e-000000000000", "x"))).toMatchObject({ code: "NOT_FOUND" });
    expect(await refusal(svc.rotateSecret(tenant, "not-a-uuid", "x"))).toMatchObject({ code: "NOT_FOUND" });
  });

  it("a private destination is refused in words a manager can act on, naming no environment variable", async () => {
    const { svc } = service({ resolve: async () => ["192.168.1.20"] });
    const e = await svc.create(tenant, { url: "https://pos.local/", events: ["order.ready"] }, "x").catch((x: unknown) => x);
    expect(isAppError(e) && e.details).toMatchObject({ problem: "private", host: "pos.local" });
    expect(isAppError(e) && e.userMessage).toMatch(/ask whoever runs Nextup to allow the restaurant's own network/);
    expect(isAppError(e) && `${e.userMessage} ${e.message} ${JSON.stringify(e.details)}`).not.toMatch(/WEBHOOKS_|ALLOW_PRIVATE/);
    const http = await svc.create(tenant, { url: "http://pos.example.com/", events: ["order.ready"] }, "x").catch((x: unknown) => x);
    expect(isAppError(http) && JSON.stringify(http.details)).not.toMatch(/WEBHOOKS_|ALLOW_PRIVATE/);
  });

  it("a metadata refusal says what is true where the restaurant's network is allowed, and never sends the manager to the operator for it", async () => {
    const refused = async (ip: string, policy: { allowPrivate: boolean }) => {
      const { svc } = service({ resolve: async () => [ip], policy });
      const e = await svc.create(tenant, { url: "http://pos.local/", events: ["order.ready"] }, "x").catch((x: unknown) => x);
      if (!isAppError(e)) throw new Error(`${ip} was not refused`);
      expect(`${e.userMessage} ${JSON.stringify(e.details)}`).not.toMatch(/WEBHOOKS_|ALLOW_PRIVATE/);
      return { message: e.userMessage, problem: (e.details as { problem: string }).problem };
    };
    const metadata = await refused("169.254.170.23", lan);
    expect(metadata.problem).toBe("metadata");
    expect(metadata.message).toBe(
      "url: pos.local resolves to 169.254.170.23: 169.254.170.23 is a cloud metadata address: it hands out the server's credentials, so webhooks never go there, whatever the server allows",
    );
    const linkLocal = await refused("169.254.169.253", lan);
    expect(linkLocal.problem).toBe("linkLocal");
    expect(linkLocal.message).toMatch(/refused even where the restaurant's own network is allowed; .* whoever runs Nextup can allow it by name$/);
    for (const m of [metadata, linkLocal]) expect(m.message).not.toMatch(/allow the restaurant's own network/);
    expect((await refused("fd00:ec2::23", lan)).problem).toBe("metadata");
    expect((await refused("100.100.100.200", lan)).problem).toBe("metadata");
  });

  it("changes an endpoint's events and URL (checked like a new one), audits only what changed; unknown is NOT_FOUND", async () => {
    const { svc, created, invalidated } = service();
    const after = await svc.update(tenant, E1.id, { events: ["order.created", "order.ready"] }, "Manager (staff)");
    expect(after.events).toEqual(["order.created", "order.ready"]);
    expect(created).toEqual([
      {
        update: {
          actor: "Manager (staff)",
          action: "webhook.update",
          details: { id: E1.id, url: "https://pos.example.com/hook?…", from: { events: ["order.ready"] }, to: { events: ["order.created", "order.ready"] } },
        },
      },
    ]);
    expect(invalidated).toEqual(["t1"]);
    // Nothing changed: no audit entry.
    await svc.update(tenant, E1.id, { events: ["order.ready"] }, "x");
    expect(created).toHaveLength(1);
    expect(await refusal(svc.update(tenant, E1.id, { url: "ftp://pos.example.com/" }, "x"))).toMatchObject({ code: "BAD_INPUT" });
    expect(await refusal(service({ resolve: async () => ["10.0.0.5"] }).svc.update(tenant, E1.id, { url: "https://pos.example.com/" }, "x"))).toMatchObject({
      code: "BAD_INPUT",
    });
    expect(await refusal(svc.update(tenant, E1.id, {}, "x"))).toMatchObject({ code: "BAD_INPUT" });
    expect(await refusal(svc.update(tenant, E1.id, { events: ["order.ready"], secret: "x" }, "x"))).toMatchObject({ code: "BAD_INPUT" });
    expect(await refusal(svc.update(tenant, "1b8e3c1e-2f4a-4c1d-9a5e-1c2d3e4f5a6b", { events: ["order.ready"] }, "x"))).toMatchObject({ code: "NOT_FOUND" });
  });

  it("a test message is a ping queued for that endpoint, audited; unknown is NOT_FOUND", async () => {
    const { svc, created } = service();
    expect(await svc.ping(tenant, E1.id.toUpperCase(), "Manager (staff)")).toEqual({ deliveryId: "d1" });
    expect(created).toEqual([
      { ping: "ping", audit: { actor: "Manager (staff)", action: "webhook.ping", details: { id: E1.id, url: "https://pos.example.com/hook?…" } } },
    ]);
    expect(await refusal(svc.ping(tenant, "not-a-uuid", "x"))).toMatchObject({ code: "NOT_FOUND" });
  });

  it("refuses bad events and a 21st endpoint", async () => {
    expect(await refusal(service().svc.create(tenant, { url: "https://pos.example.com/", events: [] }, "x"))).toMatchObject({
      code: "BAD_INPUT",
      message: expect.stringContaining("events"),
    });
    expect(await refusal(service({ count: 20 }).svc.create(tenant, { url: "https://pos.example.com/", events: ["order.ready"] }, "x"))).toMatchObject({
      code: "CONFLICT",
    });
  });

  it("reads deliveries with a limit of 1–200, naming a bad one", async () => {
    expect(await refusal(service().svc.deliveries(tenant, "0b9f6c1e-4a3d-4c55-9a1e-000000000001", "500"))).toMatchObject({
      code: "BAD_INPUT",
      message: expect.stringContaining("limit"),
    });
    expect(await refusal(service().svc.deliveries(tenant, "0b9f6c1e-4a3d-4c55-9a1e-000000000001", "10"))).toMatchObject({ code: "NOT_FOUND" });
  });
});
