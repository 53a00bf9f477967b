/**
 * Clips rendered ahead on every node (decision 0036): an order made ready through one node
 * has its clips rendered in the board's lane by the other too (it hears the change over
 * Socket.IO's server-side events), so a board whose request reaches the other node gets a
 * cache hit — for restaurants whose boards use the fallback voice (they asked for clips). Two servers on one database and one Redis key prefix, real eSpeak NG.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startAppServer, testKeyPrefix, type AppServer } from "../support/app-server";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { apiClient, expectStatus, type OrderJson } from "../support/http";
import { eventually } from "../support/until";

const databaseUrl = inject("databaseUrl");
const token = randomBytes(24).toString("hex");
let nodes: AppServer[] = [];
let t: TestTenant;
let u: TestTenant;

/** `nextup_voice_renders_total{lane}` on `node`. */
async function renders(node: AppServer, lane: "board" | "public"): Promise<number> {
  const text = await (await fetch(`${node.url}/api/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
  const line = text.split("\n").find((l) => l.startsWith(`nextup_voice_renders_total{lane="${lane}"}`));
  return Number(line?.split(" ").at(-1) ?? NaN);
}

beforeAll(async () => {
  const [slug, uSlug] = [uniqueSlug("voice-nodes"), uniqueSlug("voice-nodes-u")];
  const made = await provisionTenants(databaseUrl, [stableDaySpec(slug), stableDaySpec(uSlug)]);
  [t, u] = [made[slug]!, made[uSlug]!];
  const keyPrefix = testKeyPrefix("voice-nodes");
  nodes = await Promise.all([0, 1].map(() => startAppServer({ databaseUrl, keyPrefix, env: { METRICS_TOKEN: token } })));
}, 120_000);

afterAll(async () => {
  await Promise.all(nodes.map((n) => n.stop()));
});

describe("clips rendered ahead on every node", () => {
  it("an order made ready through node A has its clips rendered by node B before any board asks B; a restaurant whose boards never asked gets none", async () => {
    const [a, b] = [nodes[0]!, nodes[1]!];
    const call = apiClient(a.url);
    const place = async (tenant: TestTenant) =>
      expectStatus(
        await call<OrderJson>("POST", `/api/v1/orgs/${tenant.slug}/orders`, { key: tenant.apiKeys.cashier, json: { items: [{ name: "Tea", qty: 1 }] } }),
        201,
      );
    const ready = async (tenant: TestTenant, o: OrderJson) =>
      expectStatus(await call("POST", `/api/v1/orgs/${tenant.slug}/orders/${o.id}/status`, { key: tenant.apiKeys.kitchen, json: { status: "READY" } }), 200);
    const [warm, o] = [await place(t), await place(t)];
    // t's board has no device voice: it has asked each node for a clip in each language.
    for (const node of [a, b]) {
      for (const locale of ["en", "zh-CN"]) expect((await fetch(`${node.url}/api/v1/orgs/${t.slug}/voice/${locale}/${warm.number}.wav`)).status).toBe(200);
    }
    // u's boards never asked: its ready number (not t's numbers, whose clips are cached) is rendered nowhere.
    const uOrders = [await place(u), await place(u), await place(u)];
    expect(uOrders[2]!.number).toBeGreaterThan(o.number);
    const before = await Promise.all([a, b].map((n) => renders(n, "public")));
    expect(await Promise.all([a, b].map((n) => renders(n, "board")))).toEqual([0, 0]);
    await ready(u, uOrders[2]!);
    await ready(t, o);

    // Both languages of t's number, on both nodes, without a request for either; u's before it in the lane would have counted too.
    for (const node of [a, b])
      await eventually(
        "clips rendered ahead",
        () => renders(node, "board"),
        (n) => n >= 2,
        60_000,
      );
    expect(await Promise.all([a, b].map((n) => renders(n, "board")))).toEqual([2, 2]);
    for (const locale of ["en", "zh-CN"]) {
      const res = await fetch(`${b.url}/api/v1/orgs/${t.slug}/voice/${locale}/${o.number}.wav`);
      expect({ status: res.status, cache: res.headers.get("x-voice-cache") }).toEqual({ status: 200, cache: "hit" });
    }
    expect(await Promise.all([a, b].map((n) => renders(n, "public")))).toEqual(before);
  }, 120_000);
});
