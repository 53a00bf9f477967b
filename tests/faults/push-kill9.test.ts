/**
 * Web Push under kill -9 (decision 0053). A node killed while its push is on the wire (the
 * push service stalls): the restarted node sends it again once the queue job expires — at
 * least once, with the same Topic (the push service replaces an undelivered earlier one, the
 * browser's notification tag replaces a shown one). An order made ready while no node runs
 * (as if its node died right after the commit, before queueing): the next node's sweep
 * queues and sends it, once.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrisma } from "@/lib/adapters/postgres/prisma.server";
import { PrismaOrderRepository } from "@/lib/adapters/postgres/order-repository.server";
import { createTestDatabase, type TestDatabase } from "../support/db";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { apiClient, expectStatus, type OrderJson } from "../support/http";
import { SHARED_SERVER_ENV, startAppServer, testKeyPrefix, type AppServer } from "../support/app-server";
import { PushServiceStandIn, pushJobsLeft } from "../support/push-service";
import { eventually } from "../support/until";

const CONTACT = "https://example.com/contact";

describe("fault: a node killed -9 with a push queued", () => {
  let db: TestDatabase;
  let prisma: ReturnType<typeof createPrisma>;
  let push: PushServiceStandIn;
  let app: AppServer | null = null;
  let t: TestTenant;
  const keyPrefix = testKeyPrefix("push-kill9");
  const env = () => ({ ...SHARED_SERVER_ENV, SESSION_SECRET: sessionSecret, PUSH_CONTACT: CONTACT, PUSH_SERVICES: push.origin });
  const sessionSecret = randomBytes(32).toString("hex");
  const start = (port?: number) => startAppServer({ databaseUrl: db.url, keyPrefix, env: env(), port });
  const kill9 = async (a: AppServer) => {
    const exited = new Promise((resolve) => a.proc.once("exit", resolve));
    a.proc.kill("SIGKILL");
    await exited;
  };

  beforeAll(async () => {
    db = await createTestDatabase("push-kill9");
    prisma = createPrisma(db.url, { max: 2 });
    const slug = uniqueSlug("push-k9");
    t = (await provisionTenants(db.url, [stableDaySpec(slug, "Dumpling House")]))[slug]!;
    push = await PushServiceStandIn.start(CONTACT);
  });
  afterAll(async () => {
    await app?.stop();
    await push?.close();
    await prisma?.$disconnect();
    await db?.drop();
  });

  it("a push on the wire when its node dies is sent by the restarted node; one made ready while no node ran is sent once", async () => {
    app = await start();
    const call = apiClient(app.url);
    const orgPath = (rest: string) => `/api/v1/orgs/${t.slug}/${rest}`;
    const [first, second] = [
      expectStatus(await call<OrderJson>("POST", orgPath("orders"), { key: t.apiKeys.cashier, json: {} }), 201),
      expectStatus(await call<OrderJson>("POST", orgPath("orders"), { key: t.apiKeys.cashier, json: {} }), 201),
    ];
    const [s1, s2] = [push.subscriber(), push.subscriber()];
    expectStatus(await call("POST", orgPath(`orders/${first.id}/subscriptions`), { json: { endpoint: s1.endpoint, keys: s1.keys } }), 201);
    expectStatus(await call("POST", orgPath(`orders/${second.id}/subscriptions`), { json: { endpoint: s2.endpoint, keys: s2.keys } }), 201);

    push.stall();
    expectStatus(await call("POST", orgPath(`orders/${first.id}/status`), { key: t.apiKeys.kitchen, json: { status: "READY" } }), 200);
    // The push is on the wire (its delivery owned by a job, the stand-in holding the request) when the node dies.
    await eventually(
      "the push taken by a job",
      () => prisma.pushDelivery.findFirst({ where: { orderId: first.id } }),
      (d) => d?.jobId != null,
    );
    await new Promise((r) => setTimeout(r, 500));
    const port = app.port;
    await kill9(app);
    app = null;
    push.release();
    expect(push.to(s1.path)).toEqual([]);

    // While no node runs, the second order is made ready by the move's statement alone: its push is written, not queued.
    const repo = new PrismaOrderRepository(prisma);
    expect(await repo.updateStatus(t.id, second.id, "PLACED", "READY", new Date(), "fault test")).not.toBeNull();
    const unqueued = await prisma.pushDelivery.findFirstOrThrow({ where: { orderId: second.id } });
    expect(unqueued.jobId).toBeNull();

    app = await start(port);
    await push.until(() => push.to(s2.path).length === 1, "the push written while no node ran", 30_000);
    // The stalled one: its job expires (PUSH_EXPIRE_SECONDS) and the restarted node sends it.
    await push.until(() => push.to(s1.path).length >= 1, "the push whose node was killed", 60_000);
    await eventually(
      "every push job done",
      () => pushJobsLeft(prisma),
      (n) => n === 0,
      60_000,
    );
    expect(push.to(s2.path).length).toBe(1);
    expect(push.to(s1.path).length).toBe(1);
    expect(push.to(s1.path)[0]!.headers.topic).toBe(first.id.replace(/-/g, ""));
    expect([...push.to(s1.path), ...push.to(s2.path)].flatMap((r) => r.problems)).toEqual([]);
    expect(push.to(s1.path)[0]!.payload).toMatchObject({ title: "Dumpling House", body: `Your order ${first.display} is ready` });
    const rows = await prisma.pushDelivery.findMany({ where: { orderId: { in: [first.id, second.id] } } });
    expect(rows.map((d) => d.outcome)).toEqual(["delivered", "delivered"]);
  }, 150_000);
});
