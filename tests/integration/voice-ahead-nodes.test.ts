/**
 * Clips rendered ahead on every node (decision 0038): an order made ready through one node
 * has its clips rendered in the board's lane by the other too (it hears the change over
 * Socket.IO's server-side events), so a board whose request reaches the other node gets a
 * cache hit. Two servers on one database and one Redis key prefix, real eSpeak NG.
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

/** `nextup_voice_renders_total{lane}` on `node`. */
async function renders(node: AppServer, lane: "board" | "public"): Promise<number> {
  const text = await (await fetch(`${node.url}/api/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
  const line = text.split("\n").find((l) => l.startsWith(`nextup_voice_renders_total{lane="${lane}"}`));
  return Number(line?.split(" ").at(-1) ?? NaN);
}

beforeAll(async () => {
  const slug = uniqueSlug("voice-nodes");
  t = (await provisionTenants(databaseUrl, [stableDaySpec(slug)]))[slug]!;
  const keyPrefix = testKeyPrefix("voice-nodes");
  nodes = await Promise.all([0, 1].map(() => startAppServer({ databaseUrl, keyPrefix, env: { METRICS_TOKEN: token } })));
}, 120_000);

afterAll(async () => {
  await Promise.all(nodes.map((n) => n.stop()));
});

describe("clips rendered ahead on every node", () => {
  it("an order made ready through node A has its clips rendered by node B before any board asks B", async () => {
    const [a, b] = [nodes[0]!, nodes[1]!];
    const call = apiClient(a.url);
    const o = expectStatus(
      await call<OrderJson>("POST", `/api/v1/orgs/${t.slug}/orders`, { key: t.apiKeys.cashier, json: { items: [{ name: "Tea", qty: 1 }] } }),
      201,
    );
    expect(await renders(b, "board")).toBe(0);
    expectStatus(await call("POST", `/api/v1/orgs/${t.slug}/orders/${o.id}/status`, { key: t.apiKeys.kitchen, json: { status: "READY" } }), 200);

    // Both languages, on both nodes, without a request for either.
    for (const node of [a, b])
      await eventually(
        "clips rendered ahead",
        () => renders(node, "board"),
        (n) => n === 2,
        60_000,
      );
    for (const locale of ["en", "zh-CN"]) {
      const res = await fetch(`${b.url}/api/v1/orgs/${t.slug}/voice/${locale}/${o.number}.wav`);
      expect({ status: res.status, cache: res.headers.get("x-voice-cache") }).toEqual({ status: 200, cache: "hit" });
    }
    expect(await renders(b, "public")).toBe(0);
  }, 120_000);
});
