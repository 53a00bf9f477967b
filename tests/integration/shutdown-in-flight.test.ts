/**
 * A graceful stop under a stream of orders: SIGTERM or SIGINT arrives while cashiers post
 * orders on kept-alive connections and on new ones. Every order answered 201 must be in
 * PostgreSQL with its number; every other request is refused with 503 (the JSON error
 * contract, `Connection: close`) or meets a closed connection — never a 500, never a 201
 * that was not stored. The scheduler's leader lock is released (another node leads at
 * once, not after its time to live) and the process exits 0.
 */
import { randomUUID } from "node:crypto";
import { Agent, request } from "node:http";
import { connect, type Socket } from "node:net";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startAppServer, TEST_REDIS_URL, testKeyPrefix, type AppServer } from "../support/app-server";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { provisionTenants, type TestTenant } from "../support/tenants";

const databaseUrl = inject("databaseUrl");
const KEEP_ALIVE_CLIENTS = 6;
const NEW_CONNECTION_CLIENTS = 4;
/** Orders answered before the signal: enough that the load is surely running when it lands. */
const ORDERS_BEFORE_SIGNAL = 30;

let tenant: TestTenant;
let db: pg.Client;
let redis: Redis;

beforeAll(async () => {
  const slug = uniqueSlug("stop");
  tenant = (await provisionTenants(databaseUrl, [stableDaySpec(slug)]))[slug]!;
  db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  redis = new Redis(TEST_REDIS_URL);
});
afterAll(async () => {
  await db?.end();
  redis?.disconnect();
});

interface Outcome {
  idempotencyKey: string;
  /** A status and body, or the connection error met instead. */
  status?: number;
  body?: { id?: string; number?: number; error?: { code?: string; message?: string } };
  connection?: string;
  error?: string;
}

function postOrder(port: number, agent: Agent | false, idempotencyKey: string): Promise<Outcome> {
  const payload = JSON.stringify({ items: [{ name: "Noodles", qty: 1 }] });
  return new Promise((resolve) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        method: "POST",
        path: `/api/v1/orgs/${tenant.slug}/orders`,
        agent,
        headers: {
          authorization: `Bearer ${tenant.apiKeys.cashier}`,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(payload),
          "idempotency-key": idempotencyKey,
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (text += c));
        res.on("end", () => {
          let body: Outcome["body"];
          try {
            body = JSON.parse(text) as Outcome["body"];
          } catch {
            body = { error: { message: `not JSON: ${text.slice(0, 200)}` } };
          }
          resolve({ idempotencyKey, status: res.statusCode, body, connection: String(res.headers.connection ?? "") });
        });
        res.on("error", (e) => resolve({ idempotencyKey, error: e.message }));
      },
    );
    req.on("error", (e: NodeJS.ErrnoException) => resolve({ idempotencyKey, error: e.code ?? e.message }));
    req.end(payload);
  });
}

async function storedOrders(): Promise<{ id: string; number: number; idempotencyKey: string | null }[]> {
  const { rows } = await db.query<{ id: string; number: number; idempotencyKey: string | null }>(
    `SELECT id, number, "idempotencyKey" FROM "Order" WHERE "tenantId" = $1`,
    [tenant.id],
  );
  return rows;
}

async function startLeadingServer(label: string): Promise<{ server: AppServer; lockKey: string }> {
  const keyPrefix = testKeyPrefix(label);
  // A long time to live: if the key is gone after exit, the stop released it (expiry could not have).
  const server = await startAppServer({ databaseUrl, keyPrefix, env: { LOG_LEVEL: "info", SCHEDULER_LOCK_TTL_MS: "60000" } });
  const lockKey = `${keyPrefix}scheduler:leader`;
  for (let i = 0; i < 100 && !(await redis.exists(lockKey)); i++) await new Promise((r) => setTimeout(r, 100));
  expect(await redis.exists(lockKey), "the node took the leader lock").toBe(1);
  return { server, lockKey };
}

async function untilLogged(server: AppServer, text: string): Promise<void> {
  for (let i = 0; i < 200 && !server.output().includes(text); i++) await new Promise((r) => setTimeout(r, 25));
  expect(server.output(), `the server logged ${text}`).toContain(text);
}

describe.each(["SIGTERM", "SIGINT"] as const)("%s with orders in flight", (signal) => {
  let server: AppServer;
  let lockKey: string;
  const outcomes: Outcome[] = [];
  let exitCode: number | null = null;

  beforeAll(async () => {
    ({ server, lockKey } = await startLeadingServer(`stop-${signal.toLowerCase()}`));
    const port = server.port;
    let answered = 0;
    let signalled: Promise<number | null> | null = null;
    const signalSent = new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (answered < ORDERS_BEFORE_SIGNAL) return;
        clearInterval(check);
        signalled = server.stop(signal);
        resolve();
      }, 5);
    });

    // Each client posts until the port refuses it: after the stop nothing listens any more.
    const client = async (agent: Agent | false) => {
      for (;;) {
        const outcome = await postOrder(port, agent, randomUUID());
        outcomes.push(outcome);
        if (outcome.status === 201) answered++;
        if (outcome.error === "ECONNREFUSED") return;
      }
    };
    const agents = Array.from({ length: KEEP_ALIVE_CLIENTS }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
    await Promise.all([...agents.map((a) => client(a)), ...Array.from({ length: NEW_CONNECTION_CLIENTS }, () => client(false))]);
    agents.forEach((a) => a.destroy());
    await signalSent;
    exitCode = await signalled!;
  });

  it("exits 0 after its graceful stop, within the drain", () => {
    expect(exitCode, server.output().slice(-4000)).toBe(0);
    expect(server.output()).toContain('"msg":"bye"');
    expect(server.output()).not.toContain("graceful shutdown took over");
  });

  it("answered every order 201 (stored) or 503 with the error contract and Connection: close, or met a closed connection", () => {
    const statuses = new Set(outcomes.filter((o) => o.status !== undefined).map((o) => o.status));
    expect(
      [...statuses].filter((s) => s !== 201 && s !== 503),
      JSON.stringify(outcomes.filter((o) => o.status !== 201 && o.status !== 503).slice(0, 5)),
    ).toEqual([]);
    for (const refused of outcomes.filter((o) => o.status === 503)) {
      expect(refused.body?.error?.code).toBe("UNAVAILABLE");
      expect(refused.body?.error?.message).toEqual(expect.any(String));
      expect(refused.connection).toBe("close");
    }
    for (const failed of outcomes.filter((o) => o.error)) {
      expect(["ECONNREFUSED", "ECONNRESET", "socket hang up", "EPIPE"]).toContain(failed.error);
    }
    // The stop landed under load: the clients were still posting when it came.
    expect(outcomes.filter((o) => o.status === 201).length).toBeGreaterThanOrEqual(ORDERS_BEFORE_SIGNAL);
  });

  it("stored every order it answered 201, with the number it answered, and no number twice", async () => {
    const stored = new Map((await storedOrders()).map((o) => [o.idempotencyKey, o]));
    const created = outcomes.filter((o) => o.status === 201);
    for (const o of created) {
      expect(stored.get(o.idempotencyKey), `order ${o.idempotencyKey} answered 201`).toMatchObject({ id: o.body?.id, number: o.body?.number });
    }
    const numbers = [...stored.values()].map((o) => o.number);
    expect(new Set(numbers).size).toBe(numbers.length);
    // Nothing was processed half-way: an order refused, or whose connection closed, stored nothing.
    const unanswered = outcomes.filter((o) => o.status !== 201 && stored.has(o.idempotencyKey));
    expect(unanswered, "stored, but not answered 201").toEqual([]);
  });

  it("released the scheduler's leader lock: another node would lead at once", async () => {
    expect(await redis.exists(lockKey)).toBe(0);
  });
});

describe("a request arriving on a kept-alive connection once the stop began", () => {
  it("gets 503 with Connection: close (or a closed connection), and is not processed; the one in flight completes", async () => {
    const { server } = await startLeadingServer("stop-pipelined");
    const body = JSON.stringify({ items: [{ name: "Dumplings", qty: 2 }] });
    const head = (key: string) =>
      `POST /api/v1/orgs/${tenant.slug}/orders HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n` +
      `Authorization: Bearer ${tenant.apiKeys.cashier}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nIdempotency-Key: ${key}\r\n\r\n`;
    const inFlight = randomUUID();
    const late = randomUUID();

    const socket: Socket = await new Promise((resolve, reject) => {
      const s = connect(server.port, "127.0.0.1", () => resolve(s));
      s.once("error", reject);
    });
    let received = "";
    socket.setEncoding("utf8");
    socket.on("data", (d: string) => (received += d));
    socket.on("error", () => {});
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));

    // An order in flight (its body half sent) holds the drain open...
    socket.write(head(inFlight) + body.slice(0, 5));
    await new Promise((r) => setTimeout(r, 200));
    const stopped = server.stop("SIGTERM");
    await untilLogged(server, '"msg":"shutting down"');
    // ...then it completes, and another order follows on the same connection.
    socket.write(body.slice(5) + head(late) + body);
    await closed;
    const code = await stopped;

    const keys = new Set((await storedOrders()).map((o) => o.idempotencyKey));
    expect(keys.has(inFlight)).toBe(true);
    expect(keys.has(late), "the order sent after the stop began was not taken").toBe(false);

    const responses = [...received.matchAll(/HTTP\/1\.1 (\d{3})[^]*?\r\n\r\n/g)].map((m) => ({ status: Number(m[1]), head: m[0].toLowerCase() }));
    expect(responses[0]?.status, received).toBe(201);
    expect(responses[0]?.head, "the last response on a connection the server closes says so").toContain("connection: close");
    if (responses[1]) {
      expect(responses[1].status, received).toBe(503);
      expect(responses[1].head).toContain("connection: close");
    }
    expect(code, server.output().slice(-4000)).toBe(0);
  });
});
