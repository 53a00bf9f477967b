/**
 * An order cleared off the floor stays as it was cleared (decision 0034): a move racing a
 * clear — a manager's new shift (`clearOpen`) or the forgotten-order sweep
 * (`clearForgotten`) — either lands before the clear or is refused as `orderCleared`, never
 * after it. Real PostgreSQL and Redis, the two writes started together in every round, on
 * each way an order is moved: SQL (a restaurant without webhooks) and one Prisma transaction
 * with its outbox rows (a restaurant with an endpoint).
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { AppError } from "@/lib/core/errors";
import { FORGOTTEN_AFTER_HOURS, OrderService } from "@/lib/core/order-service";
import { boardKey, type OrderStatus } from "@/lib/core/orders";
import type { Tenant } from "@/lib/core/tenants";
import { orderCleared } from "@/lib/core/webhooks/events";
import { PrismaOrderRepository } from "@/lib/adapters/postgres/order-repository.server";
import { poolFor, prismaFor } from "@/lib/adapters/postgres/prisma.server";
import { WebhookOutbox } from "@/lib/adapters/postgres/webhook-outbox.server";
import { WebhookQueue } from "@/lib/adapters/postgres/webhook-queue.server";
import { RedisIdempotencyClaims } from "@/lib/adapters/redis/idempotency-claims.server";
import { createCoreHarness, RecordingPublisher } from "../support/core-harness";
import { testKeyPrefix } from "../support/app-server";
import { PrismaShiftRepository } from "@/lib/adapters/postgres/shift-repository.server";
import { createTestDatabase, type TestDatabase } from "../support/db";
import { provisionTenants } from "../support/tenants";

const redisUrl = inject("redisUrl");
const ROUNDS = 200;
const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} };

let database: TestDatabase;
let h: ReturnType<typeof createCoreHarness>;
let queue: WebhookQueue;
const tenants: Record<string, Tenant> = {};

beforeAll(async () => {
  // A database of its own: the outbox's queued attempts must meet no other file's workers.
  database = await createTestDatabase("clear-race");
  h = createCoreHarness({ databaseUrl: database.url, redisUrl, keyPrefix: testKeyPrefix("clear-race") });
  queue = new WebhookQueue(database.url, { attemptTimeoutMs: 1_000, pollMs: 500, log: silent });
  await queue.start();
  const made = await provisionTenants(database.url, [
    { slug: "race-sql", name: "Race SQL" },
    { slug: "race-outbox", name: "Race outbox" },
  ]);
  for (const slug of Object.keys(made)) tenants[slug] = (await h.tenants.findById(made[slug]!.id))!;
  // An endpoint makes every move of this restaurant a transaction with its webhook rows.
  await h.db.webhookEndpoint.create({
    data: {
      id: randomUUID(),
      tenantId: tenants["race-outbox"]!.id,
      url: "http://127.0.0.1:9/hook",
      secretEnc: "unused",
      events: ["order.ready", "order.collected", "order.cancelled", "order.cleared"],
    },
  });
});

afterAll(async () => {
  await queue?.stop(500);
  await h?.close();
  await prismaFor(database.url).$disconnect();
  await database?.drop();
});

/** A service moving orders the way the app does: SQL without webhooks, the outbox's transaction with them. */
function serviceFor() {
  const db = prismaFor(database.url);
  const repo = new PrismaOrderRepository(db, new WebhookOutbox(queue, db), poolFor(database.url));
  const events = new RecordingPublisher();
  const service = new OrderService({
    issuer: h.issuer,
    claims: new RedisIdempotencyClaims(h.redis, testKeyPrefix("clear-race-claims"), () => true),
    orders: repo,
    shifts: new PrismaShiftRepository(db),
    events,
    metrics: { duplicateNumber: () => {}, numberIssued: () => {}, orderPlaced: () => {}, orderStatusChanged: () => {}, uniqueViolation: () => {} },
    log: silent,
    clock: { now: () => new Date() },
  });
  return { repo, events, service };
}

/** A few turns of the event loop, so that the two writes meet at a different point each round. */
const hops = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

/** Where each round starts and where its move goes: every move of an open order. */
const MOVES: [OrderStatus, OrderStatus][] = [
  ["PLACED", "READY"],
  ["READY", "COLLECTED"],
  ["PLACED", "CANCELLED"],
  ["READY", "PLACED"],
];

describe.each(["race-sql", "race-outbox"])("a move racing a clear (%s)", (slug) => {
  it(`${ROUNDS} rounds: the move lands before the clear or is refused as orderCleared; a cleared order keeps its status and no broadcast moves it`, async () => {
    const t = tenants[slug]!;
    const { repo, events, service } = serviceFor();
    const violations: string[] = [];
    const outcomes = { movedFirst: 0, refused: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const [from, to] = MOVES[round % MOVES.length]!;
      let order = (await service.place(t, { items: [{ name: "Ramen", qty: 1 }] }, { channel: "kiosk", by: null })).order;
      if (from === "READY") order = await service.changeStatus(t, order.id, { status: "READY" }, null);
      // Half the rounds the forgotten-order sweep clears it (it must look old to the database's clock), half a new shift.
      const sweep = round % 2 === 1;
      if (sweep)
        await h.db.$executeRaw`UPDATE "Order" SET "createdAt" = now() - make_interval(hours => ${FORGOTTEN_AFTER_HOURS + 1}::int) WHERE id = ${order.id}::uuid`;
      const seen = events.events.length;

      const move = service.changeStatus(t, order.id, { status: to }, null);
      const clear = (async () => {
        await hops(round % 5);
        if (sweep) await service.board(t);
        else await repo.clearOpen(t.id, order.businessDay, order.shift + 1, new Date(), orderCleared(t));
      })();
      const [moved, cleared] = await Promise.allSettled([move, clear]);

      const say = (what: string) => violations.push(`round ${round} (${from} → ${to}, ${sweep ? "sweep" : "new shift"}): ${what}`);
      if (cleared.status === "rejected") say(`the clear failed: ${String(cleared.reason)}`);
      const row = (await repo.findById(t.id, order.id))!;
      if (moved.status === "fulfilled") {
        outcomes.movedFirst++;
        // The row the move wrote, as it wrote it: it was not cleared then.
        if (moved.value.clearedAt !== null) say(`moved after it was cleared (${moved.value.status}, clearedAt ${moved.value.clearedAt.toISOString()})`);
        if (row.status !== to) say(`the move answered ${to} but the row is ${row.status}`);
      } else {
        outcomes.refused++;
        const e = moved.reason as unknown;
        if (!(e instanceof AppError && e.code === "CONFLICT" && e.reason === "orderCleared")) say(`refused with ${String(e)}`);
        if (row.status !== from || row.clearedAt === null) say(`refused, yet the row is ${row.status}, clearedAt ${String(row.clearedAt)}`);
      }
      // What the screens were told about this order during the round: the clear's one
      // broadcast (the sweep's) shows it as it was cleared; a refused move told nothing.
      const told = events.events
        .slice(seen)
        .filter((e) => e.type === "order:updated")
        .map((e) => e.payload as { key: string; status: OrderStatus; cleared: boolean })
        .filter((b) => b.key === boardKey(order));
      const asCleared = moved.status === "fulfilled" ? to : from;
      const toldCleared = told.filter((b) => b.cleared).map((b) => b.status);
      if (toldCleared.length > 1 || toldCleared.some((s) => s !== asCleared)) say(`broadcast cleared as ${toldCleared.join(", ")}; cleared as ${asCleared}`);
      if (moved.status === "rejected" && told.some((b) => b.status === to)) say(`broadcast the refused move to ${to}`);
    }
    expect(violations).toEqual([]);
    // Both ways round happened: the race was run, not one side after the other every time.
    expect(outcomes.movedFirst).toBeGreaterThan(0);
    expect(outcomes.refused).toBeGreaterThan(0);
  });
});
