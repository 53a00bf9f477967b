/**
 * A fair share of the print workers for every restaurant (decision 0039), end to end on a real
 * app server, PostgreSQL, Redis and ESC/POS stand-ins: restaurant A's printers that accept and
 * never answer cannot hold up restaurant B's ticket, an unreachable printer is retried with
 * growing gaps, and a restaurant's printers and waiting jobs are capped (an order is taken all
 * the same, its ticket marked not printed).
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/db";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { type Api, apiClient, expectApiError, expectStatus, type OrderJson } from "../support/http";
import { startAppServer, testKeyPrefix, type AppServer } from "../support/app-server";
import { startPrinterStandIn, type PrinterStandIn } from "../support/printer-stand-in";
import { eventually } from "../support/until";

const org = (slug: string, rest: string) => `/api/v1/orgs/${slug}/${rest}`;

/** Enough of A's silent printers to occupy every one of a node's print workers many times over. */
const A_PRINTERS = 30;

describe("fair print scheduling", () => {
  let db: TestDatabase;
  let app: AppServer;
  let call: Api;
  let sql: pg.Client;
  let t: Record<"a" | "b", TestTenant>;
  const standIns: PrinterStandIn[] = [];
  const standIn = async (mode: "online" | "silent" = "online") => {
    const p = await startPrinterStandIn({ mode });
    standIns.push(p);
    return p;
  };
  const addPrinter = async (tenant: TestTenant, p: PrinterStandIn) =>
    expectStatus(
      await call<{ id: string }>("POST", org(tenant.slug, "printers"), {
        key: tenant.apiKeys.manager,
        json: { name: `Counter ${p.address.port}`, host: p.address.host, port: p.address.port, channels: ["api"] },
      }),
      201,
    );
  const waitingOf = async (tenant: TestTenant): Promise<number> => {
    const { rows } = await sql.query<{ n: string }>(`SELECT count(*) AS n FROM "PrintJob" WHERE "tenantId" = $1::uuid AND "state" IN ('queued', 'printing')`, [
      tenant.id,
    ]);
    return Number(rows[0]!.n);
  };

  beforeAll(async () => {
    db = await createTestDatabase("print-fairness");
    const slugs = { a: uniqueSlug("fair-a"), b: uniqueSlug("fair-b") };
    const made = await provisionTenants(db.url, [stableDaySpec(slugs.a, "Hoarder"), stableDaySpec(slugs.b, "Neighbour")]);
    t = { a: made[slugs.a]!, b: made[slugs.b]! };
    app = await startAppServer({
      databaseUrl: db.url,
      keyPrefix: testKeyPrefix("fairprint"),
      env: {
        PRINTER_NETWORKS: "127.0.0.1/32",
        PRINTER_PORTS: "1024-65535",
        PUBLIC_URL: "http://tickets.nextup.test",
        SESSION_SECRET: randomBytes(32).toString("hex"),
        PRINTERS_PER_RESTAURANT: String(A_PRINTERS + 5),
      },
    });
    call = apiClient(app.url);
    sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
  });
  afterAll(async () => {
    await sql?.end();
    await app?.stop();
    await Promise.all(standIns.map((p) => p.stop()));
    await db?.drop();
  });

  it("prints restaurant B's ticket while restaurant A's silent printers still hold most of their test pages", async () => {
    const silent = await Promise.all(Array.from({ length: A_PRINTERS }, () => standIn("silent")));
    const aPrinters = [];
    for (const p of silent) aPrinters.push(await addPrinter(t.a, p));
    const bStandIn = await standIn();
    await addPrinter(t.b, bStandIn);

    for (const p of aPrinters) expectStatus(await call("POST", org(t.a.slug, `printers/${p.id}/test`), { key: t.a.apiKeys.manager }), 202);
    expectStatus(await call<OrderJson>("POST", org(t.b.slug, "orders"), { key: t.b.apiKeys.cashier, json: {} }), 201);

    // Each of A's drains waits out its status timeouts; taken in turn, B's ticket would come after all of them.
    await bStandIn.waitForJobs(1);
    expect(await waitingOf(t.a)).toBeGreaterThanOrEqual(A_PRINTERS / 2);
  });

  it("retries a printer that does not answer 3 s, then 6 s, then 12 s later, and from the first step again once it answers", async () => {
    const off = await standIn();
    const printer = await addPrinter(t.b, off);
    await off.stop();
    expectStatus(await call("POST", org(t.b.slug, `printers/${printer.id}/test`), { key: t.b.apiKeys.manager }), 202);

    // The retry time each failed drain stored, by how many failed in a row.
    const retryAts = new Map<number, number>();
    const read = async () =>
      (await sql.query<{ failures: number; retryAt: Date | null }>(`SELECT "failures", "retryAt" FROM "Printer" WHERE "id" = $1::uuid`, [printer.id])).rows[0]!;
    const giveUpAt = Date.now() + 90_000;
    while (!retryAts.has(3)) {
      if (Date.now() > giveUpAt) throw new Error(`three failed drains in a row were not seen; stored retry times: ${JSON.stringify([...retryAts])}`);
      const row = await read();
      if (row.failures > 0 && row.retryAt && !retryAts.has(row.failures)) retryAts.set(row.failures, row.retryAt.getTime());
      await new Promise((r) => setTimeout(r, 100));
    }
    // Each drain ran no sooner than the last one's retry time, and waited twice as long after it.
    expect(retryAts.get(2)! - retryAts.get(1)!).toBeGreaterThanOrEqual(6_000);
    expect(retryAts.get(3)! - retryAts.get(2)!).toBeGreaterThanOrEqual(12_000);

    await off.start();
    await off.waitForJobs(1);
    await eventually("the backoff cleared", read, (row) => row.failures === 0 && row.retryAt === null);
  }, 180_000);
});

describe("print limits per restaurant", () => {
  const MAX_PRINTERS = 3;
  const MAX_WAITING = 4;
  let db: TestDatabase;
  let app: AppServer;
  let call: Api;
  let t: TestTenant;
  let closed: PrinterStandIn;

  beforeAll(async () => {
    db = await createTestDatabase("print-limits");
    const slug = uniqueSlug("limits");
    t = (await provisionTenants(db.url, [stableDaySpec(slug, "Capped")]))[slug]!;
    app = await startAppServer({
      databaseUrl: db.url,
      keyPrefix: testKeyPrefix("printlimits"),
      env: {
        PRINTER_NETWORKS: "127.0.0.1/32",
        PRINTER_PORTS: "1024-65535",
        PUBLIC_URL: "http://tickets.nextup.test",
        SESSION_SECRET: randomBytes(32).toString("hex"),
        // The caps, not the addresses, are under test: every printer here is the one closed port (decision 0040 makes an address one printer's).
        PRINTER_SHARED_ADDRESSES: "allow",
        PRINTERS_PER_RESTAURANT: String(MAX_PRINTERS),
        PRINT_JOBS_WAITING_PER_RESTAURANT: String(MAX_WAITING),
      },
    });
    call = apiClient(app.url);
    // A printer that is off (its port closed): its jobs keep waiting.
    closed = await startPrinterStandIn();
    await closed.stop();
  });
  afterAll(async () => {
    await app?.stop();
    await db?.drop();
  });

  const add = (name: string) =>
    call<{ id: string }>("POST", org(t.slug, "printers"), {
      key: t.apiKeys.manager,
      json: { name, host: closed.address.host, port: closed.address.port, channels: ["api"] },
    });

  it("refuses a printer beyond PRINTERS_PER_RESTAURANT with a 409 in a sentence, and queues no job beyond PRINT_JOBS_WAITING_PER_RESTAURANT", async () => {
    const made = [];
    for (let i = 0; i < MAX_PRINTERS; i++) made.push(expectStatus(await add(`Printer ${i}`), 201));
    const refused = expectApiError(await add("One too many"), 409, "CONFLICT");
    expect(refused.message).toBe(`A restaurant may have at most ${MAX_PRINTERS} printers: delete one first.`);
    const listed = expectStatus(await call<{ printers: unknown[] }>("GET", org(t.slug, "printers"), { key: t.apiKeys.manager }), 200);
    expect(listed.printers).toHaveLength(MAX_PRINTERS);

    const printer = made[0]!;
    for (let i = 0; i < MAX_WAITING; i++) expectStatus(await call("POST", org(t.slug, `printers/${printer.id}/test`), { key: t.apiKeys.manager }), 202);
    const full = expectApiError(await call("POST", org(t.slug, `printers/${printer.id}/test`), { key: t.apiKeys.manager }), 429, "RATE_LIMITED");
    expect(full.message).toBe(
      `${MAX_WAITING} print jobs are already waiting for this restaurant's printers: wait until some have printed, or check the printers.`,
    );

    // An order is never refused for its ticket: it is taken, and its ticket says why it was not printed.
    const placed = expectStatus(await call<OrderJson>("POST", org(t.slug, "orders"), { key: t.apiKeys.cashier, json: {} }), 201);
    const { jobs } = expectStatus(
      // A manager's key: a cashier's sees no errors (decision 0040).
      await call<{ jobs: { orderId: string | null; kind: string; state: string; lastError: string | null }[] }>("GET", org(t.slug, `print-jobs?limit=50`), {
        key: t.apiKeys.manager,
      }),
      200,
    );
    expect(jobs.filter((j) => j.kind === "test")).toHaveLength(MAX_WAITING);
    expect(jobs.filter((j) => j.orderId === placed.id)).toEqual([
      expect.objectContaining({
        kind: "ticket",
        state: "gaveUp",
        lastError: `not printed: ${MAX_WAITING} print jobs were already waiting for this restaurant's printers`,
      }),
    ]);
  });
});
