/**
 * pg-boss's schema and the webhook queue are installed by whichever node starts first: nodes
 * started together (a deploy, docker compose up) must all come up, not die on a deadlock.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { WebhookQueue } from "@/lib/adapters/postgres/webhook-queue.server";
import { createEmptyTestDatabase, type TestDatabase } from "../support/db";

const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} } as never;
const NODES = 6;
let dbs: TestDatabase[] = [];

beforeAll(async () => {
  dbs = await Promise.all([0, 1, 2].map(() => createEmptyTestDatabase("queue")));
});

afterAll(async () => {
  await Promise.allSettled(dbs.map((d) => d.drop()));
});

it(`${NODES} nodes starting at once on a fresh database all install the queue (three databases)`, async () => {
  for (const db of dbs) {
    const queues = Array.from({ length: NODES }, () => new WebhookQueue(db.url, { attemptTimeoutMs: 1_000, pollMs: 500, log: silent }));
    const started = await Promise.allSettled(queues.map((q) => q.start()));
    await Promise.allSettled(queues.map((q) => q.stop(500)));
    expect(started.filter((r): r is PromiseRejectedResult => r.status === "rejected").map((r) => String(r.reason))).toEqual([]);
  }
});
