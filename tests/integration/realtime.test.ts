/**
 * Live board events over a real Socket.IO server and real socket.io-client connections:
 * orders placed, moved and shifts started through the REST API reach the sockets of
 * their tenant (and only theirs), also across two app nodes that share the Redis adapter.
 *
 * Absence is proven, not waited for: after the event that must NOT arrive would have
 * been sent, the same socket waits for a later event of its own tenant, which travels the
 * same path; only then do we assert that nothing else arrived.
 */
import { boardKey } from "@/lib/core/orders";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startAppServer, type AppServer } from "../support/app-server";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { BoardSocket, expectConnectError } from "../support/board-socket";
import { apiClient, BUSINESS_DAY, expectStatus, ISO_TIMESTAMP, type Api, type OrderJson, type ShiftJson } from "../support/http";

const baseUrl = inject("baseUrl");
const databaseUrl = inject("databaseUrl");
const call = apiClient(baseUrl);

const boardOrderKeys = ["businessDay", "cleared", "createdAt", "display", "key", "number", "prefix", "readyAt", "service", "shift", "status"];

let a: TestTenant;
let b: TestTenant;
const sockets: BoardSocket[] = [];

async function connect(url: string, t: TestTenant, label: string): Promise<BoardSocket> {
  const s = await BoardSocket.connect(url, t.slug, label);
  sockets.push(s);
  return s;
}

async function place(t: TestTenant, via: Api = call): Promise<OrderJson> {
  return expectStatus(
    await via<OrderJson>("POST", `/api/v1/orgs/${t.slug}/orders`, {
      key: t.apiKeys.cashier,
      json: { items: [{ name: "Noodles", qty: 1 }], note: "secret note" },
    }),
    201,
  );
}

beforeAll(async () => {
  const slugs = [uniqueSlug("rt-a"), uniqueSlug("rt-b")];
  const t = await provisionTenants(
    databaseUrl,
    slugs.map((s) => stableDaySpec(s)),
  );
  a = t[slugs[0]!]!;
  b = t[slugs[1]!]!;
});

afterAll(() => {
  for (const s of sockets) s.close();
});

describe("board events on one server", () => {
  let a1: BoardSocket;
  let a2: BoardSocket;
  let b1: BoardSocket;

  beforeAll(async () => {
    [a1, a2, b1] = await Promise.all([connect(baseUrl, a, "a1"), connect(baseUrl, a, "a2"), connect(baseUrl, b, "b1")]);
  });

  it("an order placed via the API reaches every client of its tenant as order:created, and no client of another", async () => {
    const order = await place(a);
    for (const client of [a1, a2]) {
      const { payload } = await client.waitFor("order:created", (p) => p.key === boardKey(order));
      expect(payload).toEqual({
        key: boardKey(order),
        number: order.number,
        prefix: "",
        display: String(order.number),
        status: "PLACED",
        businessDay: order.businessDay,
        shift: order.shift,
        createdAt: order.createdAt,
        readyAt: null,
        cleared: false,
        service: null,
      });
      // The public board sees no id, items or notes.
      expect(Object.keys(payload).sort()).toEqual(boardOrderKeys);
    }

    // B's socket is live and in B's room: it receives B's own, later order...
    const own = await place(b);
    await b1.waitFor("order:created", (p) => p.key === boardKey(own));
    // ...and nothing about A's.
    expect(b1.eventsFor(order)).toEqual([]);
    expect(b1.received.every((r) => r.payload.key === boardKey(own) && r.payload.createdAt === own.createdAt)).toBe(true);

    // And the other way round: A's sockets never see B's order (proven by a later A event).
    const later = await place(a);
    for (const client of [a1, a2]) {
      await client.waitFor("order:created", (p) => p.key === boardKey(later));
      expect(client.eventsFor(own)).toEqual([]);
    }
  });

  it("each created order arrives exactly once per client", async () => {
    const order = await place(a);
    const marker = await place(a);
    for (const client of [a1, a2]) {
      await client.waitFor("order:created", (p) => p.key === boardKey(marker));
      expect(client.eventsFor(order).map((r) => r.event)).toEqual(["order:created"]);
    }
  });

  it("a status change emits order:updated with the new status, to the tenant's clients only", async () => {
    const order = await place(a);
    const res = await call<OrderJson>("POST", `/api/v1/orgs/${a.slug}/orders/${order.id}/status`, { key: a.apiKeys.kitchen, json: { status: "READY" } });
    const ready = expectStatus(res, 200);
    for (const client of [a1, a2]) {
      const { payload } = await client.waitFor("order:updated", (p) => p.key === boardKey(order));
      expect(payload).toMatchObject({ key: boardKey(order), number: order.number, status: "READY", readyAt: ready.readyAt });
      expect(payload.readyAt).toMatch(ISO_TIMESTAMP);
    }

    const marker = await place(b);
    await b1.waitFor("order:created", (p) => p.key === boardKey(marker));
    expect(b1.eventsFor(order)).toEqual([]);
  });

  it("a shift start emits shift:started with the new shift, to the tenant's clients only", async () => {
    const started = expectStatus(await call<ShiftJson>("POST", `/api/v1/orgs/${a.slug}/shifts`, { key: a.apiKeys.manager, json: { reason: "dinner" } }), 201);
    for (const client of [a1, a2]) {
      const { payload } = await client.waitFor("shift:started", (p) => p.shift === started.shift);
      expect(payload).toEqual({ businessDay: started.businessDay, shift: started.shift, startedAt: started.startedAt });
      expect(payload.businessDay).toMatch(BUSINESS_DAY);
    }

    const marker = await place(b);
    await b1.waitFor("order:created", (p) => p.key === boardKey(marker));
    expect(b1.received.filter((r) => r.event === "shift:started")).toEqual([]);
  });

  it("a shift request that starts no shift (ifCurrentShift already passed) emits nothing", async () => {
    const first = expectStatus(await call<ShiftJson>("POST", `/api/v1/orgs/${a.slug}/shifts`, { key: a.apiKeys.manager, json: {} }), 201);
    await a1.waitFor("shift:started", (p) => p.shift === first.shift);
    const repeat = await call<ShiftJson>("POST", `/api/v1/orgs/${a.slug}/shifts`, { key: a.apiKeys.manager, json: { ifCurrentShift: first.shift - 1 } });
    expect(expectStatus(repeat, 200).created).toBe(false);

    const marker = await place(a);
    await a1.waitFor("order:created", (p) => p.key === boardKey(marker));
    expect(a1.received.filter((r) => r.event === "shift:started" && r.payload.shift === first.shift)).toHaveLength(1);
    expect(a1.received.filter((r) => r.event === "shift:started" && (r.payload.shift as number) > first.shift)).toEqual([]);
  });

  it("an unknown org, or none, gets connect_error", async () => {
    const ghost = uniqueSlug("ghost");
    const err = await expectConnectError(baseUrl, ghost);
    expect(err.message).toContain(ghost);
    const none = await expectConnectError(baseUrl, undefined);
    expect(none.message).toMatch(/unknown restaurant/i);
  });
});

describe("board events across two app servers (shared Redis adapter)", () => {
  let second: AppServer | undefined;
  let callSecond: Api;

  beforeAll(async () => {
    second = await startAppServer({ databaseUrl, keyPrefix: inject("keyPrefix") });
    callSecond = apiClient(second.url);
  });

  afterAll(async () => {
    for (const s of sockets.splice(0)) s.close();
    const code = await second?.stop();
    if (code !== undefined && code !== 0) console.error(`second app server exited with ${code}:\n${second?.output().slice(-4000)}`);
  });

  it("an order placed via server 1 reaches a client connected to server 2, and the other way round", async () => {
    const onSecond = await connect(second!.url, a, "a@server2");
    const onFirst = await connect(baseUrl, a, "a@server1");

    const viaFirst = await place(a, call);
    const got = await onSecond.waitFor("order:created", (p) => p.key === boardKey(viaFirst));
    expect(got.payload).toMatchObject({ key: boardKey(viaFirst), number: viaFirst.number, status: "PLACED" });

    const viaSecond = await place(a, callSecond);
    const back = await onFirst.waitFor("order:created", (p) => p.key === boardKey(viaSecond));
    expect(back.payload).toMatchObject({ key: boardKey(viaSecond), number: viaSecond.number, status: "PLACED" });
    // The two nodes share the counter too: consecutive numbers, not two 1s.
    expect(viaSecond.number).toBe(viaFirst.number + 1);
    expect(viaSecond.shift).toBe(viaFirst.shift);

    // Exactly once on each node's client, not once per node.
    const marker = await place(a, call);
    for (const client of [onFirst, onSecond]) {
      await client.waitFor("order:created", (p) => p.key === boardKey(marker));
      expect(client.eventsFor(viaFirst)).toHaveLength(1);
      expect(client.eventsFor(viaSecond)).toHaveLength(1);
    }
  });

  it("a status change via server 2 reaches a client on server 1, but not tenant B's client on server 2", async () => {
    const onFirst = await connect(baseUrl, a, "a@server1");
    const bOnSecond = await connect(second!.url, b, "b@server2");
    const order = await place(a, call);
    await onFirst.waitFor("order:created", (p) => p.key === boardKey(order));

    const res = await callSecond<OrderJson>("POST", `/api/v1/orgs/${a.slug}/orders/${order.id}/status`, { key: a.apiKeys.kitchen, json: { status: "READY" } });
    expectStatus(res, 200);
    const { payload } = await onFirst.waitFor("order:updated", (p) => p.key === boardKey(order));
    expect(payload.status).toBe("READY");

    const marker = await place(b, call);
    await bOnSecond.waitFor("order:created", (p) => p.key === boardKey(marker));
    expect(bOnSecond.eventsFor(order)).toEqual([]);
  });
});

describe("settings and menu changes reach the open screens", () => {
  it("a settings change emits settings:changed and a menu change menu:changed, to the restaurant's clients only; an unchanged save emits nothing", async () => {
    const slugs = [uniqueSlug("rt-set"), uniqueSlug("rt-other")];
    const made = await provisionTenants(
      databaseUrl,
      slugs.map((s) => stableDaySpec(s)),
    );
    const [t, other] = [made[slugs[0]!]!, made[slugs[1]!]!];
    const [screen, elsewhere] = await Promise.all([connect(baseUrl, t, "set-1"), connect(baseUrl, other, "other-1")]);
    const manager = { key: t.apiKeys.manager };

    expectStatus(await call("PUT", `/api/v1/orgs/${t.slug}/settings`, { ...manager, json: { readyClearMinutes: 7 } }), 200);
    await screen.waitFor("settings:changed", () => true);
    // Saving the same value again changes nothing and announces nothing (proven by a later event).
    expectStatus(await call("PUT", `/api/v1/orgs/${t.slug}/settings`, { ...manager, json: { readyClearMinutes: 7 } }), 200);
    const category = expectStatus(await call<{ id: string }>("POST", `/api/v1/orgs/${t.slug}/menu/categories`, { ...manager, json: { name: "Noodles" } }), 201);
    await screen.waitFor("menu:changed", () => true);
    expectStatus(await call("PATCH", `/api/v1/orgs/${t.slug}/menu/categories/${category.id}`, { ...manager, json: { name: "Soups" } }), 200);
    await expect.poll(() => screen.received.filter((r) => r.event === "menu:changed").length).toBe(2);
    expect(screen.received.filter((r) => r.event === "settings:changed")).toHaveLength(1);

    // The other restaurant's screen heard of none of it (proven by an event of its own).
    const own = await place(other);
    await elsewhere.waitFor("order:created", (p) => p.key === boardKey(own));
    expect(elsewhere.received.map((r) => r.event)).toEqual(["order:created"]);
  });
});

describe("sockets are read-only and cheap", () => {
  it("a client that sends an event is disconnected; one that sends a message over the limit too; the board goes on for the others", async () => {
    const [talker, flooder, watcher] = await Promise.all([connect(baseUrl, a, "talker"), connect(baseUrl, a, "flooder"), connect(baseUrl, a, "watcher")]);
    const closed = (s: BoardSocket) => new Promise<string>((resolve) => s.socket.once("disconnect", (reason) => resolve(reason)));
    const talkerGone = closed(talker);
    talker.socket.emit("order:created", { key: "fake" });
    // The server closed it ("io server disconnect"), not the client or the network.
    expect(await talkerGone).toBe("io server disconnect");

    const flooderGone = closed(flooder);
    flooder.socket.emit("x", "y".repeat(64 * 1024));
    expect(["transport close", "io server disconnect"]).toContain(await flooderGone);

    const order = await place(a);
    await watcher.waitFor("order:created", (p) => p.key === boardKey(order));
  });
});
