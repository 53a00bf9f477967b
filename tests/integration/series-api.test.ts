/**
 * Number series over REST (issue #21, decision 0027) against the running app, PostgreSQL
 * and Redis: list, create, change and delete for managers only; bad fields, a channel
 * already served and a duplicate name named in the error; the default series fixed (409),
 * an unknown id 404; each change audited, a refused one changing nothing; an order naming
 * a series that does not exist refused before a number is spent.
 */
import { beforeAll, describe, expect, inject, it } from "vitest";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { apiClient, expectApiError, expectManagerOnly, expectStatus, ISO_TIMESTAMP, UUID, type OrderJson } from "../support/http";

const baseUrl = inject("baseUrl");
const databaseUrl = inject("databaseUrl");
const call = apiClient(baseUrl);

const org = (slug: string, rest: string) => `/api/v1/orgs/${slug}/${rest}`;
const NO_SUCH_ID = `${"1".repeat(8)}-1111-4111-8111-${"1".repeat(12)}`;

interface SeriesJson {
  id: string;
  name: string;
  prefix: string;
  first: number;
  last: number | null;
  channels: string[];
  default: boolean;
}
type Order = OrderJson & { series: string; prefix: string; display: string };
interface AuditJson {
  entries: { at: string; actor: string; action: string; details: Record<string, unknown> }[];
}

const DEFAULT: SeriesJson = { id: "default", name: "Default", prefix: "", first: 1, last: null, channels: [], default: true };

const slugs = { main: uniqueSlug("ser-main"), other: uniqueSlug("ser-other"), orders: uniqueSlug("ser-orders"), full: uniqueSlug("ser-full") };
let t: Record<keyof typeof slugs, TestTenant>;

beforeAll(async () => {
  const made = await provisionTenants(
    databaseUrl,
    Object.values(slugs).map((s) => stableDaySpec(s)),
  );
  t = Object.fromEntries(Object.entries(slugs).map(([k, s]) => [k, made[s]!])) as typeof t;
});

/** The series as created and changed; each listed one's `open` count is series-near-full.test.ts's. */
const list = async (tenant: TestTenant) =>
  expectStatus(await call<{ series: (SeriesJson & { open: number })[] }>("GET", org(tenant.slug, "series"), { key: tenant.apiKeys.manager }), 200).series.map(
    ({ open, ...s }) => {
      expect(Number.isInteger(open) && open >= 0).toBe(true);
      return s;
    },
  );
const audit = async (tenant: TestTenant) => expectStatus(await call<AuditJson>("GET", org(tenant.slug, "audit"), { key: tenant.apiKeys.manager }), 200).entries;
const create = (tenant: TestTenant, json: unknown) => call<SeriesJson>("POST", org(tenant.slug, "series"), { key: tenant.apiKeys.manager, json });
const patch = (tenant: TestTenant, id: string, json: unknown) =>
  call<SeriesJson>("PATCH", org(tenant.slug, `series/${id}`), { key: tenant.apiKeys.manager, json });
const order = (tenant: TestTenant, json: unknown) => call<Order>("POST", org(tenant.slug, "orders"), { key: tenant.apiKeys.cashier, json });

/** The field paths a 400 names. */
const fieldsOf = (err: { details?: unknown }): string[] => ((err.details as { fields?: { path: string }[] })?.fields ?? []).map((f) => f.path);

describe("who may call the series endpoints", () => {
  const id = NO_SUCH_ID;
  const endpoints: [string, (s: string) => string, unknown?][] = [
    ["GET", (s) => org(s, "series")],
    ["POST", (s) => org(s, "series"), { name: "Kiosk", prefix: "K", first: 1, last: 99, channels: ["kiosk"] }],
    ["PATCH", (s) => org(s, `series/${id}`), { last: 50 }],
    ["DELETE", (s) => org(s, `series/${id}`)],
  ];
  it.each(endpoints)("%s %s: no key 401, a cashier's or kitchen key 403, another restaurant's manager key 403", async (method, path, json) => {
    const p = path(t.main.slug);
    await expectManagerOnly(call, method, p, json, { cashier: t.main.apiKeys.cashier, kitchen: t.main.apiKeys.kitchen, otherManager: t.other.apiKeys.manager });
    // None of those changed anything.
    expect(await list(t.main)).toEqual([DEFAULT]);
    expect(await audit(t.main)).toEqual([]);
  });
});

describe("series", () => {
  it("lists the default series first; creates, changes and deletes another, each audited", async () => {
    expect(await list(t.main)).toEqual([DEFAULT]);

    // The prefix is read in capitals; unsent fields take their defaults.
    const kiosk = expectStatus(await create(t.main, { name: "Kiosk", prefix: "k", first: 1, last: 99, channels: ["kiosk"] }), 201);
    expect(kiosk).toEqual({ id: expect.stringMatching(UUID), name: "Kiosk", prefix: "K", first: 1, last: 99, channels: ["kiosk"], default: false });
    const phone = expectStatus(await create(t.main, { name: "Phone" }), 201);
    expect(phone).toMatchObject({ name: "Phone", prefix: "", first: 1, last: null, channels: [] });
    expect(await list(t.main)).toEqual([DEFAULT, kiosk, phone]);

    // Only what changed is recorded, old → new.
    const changed = expectStatus(await patch(t.main, kiosk.id, { last: 50, channels: ["kiosk", "web"], prefix: "K" }), 200);
    expect(changed).toEqual({ ...kiosk, last: 50, channels: ["kiosk", "web"] });
    expect(await list(t.main)).toEqual([DEFAULT, changed, phone]);

    const gone = expectStatus(await call<SeriesJson>("DELETE", org(t.main.slug, `series/${phone.id}`), { key: t.main.apiKeys.manager }), 200);
    expect(gone).toEqual(phone);
    expect(await list(t.main)).toEqual([DEFAULT, changed]);
    // Deleted is gone: a second delete, or a change, is 404.
    expectApiError(await call("DELETE", org(t.main.slug, `series/${phone.id}`), { key: t.main.apiKeys.manager }), 404, "NOT_FOUND");
    expectApiError(await patch(t.main, phone.id, { last: 9 }), 404, "NOT_FOUND");

    const actor = `api-key ${t.main.apiKeys.manager.split("_")[2]}`;
    expect(await audit(t.main)).toEqual([
      {
        at: expect.stringMatching(ISO_TIMESTAMP),
        actor,
        action: "series.delete",
        details: { id: phone.id, name: "Phone", prefix: "", first: 1, last: null, channels: [] },
      },
      {
        at: expect.stringMatching(ISO_TIMESTAMP),
        actor,
        action: "series.update",
        details: { id: kiosk.id, name: "Kiosk", changes: { last: { from: 99, to: 50 }, channels: { from: ["kiosk"], to: ["kiosk", "web"] } } },
      },
      {
        at: expect.stringMatching(ISO_TIMESTAMP),
        actor,
        action: "series.create",
        details: { id: phone.id, name: "Phone", prefix: "", first: 1, last: null, channels: [] },
      },
      {
        at: expect.stringMatching(ISO_TIMESTAMP),
        actor,
        action: "series.create",
        details: { id: kiosk.id, name: "Kiosk", prefix: "K", first: 1, last: 99, channels: ["kiosk"] },
      },
    ]);
  });

  it("refuses each bad field with 400 naming it, and changes nothing (no audit entry either)", async () => {
    const before = await list(t.other);
    const entries = await audit(t.other);
    const bad: [unknown, string][] = [
      [{}, "name"],
      [{ name: "" }, "name"],
      [{ name: "x".repeat(41) }, "name"],
      [{ name: "Kiosk", prefix: "K1" }, "prefix"],
      [{ name: "Kiosk", prefix: "ABCD" }, "prefix"],
      [{ name: "Kiosk", first: 0 }, "first"],
      [{ name: "Kiosk", first: 1.5 }, "first"],
      [{ name: "Kiosk", first: "1" }, "first"],
      [{ name: "Kiosk", first: 100_000_000 }, "first"],
      [{ name: "Kiosk", first: 10, last: 9 }, "last"],
      [{ name: "Kiosk", last: 0 }, "last"],
      [{ name: "Kiosk", channels: ["drone"] }, "channels"],
      [{ name: "Kiosk", channels: "kiosk" }, "channels"],
      [{ name: "Kiosk", channels: ["kiosk", "kiosk"] }, "channels"],
      [{ name: "Kiosk", colour: "red" }, "colour"],
    ];
    for (const [json, field] of bad) {
      const err = expectApiError(await create(t.other, json), 400, "BAD_INPUT");
      expect(err.message, JSON.stringify(json)).toContain(field);
      // details.fields names it too: its path (channels.0), or its message for a field that does not exist.
      expect(JSON.stringify(err.details), JSON.stringify(json)).toContain(field);
    }
    expectApiError(
      await call("POST", org(t.other.slug, "series"), { key: t.other.apiKeys.manager, body: "{", headers: { "content-type": "application/json" } }),
      400,
      "BAD_INPUT",
    );
    expect(await list(t.other)).toEqual(before);
    expect(await audit(t.other)).toEqual(entries);
  });

  it("a channel belongs to one series and a name to one series: 400 naming the field, nothing half-changed", async () => {
    const kiosk = expectStatus(await create(t.other, { name: "Kiosk", prefix: "K", last: 99, channels: ["kiosk"] }), 201);
    const delivery = expectStatus(await create(t.other, { name: "Delivery", prefix: "D", channels: ["delivery"] }), 201);
    const entries = await audit(t.other);

    const taken = expectApiError(await create(t.other, { name: "Till", channels: ["counter", "kiosk"] }), 400, "BAD_INPUT");
    expect(taken.message).toBe('Channel kiosk already belongs to series "Kiosk"');
    expect(fieldsOf(taken)).toEqual(["channels"]);
    const twice = expectApiError(await create(t.other, { name: "kiosk", prefix: "Q" }), 400, "BAD_INPUT");
    expect(twice.message).toContain('A series named "kiosk" already exists');
    expect(fieldsOf(twice)).toEqual(["name"]);

    // A change that takes another series' channel or name: none of its fields is saved.
    const moved = expectApiError(await patch(t.other, delivery.id, { last: 500, channels: ["delivery", "kiosk"] }), 400, "BAD_INPUT");
    expect(fieldsOf(moved)).toEqual(["channels"]);
    expect(fieldsOf(expectApiError(await patch(t.other, delivery.id, { name: "KIOSK", last: 500 }), 400, "BAD_INPUT"))).toEqual(["name"]);
    expect(fieldsOf(expectApiError(await patch(t.other, delivery.id, { last: 0 }), 400, "BAD_INPUT"))).toEqual(["last"]);
    // The stored first with a new last below it.
    expect(fieldsOf(expectApiError(await patch(t.other, kiosk.id, { first: 120 }), 400, "BAD_INPUT"))).toEqual(["last"]);
    expect(await list(t.other)).toEqual([DEFAULT, kiosk, delivery]);
    expect(await audit(t.other)).toEqual(entries);

    // Overlapping ranges are allowed (the open numbers are skipped both ways); a channel handed over in two steps is too.
    const overlapping = expectStatus(await create(t.other, { name: "Counter", prefix: "K", first: 50, last: 150 }), 201);
    expect(overlapping).toMatchObject({ prefix: "K", first: 50, last: 150 });
    expectStatus(await patch(t.other, kiosk.id, { channels: [] }), 200);
    expectStatus(await patch(t.other, overlapping.id, { channels: ["kiosk"] }), 200);
  });

  it("the default series is fixed (409); an unknown or another restaurant's id is 404", async () => {
    for (const res of [
      await patch(t.main, "default", { last: 99 }),
      await call("DELETE", org(t.main.slug, "series/default"), { key: t.main.apiKeys.manager }),
    ]) {
      expect(expectApiError(res, 409, "CONFLICT").message).toContain("default series");
    }
    const theirs = (await list(t.other)).find((s) => !s.default)!;
    for (const id of [NO_SUCH_ID, "not-a-uuid", theirs.id]) {
      expectApiError(await patch(t.main, id, { last: 9 }), 404, "NOT_FOUND");
      expectApiError(await call("DELETE", org(t.main.slug, `series/${id}`), { key: t.main.apiKeys.manager }), 404, "NOT_FOUND");
    }
    // Theirs is untouched.
    expect((await list(t.other)).find((s) => s.id === theirs.id)).toEqual(theirs);
  });
});

describe("orders and series", () => {
  it("an order names a series or takes its channel's; an unknown series is 400 and spends no number", async () => {
    const first = expectStatus(await order(t.orders, { items: [{ name: "Tea", qty: 1 }] }), 201);
    expect(first).toMatchObject({ number: 1, series: "Default", prefix: "", display: "1" });

    // Created a moment ago: the node's cached restaurant already knows it.
    expectStatus(await create(t.orders, { name: "Kiosk", prefix: "K", first: 1, last: 99, channels: ["kiosk"] }), 201);
    const unknown = expectApiError(await order(t.orders, { items: [{ name: "Tea", qty: 1 }], series: "Drive-in" }), 400, "BAD_INPUT");
    expect(unknown.message).toContain("series");
    expect(fieldsOf(unknown)).toEqual(["series"]);

    // A series serving other channels: 400 naming `series`, before a number is spent (decision 0041).
    const otherChannel = expectApiError(await order(t.orders, { items: [{ name: "Tea", qty: 1 }], series: "Kiosk" }), 400, "BAD_INPUT");
    expect(fieldsOf(otherChannel)).toEqual(["series"]);
    expect(otherChannel.message).toBe('Series "Kiosk" serves kiosk, not api');

    const named = expectStatus(await order(t.orders, { items: [{ name: "Tea", qty: 1 }], series: "kiosk", channel: "kiosk" }), 201);
    expect(named).toMatchObject({ number: 1, series: "Kiosk", prefix: "K", display: "K1" });
    const byChannel = expectStatus(await order(t.orders, { channel: "kiosk" }), 201);
    expect(byChannel).toMatchObject({ series: "Kiosk", display: "K2" });
    // The refused orders spent nothing: the kiosk series was at K1, the default series goes on at 2.
    expect(expectStatus(await order(t.orders, {}), 201)).toMatchObject({ series: "Default", display: "2" });
  });

  it("a full series is 409 SERIES_FULL naming its range; once one is collected its number comes round", async () => {
    const tiny = expectStatus(await create(t.full, { name: "Tiny", prefix: "T", first: 1, last: 2 }), 201);
    const a = expectStatus(await order(t.full, { series: "Tiny" }), 201);
    expectStatus(await order(t.full, { series: "Tiny" }), 201);
    const full = expectApiError(await order(t.full, { series: "Tiny" }), 409, "SERIES_FULL");
    expect(full.details).toEqual({ series: "Tiny", first: "T1", last: "T2" });
    expect(full.message).toContain("T1–T2");

    for (const status of ["READY", "COLLECTED"])
      expectStatus(await call("POST", org(t.full.slug, `orders/${a.id}/status`), { key: t.full.apiKeys.manager, json: { status } }), 200);
    expect(expectStatus(await order(t.full, { series: "Tiny" }), 201)).toMatchObject({ display: "T1" });
    expect(tiny.last).toBe(2);
  });
});
