/**
 * Limits where a person or a device acts (issue #36, decision 0041), on a server of its own
 * with small limits: the kiosk's server actions per session, reprints per order and per
 * printer over REST and the action, and an anonymous action told to sign in before its
 * form is read. Real Redis and PostgreSQL; printers need not answer (jobs are counted).
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startAppServer, testKeyPrefix, type AppServer } from "../support/app-server";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { apiClient, expectApiError, expectStatus, type Api, type OrderJson } from "../support/http";
import { signInOverHttp } from "../support/forms";
import { kioskAction } from "../support/kiosk-action";

const ACTIONS = 4;
const PER_ORDER = 3;
const PER_PRINTER = 5;

describe("limits on staff actions and reprints", () => {
  let server: AppServer | undefined;
  let call: Api;
  let db: pg.Client;
  let rest: TestTenant;
  let kiosk: TestTenant;
  const org = (t: TestTenant, rest: string) => `/api/v1/orgs/${t.slug}/${rest}`;

  beforeAll(async () => {
    const slugs = [uniqueSlug("lim-rest"), uniqueSlug("lim-kiosk")];
    const made = await provisionTenants(
      inject("databaseUrl"),
      slugs.map((s) => stableDaySpec(s)),
    );
    [rest, kiosk] = [made[slugs[0]!]!, made[slugs[1]!]!];
    server = await startAppServer({
      databaseUrl: inject("databaseUrl"),
      keyPrefix: testKeyPrefix("limits"),
      env: {
        STAFF_ACTIONS_PER_MINUTE: String(ACTIONS),
        REPRINTS_PER_ORDER: String(PER_ORDER),
        REPRINTS_PER_PRINTER_PER_MINUTE: String(PER_PRINTER),
        // Nothing listens on the printers' port: their tickets wait, counted in the database.
        PRINTER_NETWORKS: "127.0.0.1/32",
        PRINTER_PORTS: "1024-65535",
      },
    });
    call = apiClient(server.url);
    db = new pg.Client({ connectionString: inject("databaseUrl") });
    await db.connect();
  });

  afterAll(async () => {
    await db?.end();
    const code = await server?.stop();
    if (code !== undefined && code !== 0) console.error(`limits server exited with ${code}:\n${server?.output().slice(-4000)}`);
  });

  // Each its own port: a host:port is one restaurant's (decision 0040).
  let nextPort = 19100;
  const addPrinter = async (t: TestTenant, name: string) =>
    expectStatus(
      await call<{ id: string }>("POST", org(t, "printers"), {
        key: t.apiKeys.manager,
        json: { name, host: "127.0.0.1", port: nextPort++, channels: ["api", "kiosk"] },
      }),
      201,
    ).id;
  const order = async (t: TestTenant) =>
    expectStatus(await call<OrderJson>("POST", org(t, "orders"), { key: t.apiKeys.cashier, json: { items: [{ name: "Tea", qty: 1 }], print: false } }), 201);
  const reprint = (t: TestTenant, o: OrderJson) => call("POST", org(t, `orders/${o.id}/print`), { key: t.apiKeys.cashier });
  const count = async (sql: string, tenantId: string) => Number((await db.query<{ n: string }>(sql, [tenantId])).rows[0]!.n);
  const reprinted = (t: TestTenant) => count(`SELECT count(*) AS n FROM "AuditEntry" WHERE "tenantId" = $1 AND "action" = 'printer.reprint'`, t.id);
  const ticketJobs = (t: TestTenant) => count(`SELECT count(*) AS n FROM "PrintJob" WHERE "tenantId" = $1`, t.id);

  it(`REST: ${PER_ORDER} reprints of an order, then 429 with Retry-After; ${PER_PRINTER} per printer a minute; nothing queued or audited beyond`, async () => {
    await addPrinter(rest, "Counter");
    const [a, b] = [await order(rest), await order(rest)];
    const jobsBefore = await ticketJobs(rest);
    for (let i = 0; i < PER_ORDER; i++) expectStatus(await reprint(rest, a), 202);
    const perOrder = await reprint(rest, a);
    const refusal = expectApiError(perOrder, 429, "RATE_LIMITED");
    expect(refusal.message).toBe(`This ticket has been reprinted ${PER_ORDER} times already: no more reprints of it today.`);
    expect(Number(perOrder.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);

    // The printer has had 3 of its 5: order b gets 2, then the printer's minute is used.
    for (let i = 0; i < PER_PRINTER - PER_ORDER; i++) expectStatus(await reprint(rest, b), 202);
    const perPrinter = await reprint(rest, b);
    expect(expectApiError(perPrinter, 429, "RATE_LIMITED").message).toMatch(/^This printer has had 5 reprints in the last minute: wait \d+ s and try again\.$/);
    expect(Number(perPrinter.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);

    expect(await ticketJobs(rest)).toBe(jobsBefore + PER_PRINTER);
    expect(await reprinted(rest)).toBe(PER_PRINTER);
  });

  it(`the kiosk's actions: ${ACTIONS} a minute per session, then refused in the screen's language before any work; nothing printed or audited beyond`, async () => {
    const printerId = await addPrinter(kiosk, "Kiosk");
    const orders = [await order(kiosk), await order(kiosk), await order(kiosk)];
    const session = (await signInOverHttp(server!.url, kiosk.slug, "CASHIER", kiosk.staff.cashier)).sessionCookie!;
    const jobsBefore = await ticketJobs(kiosk);
    const answers = [];
    // Reprints of three orders (at most 2 each: no order's or printer's cap is met) from one session.
    for (let i = 0; i < 6; i++) {
      const fields = { tenant: kiosk.slug, orderId: orders[i % 3]!.id, printer: printerId };
      answers.push(
        (await kioskAction(server!.url, kiosk.slug, "reprintTicket", fields, `nextup_session=${session}`, i === 5 ? "?lang=zh-CN" : "?lang=en")).result,
      );
    }
    expect(answers.slice(0, ACTIONS).map((r) => r?.ok)).toEqual(Array(ACTIONS).fill(true));
    expect(answers[ACTIONS]).toMatchObject({ ok: false, code: "RATE_LIMITED" });
    expect((answers[ACTIONS] as { error: string }).error).toMatch(/^Too many actions from this screen in a minute: wait \d+ s and try again\.$/);
    expect((answers[5] as { error: string }).error).toMatch(/^这个屏幕一分钟内操作太多：请等 \d+ 秒再试。$/);
    expect(await ticketJobs(kiosk)).toBe(jobsBefore + ACTIONS);
    expect(await reprinted(kiosk)).toBe(ACTIONS);

    // Another session of the same restaurant has its own minute.
    const other = (await signInOverHttp(server!.url, kiosk.slug, "CASHIER", kiosk.staff.cashier)).sessionCookie!;
    const fresh = await kioskAction(server!.url, kiosk.slug, "readKiosk", { tenant: kiosk.slug }, `nextup_session=${other}`);
    expect(fresh.result?.ok).toBe(true);
  });

  it("an anonymous placeOrder is told to sign in before its form is read", async () => {
    const junk = { tenant: kiosk.slug, itemName: "Tea", itemQty: "-4", intent: "nonsense" };
    const anonymous = await kioskAction(server!.url, kiosk.slug, "placeOrder", junk, "", "?lang=en");
    expect(anonymous.result).toMatchObject({ ok: false, code: "UNAUTHENTICATED" });
  });
});
