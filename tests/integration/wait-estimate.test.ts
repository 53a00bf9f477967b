/**
 * The wait estimate (decision 0052) on the real PostgreSQL and the run's server:
 *  - a fresh restaurant's order is told no estimate (null), and its day's figures count none;
 *  - after twelve orders made ready with known times (taken and moved through the API, their
 *    times then set in the database), a new order is told the range the rule gives for them,
 *    an order behind it never less; a ready order is told none;
 *  - the history read takes an order's first ready, not call-again's readyAt, and the ready
 *    after an Undo; rows without stored moves fall back to readyAt;
 *  - the day's figures replay the estimates: how many were told one, and how good they were.
 * The rule itself, on a fake clock: tests/unit/wait-estimate.test.ts.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createPrisma, type Db } from "@/lib/adapters/postgres/prisma.server";
import { PrismaWaitHistory } from "@/lib/adapters/postgres/wait-history.server";
import type { OrderStatus } from "@/lib/core/orders";
import { estimateWait, summarizeWaits, type WaitEstimate } from "@/lib/core/wait-estimate";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { apiClient, expectStatus, type OrderJson } from "../support/http";
import { ContractChecker } from "../support/openapi-contract";
import { provisionTenants, type TestTenant } from "../support/tenants";

const call = apiClient(inject("baseUrl"));
const contract = new ContractChecker();
const MIN = 60_000;

type WithEstimate = OrderJson & { estimate: WaitEstimate | null };
type Accuracy = { estimated: number; compared: number; medianErrorMinutes: number | null; underShare: number | null; withinShare: number | null };

let db: Db;
beforeAll(() => {
  db = createPrisma(inject("databaseUrl"), { max: 2 });
});
afterAll(async () => {
  await db?.$disconnect();
});

async function restaurant(name: string): Promise<TestTenant> {
  const slug = uniqueSlug(name);
  return (await provisionTenants(inject("databaseUrl"), [stableDaySpec(slug)]))[slug]!;
}

function client(t: TestTenant) {
  const base = `/api/v1/orgs/${t.slug}`;
  return {
    place: async () =>
      expectStatus(await call<OrderJson>("POST", `${base}/orders`, { key: t.apiKeys.cashier, json: { items: [{ name: "Beef noodles", qty: 1 }] } }), 201),
    move: async (id: string, status: OrderStatus) =>
      expectStatus(await call<OrderJson>("POST", `${base}/orders/${id}/status`, { key: t.apiKeys.kitchen, json: { status } }), 200),
    callAgain: async (id: string) => expectStatus(await call<OrderJson>("POST", `${base}/orders/${id}/call`, { key: t.apiKeys.kitchen }), 200),
    get: async (id: string) => expectStatus(await call<WithEstimate>("GET", `${base}/orders/${id}`, { key: t.apiKeys.kitchen }), 200),
    stats: async () => expectStatus(await call<{ estimates: Accuracy }>("GET", `${base}/stats`, { key: t.apiKeys.manager }), 200).estimates,
  };
}

/** Sets an order's times as if it was taken `placedAgoMs` ago and first made ready `readyAgoMs` ago (its moves too). */
async function backdate(id: string, placedAgoMs: number, readyAgoMs: number | null): Promise<void> {
  const now = Date.now();
  await db.order.update({
    where: { id },
    data: { createdAt: new Date(now - placedAgoMs), ...(readyAgoMs === null ? {} : { readyAt: new Date(now - readyAgoMs) }) },
  });
  if (readyAgoMs !== null) await db.orderEvent.updateMany({ where: { orderId: id, status: "READY" }, data: { at: new Date(now - readyAgoMs) } });
}

describe("a fresh restaurant", () => {
  it("tells no estimate (null, never a made-up default) and its figures count none", async () => {
    const t = await restaurant("wait-fresh");
    const api = client(t);
    const o = await api.place();
    const got = await api.get(o.id);
    expect(got.status).toBe("PLACED");
    expect(got.estimate).toBeNull();
    expect(await api.stats()).toEqual({ estimated: 0, compared: 0, medianErrorMinutes: null, underShare: null, withinShare: null });
  });
});

describe("a restaurant with an hour of history", () => {
  let t: TestTenant;
  let api: ReturnType<typeof client>;
  /** The twelve made ready: taken 58 − 2i minutes ago, each in 6 + (i mod 3) minutes (none had ten made ready before it). */
  const samples = Array.from({ length: 12 }, (_, i) => ({ placedAgo: (58 - 2 * i) * MIN, takes: (6 + (i % 3)) * MIN }));

  beforeAll(async () => {
    t = await restaurant("wait-history");
    api = client(t);
    for (const s of samples) {
      const o = await api.place();
      await api.move(o.id, "READY");
      await api.move(o.id, "COLLECTED");
      await backdate(o.id, s.placedAgo, s.placedAgo - s.takes);
    }
  });

  it("tells a new order the range the rule gives for that history, an order behind it never less, and a ready one none", async () => {
    const first = await api.place();
    const second = await api.place();
    const before = Date.now();
    const [a, b] = [await api.get(first.id), await api.get(second.id)];
    const after = Date.now();
    expect(contract.schemaProblems("WaitEstimate", { $ref: "#/components/schemas/WaitEstimate" }, a.estimate)).toEqual([]);
    // The rule on the same history, read at the instants around the request (the minutes may tip between them).
    const history = samples.map((s) => ({ placedAt: before - s.placedAgo, readyAt: before - s.placedAgo + s.takes }));
    const expected = (at: number, placedAt: string, ahead: number) => estimateWait(summarizeWaits(history, at), { placedAt: Date.parse(placedAt), ahead }, at)!;
    const lowA = expected(after, first.createdAt, 0);
    const highA = expected(before, first.createdAt, 0);
    expect(a.estimate!.late).toBe(false);
    expect(a.estimate!.low).toBeGreaterThanOrEqual(lowA.low);
    expect(a.estimate!.low).toBeLessThanOrEqual(highA.low);
    expect(a.estimate!.high).toBeGreaterThanOrEqual(lowA.high);
    expect(a.estimate!.high).toBeLessThanOrEqual(highA.high);
    // Times of 6–8 minutes: a sensible range for an order just taken, not a countdown from nowhere.
    expect(a.estimate!.low).toBeGreaterThanOrEqual(5);
    expect(a.estimate!.high).toBeLessThanOrEqual(8);
    // Behind it (one ahead): never a shorter wait.
    expect(b.estimate!.low).toBeGreaterThanOrEqual(a.estimate!.low);
    expect(b.estimate!.high).toBeGreaterThanOrEqual(a.estimate!.high);

    await api.move(first.id, "READY");
    expect((await api.get(first.id)).estimate).toBeNull();
  });

  it("the day's figures replay the estimates: the history's orders were told none, the new ones were", async () => {
    const a = await api.stats();
    expect(contract.schemaProblems("EstimateAccuracy", { $ref: "#/components/schemas/EstimateAccuracy" }, a)).toEqual([]);
    // The two taken after the history (the twelve had fewer than ten made ready before them).
    expect(a.estimated).toBe(2);
    // The first was made ready within seconds of being told about 6 minutes: compared, neither within nor late.
    expect(a.compared).toBe(1);
    expect(a.underShare).toBe(0);
    expect(a.withinShare).toBe(0);
    expect(a.medianErrorMinutes).toBeGreaterThanOrEqual(5);
    expect(a.medianErrorMinutes).toBeLessThanOrEqual(8);
  });
});

describe("the history read", () => {
  it("takes the first ready (call again moves readyAt, not it), the ready after an Undo, and readyAt where no moves were stored", async () => {
    const t = await restaurant("wait-read");
    const api = client(t);
    const now = Date.now();
    const calledAgain = await api.place();
    await api.move(calledAgain.id, "READY");
    await backdate(calledAgain.id, 20 * MIN, 15 * MIN);
    await api.callAgain(calledAgain.id);
    const undone = await api.place();
    await api.move(undone.id, "READY");
    await api.move(undone.id, "PLACED");
    await api.move(undone.id, "READY");
    const unstored = await api.place();
    await api.move(unstored.id, "READY");
    await db.orderEvent.deleteMany({ where: { orderId: unstored.id } });
    await backdate(unstored.id, 12 * MIN, 9 * MIN);

    const rows = await db.order.findMany({ where: { tenantId: t.id }, include: { events: { orderBy: { at: "asc" } } } });
    const byId = new Map(rows.map((r) => [r.id, r]));
    // Call again restamped readyAt to now: the history still says 15 minutes ago.
    expect(byId.get(calledAgain.id)!.readyAt!.getTime()).toBeGreaterThan(now - MIN);
    const read = await new PrismaWaitHistory(db).readies(t.id, [calledAgain.businessDay], new Date(now - 4 * 60 * MIN), new Date(now - 60 * MIN));
    const samples = new Map(read.map((s) => [s.placedAt, s.readyAt]));
    expect(read).toHaveLength(3);
    expect(samples.get(byId.get(calledAgain.id)!.createdAt.getTime())).toBe(
      byId
        .get(calledAgain.id)!
        .events.find((e) => e.status === "READY")!
        .at.getTime(),
    );
    expect(samples.get(byId.get(calledAgain.id)!.createdAt.getTime())).toBeLessThan(now - 14 * MIN);
    const undoneReadies = byId.get(undone.id)!.events.filter((e) => e.status === "READY");
    expect(undoneReadies).toHaveLength(2);
    expect(samples.get(byId.get(undone.id)!.createdAt.getTime())).toBe(undoneReadies[1]!.at.getTime());
    expect(samples.get(byId.get(unstored.id)!.createdAt.getTime())).toBe(byId.get(unstored.id)!.readyAt!.getTime());
  });
});
