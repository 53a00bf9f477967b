/**
 * Tickets printed by the server (decision 0029), end to end: real app servers, PostgreSQL,
 * Redis, and a printer stand-in on a local TCP port that records the bytes and answers the
 * ESC/POS status requests. What arrives is decoded and checked (number, items, Chinese
 * text, the QR code's URL, the cut); a printer that is off prints its waiting tickets in
 * order when it is back; too old a ticket is given up and shown; tickets queued before a
 * kill -9 print after the restart; two nodes never print one ticket twice; addresses
 * outside PRINTER_NETWORKS / PRINTER_PORTS are refused.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/db";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { type Api, apiClient, contractFetch, expectApiError, expectStatus, type OrderJson } from "../support/http";
import { startAppServer, testKeyPrefix, type AppServer } from "../support/app-server";
import { startPrinterStandIn, type PrinterStandIn } from "../support/printer-stand-in";
import { decodeEscPos } from "../support/escpos-decode";
import { eventually } from "../support/until";
import { scrape, valueOf } from "../support/prometheus";
import { createPrisma } from "@/lib/adapters/postgres/prisma.server";
import { pruneOldPrintJobs, PRINT_JOBS_KEPT_DAYS } from "@/lib/adapters/postgres/print-queue.server";

const org = (slug: string, rest: string) => `/api/v1/orgs/${slug}/${rest}`;
const PUBLIC_URL = "http://tickets.nextup.test:8080";
const METRICS_TOKEN = randomBytes(16).toString("hex");

interface PrinterJson {
  id: string;
  name: string;
  host: string;
  port: number;
  paper: string;
  charset: string;
  channels: string[];
  series: string[];
  status: string;
  checkedAt: string | null;
  lastError: string | null;
  queued: number;
}
interface JobJson {
  id: string;
  printerId: string;
  kind: string;
  orderId: string | null;
  display: string | null;
  state: string;
  attempts: number;
  lastError: string | null;
}

describe("network printers", () => {
  let db: TestDatabase;
  let app: AppServer;
  let call: Api;
  let t: Record<"main" | "zh" | "other" | "crash", TestTenant>;
  const keyPrefix = testKeyPrefix("print");
  const env = { PRINTER_NETWORKS: "127.0.0.1/32", PRINTER_PORTS: "1024-65535", PUBLIC_URL, METRICS_TOKEN, SESSION_SECRET: randomBytes(32).toString("hex") };
  const start = () => startAppServer({ databaseUrl: db.url, keyPrefix, env });
  const printers: PrinterStandIn[] = [];
  const standIn = async () => {
    const p = await startPrinterStandIn();
    printers.push(p);
    return p;
  };

  const addPrinter = async (tenant: TestTenant, p: PrinterStandIn, extra: Record<string, unknown> = {}) =>
    expectStatus(
      await call<PrinterJson>("POST", org(tenant.slug, "printers"), {
        key: tenant.apiKeys.manager,
        json: { name: `Counter ${p.address.port}`, host: p.address.host, port: p.address.port, channels: ["api"], ...extra },
      }),
      201,
    );
  const order = async (tenant: TestTenant, json: Record<string, unknown> = {}, via: Api = call) =>
    expectStatus(await via<OrderJson>("POST", org(tenant.slug, "orders"), { key: tenant.apiKeys.cashier, json }), 201);
  const jobs = async (tenant: TestTenant, printerId?: string) =>
    expectStatus(
      await call<{ jobs: JobJson[] }>("GET", org(tenant.slug, `print-jobs${printerId ? `?printerId=${printerId}` : ""}`), { key: tenant.apiKeys.manager }),
      200,
    ).jobs;
  const printerOf = async (tenant: TestTenant, id: string) =>
    expectStatus(await call<{ printers: PrinterJson[] }>("GET", org(tenant.slug, "printers"), { key: tenant.apiKeys.manager }), 200).printers.find(
      (p) => p.id === id,
    )!;
  /** The displayed number each received ticket prints at the largest scale. */
  const numbersOn = (p: PrinterStandIn, charset: "latin" | "gb18030" = "latin") =>
    p.jobs().map((bytes) => {
      const d = decodeEscPos(bytes, charset);
      return [...d.scales].sort((a, b) => b.height - a.height)[0]!.text;
    });

  beforeAll(async () => {
    db = await createTestDatabase("printing");
    const slugs = { main: uniqueSlug("pr-main"), zh: uniqueSlug("pr-zh"), other: uniqueSlug("pr-other"), crash: uniqueSlug("pr-crash") };
    const made = await provisionTenants(
      db.url,
      Object.values(slugs).map((s) => stableDaySpec(s, s === slugs.zh ? "面馆" : "Noodle Bar")),
    );
    t = { main: made[slugs.main]!, zh: made[slugs.zh]!, other: made[slugs.other]!, crash: made[slugs.crash]! };
    app = await start();
    call = apiClient(app.url);
  });
  afterAll(async () => {
    await app?.stop();
    await Promise.all(printers.map((p) => p.stop()));
    await db?.drop();
  });

  it("prints an order's ticket without a dialog: the number at its largest, the items, the note, the QR code of the customer's page, a cut", async () => {
    const p = await standIn();
    const printer = await addPrinter(t.main, p);
    expect(printer).toMatchObject({ host: "127.0.0.1", port: p.address.port, paper: "80mm", charset: "latin", channels: ["api"], queued: 0 });

    const placed = await order(t.main, {
      items: [
        { name: "Beef noodles", qty: 2 },
        { name: "Crème brûlée", qty: 1 },
      ],
      note: "no coriander",
    });
    const [bytes] = await p.waitForJobs(1, 15_000);
    const ticket = decodeEscPos(bytes!, "latin");
    const biggest = [...ticket.scales].sort((a, b) => b.height - a.height)[0]!;
    expect(biggest.text).toBe(placed.display);
    expect(biggest.height).toBe(6);
    expect(ticket.qr).toEqual([`${PUBLIC_URL}/${t.main.slug}/o/${placed.id}`]);
    expect(ticket.cuts).toBe(1);
    const text = ticket.lines.join("\n");
    expect(text).toContain("Noodle Bar");
    expect(text).toMatch(/2\s*×\s*Beef noodles/);
    expect(text).toMatch(/1\s*×\s*Crème brûlée/);
    expect(text).toContain("no coriander");
    // The printer was asked how it was before the ticket.
    expect(p.statusQueries()).toBeGreaterThanOrEqual(3);

    const [job] = await eventually(
      "the job marked printed",
      () => jobs(t.main, printer.id),
      (js) => js[0]?.state === "printed",
    );
    expect(job).toMatchObject({ orderId: placed.id, display: placed.display, kind: "ticket", attempts: 1, lastError: null });
    expect((await printerOf(t.main, printer.id)).status).toBe("ok");
  });

  it('prints Chinese in the printer\'s GB18030 mode; "print": false prints nothing; a reprint prints again', async () => {
    const p = await standIn();
    const printer = await addPrinter(t.zh, p, { charset: "gb18030", paper: "58mm" });
    const skipped = await order(t.zh, { items: [{ name: "牛肉面", qty: 1 }], print: false });
    const placed = await order(t.zh, {
      items: [
        { name: "牛肉面", qty: 2 },
        { name: "酸梅汤", qty: 1 },
      ],
      note: "不要香菜",
    });
    const [bytes] = await p.waitForJobs(1, 15_000);
    const ticket = decodeEscPos(bytes!, "gb18030");
    const text = ticket.lines.join("\n");
    expect(text).toContain("面馆");
    expect(text).toMatch(/2\s*×\s*牛肉面/);
    expect(text).toMatch(/1\s*×\s*酸梅汤/);
    expect(text).toContain("不要香菜");
    expect(ticket.qr).toEqual([`${PUBLIC_URL}/${t.zh.slug}/o/${placed.id}`]);

    // Only the second order printed: the first said "print": false and has no job at all.
    const listed = await eventually(
      "the job printed",
      () => jobs(t.zh),
      (js) => js[0]?.state === "printed",
    );
    expect(listed.map((j) => j.orderId)).toEqual([placed.id]);
    expect(listed.some((j) => j.orderId === skipped.id)).toBe(false);

    const again = expectStatus(await call<JobJson>("POST", org(t.zh.slug, `orders/${placed.id}/print`), { key: t.zh.apiKeys.cashier }), 202);
    expect(again).toMatchObject({ orderId: placed.id, printerId: printer.id, state: "queued" });
    const both = await p.waitForJobs(2, 15_000);
    expect(decodeEscPos(both[1]!, "gb18030").qr).toEqual([`${PUBLIC_URL}/${t.zh.slug}/o/${placed.id}`]);
    // An order no printer is set up for: a 409 that says so.
    const counter = await order(t.other, {});
    expectApiError(await call("POST", org(t.other.slug, `orders/${counter.id}/print`), { key: t.other.apiKeys.cashier }), 409, "CONFLICT");
    // A test page names the printer.
    expectStatus(await call<JobJson>("POST", org(t.zh.slug, `printers/${printer.id}/test`), { key: t.zh.apiKeys.manager }), 202);
    const withTest = await p.waitForJobs(3, 15_000);
    expect(decodeEscPos(withTest[2]!, "gb18030").lines.join("\n")).toContain(printer.name);
  });

  it("a printer switched off keeps its tickets and prints them in order when it is back; paper out waits too", async () => {
    const p = await standIn();
    const printer = await addPrinter(t.other, p, { channels: ["phone"] });
    await p.stop();
    const placed = [];
    for (let i = 0; i < 4; i++) placed.push(await order(t.other, { channel: "phone", items: [{ name: `Dish ${i}`, qty: 1 }] }));
    const waiting = await eventually(
      "the printer seen not answering with 4 waiting",
      () => printerOf(t.other, printer.id),
      (v) => v.lastError !== null && v.queued === 4,
    );
    // A closed port is offline (its tickets wait), in the one sentence of decision 0040.
    expect(waiting).toMatchObject({ status: "offline", lastError: "the printer did not answer" });
    // All wait; the oldest, the one the printer was tried for, says why. A drain retrying the
    // printer may hold the oldest at this moment ("printing", nothing sent): still waiting.
    const queuedJobs = await jobs(t.other, printer.id);
    expect(queuedJobs.map((j) => (j.state === "printing" ? "queued" : j.state))).toEqual(["queued", "queued", "queued", "queued"]);
    expect(queuedJobs.filter((j) => j.state === "printing").length).toBeLessThanOrEqual(1);
    expect(queuedJobs.at(-1)!.lastError).toBe("the printer did not answer");
    expect(p.jobs()).toHaveLength(0);

    await p.start();
    await p.waitForJobs(4, 20_000);
    expect(numbersOn(p)).toEqual(placed.map((o) => o.display));
    await eventually(
      "the printer ok with none waiting",
      () => printerOf(t.other, printer.id),
      (v) => v.status === "ok" && v.queued === 0,
    );

    // Out of paper: the ticket waits, and prints when paper is in.
    p.mode = "paperOut";
    const late = await order(t.other, { channel: "phone" });
    await eventually(
      "the printer seen out of paper",
      () => printerOf(t.other, printer.id),
      (v) => v.status === "paperOut" && v.queued === 1,
    );
    expect(p.jobs()).toHaveLength(4);
    p.mode = "online";
    await p.waitForJobs(5, 20_000);
    expect(numbersOn(p)[4]).toBe(late.display);
  });

  it("a ticket older than the restaurant's give-up age is given up and shown, and the next one prints", async () => {
    const p = await standIn();
    const printer = await addPrinter(t.main, p, { name: "Give-up printer", channels: [], series: [] });
    expectStatus(await call("PUT", org(t.main.slug, "settings"), { key: t.main.apiKeys.manager, json: { printGiveUpMinutes: 1 } }), 200);
    await p.stop();
    const stale = await order(t.main, {});
    expectStatus(
      await call<JobJson>("POST", org(t.main.slug, `orders/${stale.id}/print`), { key: t.main.apiKeys.cashier, json: { printerId: printer.id } }),
      202,
    );
    // Two minutes pass for that job (the database's clock is the judge, as in production).
    const sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
    try {
      await sql.query(`UPDATE "PrintJob" SET "createdAt" = now() - interval '2 minutes' WHERE "printerId" = $1`, [printer.id]);
    } finally {
      await sql.end();
    }
    const [gone] = await eventually(
      "the stale job given up",
      () => jobs(t.main, printer.id),
      (js) => js[0]?.state === "gaveUp",
    );
    expect(gone).toMatchObject({ orderId: stale.id, lastError: "not printed within 1 minute" });
    await p.start();
    const fresh = await order(t.main, {});
    expectStatus(
      await call<JobJson>("POST", org(t.main.slug, `orders/${fresh.id}/print`), { key: t.main.apiKeys.cashier, json: { printerId: printer.id } }),
      202,
    );
    await p.waitForJobs(1, 20_000);
    expect(numbersOn(p)).toEqual([fresh.display]);
    const samples = await scrape(app.url, METRICS_TOKEN);
    expect(valueOf(samples, "nextup_print_jobs_total", { outcome: "gave_up" })).toBeGreaterThanOrEqual(1);
    expect(valueOf(samples, "nextup_print_jobs_total", { outcome: "printed" })).toBeGreaterThanOrEqual(1);
    expectStatus(await call("PUT", org(t.main.slug, "settings"), { key: t.main.apiKeys.manager, json: { printGiveUpMinutes: 10 } }), 200);
  });

  it("tickets queued before a kill -9 print after the restart; two nodes print each ticket once", async () => {
    const p = await standIn();
    await addPrinter(t.crash, p);
    // Out of paper rather than off: a stopped stand-in's port could be handed to the new node.
    p.mode = "paperOut";
    const before = [];
    for (let i = 0; i < 3; i++) before.push(await order(t.crash, {}));
    await eventually(
      "3 tickets waiting",
      () => jobs(t.crash),
      (js) => js.length === 3 && js.every((j) => j.state === "queued"),
    );
    await app.stop("SIGKILL");
    app = await start();
    const second = await start();
    call = apiClient(app.url);
    const other = apiClient(second.url);
    try {
      expect(p.jobs()).toHaveLength(0);
      p.mode = "online";
      // At worst the killed node held the printer: its hold lapses within 20 s, and a sweep comes every 15 s.
      await p.waitForJobs(3, 60_000);
      expect(numbersOn(p)).toEqual(before.map((o) => o.display));
      // 12 more, half through each node, concurrently.
      const more = await Promise.all(Array.from({ length: 12 }, (_, i) => order(t.crash, {}, i % 2 ? other : call)));
      await p.waitForJobs(15, 30_000);
      // Give a duplicate time to show up, then count.
      await new Promise((r) => setTimeout(r, 2_000));
      const printed = numbersOn(p);
      expect(printed).toHaveLength(15);
      expect(new Set(printed).size).toBe(15);
      expect(new Set(printed)).toEqual(new Set([...before, ...more].map((o) => o.display)));
    } finally {
      await second.stop();
    }
  });

  it("without PUBLIC_URL, behind a trusted proxy, a reprint's QR code opens the address the proxy forwarded", async () => {
    const behind = await startAppServer({ databaseUrl: db.url, keyPrefix, env: { ...env, PUBLIC_URL: "", TRUST_PROXY: "loopback" } });
    try {
      const p = await standIn();
      const printer = await addPrinter(t.main, p, { name: "Proxy", channels: [], series: [] });
      const placed = await order(t.main, {});
      const forwarded = { "x-forwarded-host": "queue.example.com", "x-forwarded-proto": "https" };
      const res = await contractFetch(`${behind.url}${org(t.main.slug, `orders/${placed.id}/print`)}`, {
        method: "POST",
        headers: { authorization: `Bearer ${t.main.apiKeys.cashier}`, "content-type": "application/json", ...forwarded },
        body: JSON.stringify({ printerId: printer.id }),
      });
      expect(res.status).toBe(202);
      const [bytes] = await p.waitForJobs(1, 15_000);
      expect(decodeEscPos(bytes!, "latin").qr).toEqual([`https://queue.example.com/${t.main.slug}/o/${placed.id}`]);
    } finally {
      await behind.stop();
    }
  });

  it("printed and given-up jobs are deleted after the days kept; waiting ones never", async () => {
    const p = await standIn();
    const printer = await addPrinter(t.other, p, { name: "Prune", channels: [], series: [] });
    const placed = await order(t.other, {});
    expectStatus(
      await call<JobJson>("POST", org(t.other.slug, `orders/${placed.id}/print`), { key: t.other.apiKeys.cashier, json: { printerId: printer.id } }),
      202,
    );
    await eventually(
      "printed",
      () => jobs(t.other, printer.id),
      (js) => js[0]?.state === "printed",
    );
    await p.stop();
    expectStatus(
      await call<JobJson>("POST", org(t.other.slug, `orders/${placed.id}/print`), { key: t.other.apiKeys.cashier, json: { printerId: printer.id } }),
      202,
    );
    const prisma = createPrisma(db.url);
    try {
      // Both jobs ten days old: the printed one goes, the one still waiting stays.
      await prisma.$executeRaw`UPDATE "PrintJob" SET "createdAt" = now() - interval '10 days' WHERE "printerId" = ${printer.id}::uuid`;
      expect(await pruneOldPrintJobs(prisma, PRINT_JOBS_KEPT_DAYS)).toBeGreaterThanOrEqual(1);
      const left = await prisma.printJob.findMany({ where: { printerId: printer.id } });
      // Waiting: queued, or claimed by a drain trying the printer that does not answer (it is tried: decision 0040).
      expect(left.map((j) => (j.state === "printing" ? "queued" : j.state))).toEqual(["queued"]);
    } finally {
      await prisma.$disconnect();
    }
  });

  it("refuses addresses and ports the operator did not name, other roles and other restaurants", async () => {
    const refused = async (json: Record<string, unknown>, pattern: RegExp) => {
      const err = expectApiError(
        await call("POST", org(t.other.slug, "printers"), { key: t.other.apiKeys.manager, json: { name: "Bad", port: 9100, ...json } }),
        400,
        "BAD_INPUT",
      );
      expect(err.message).toMatch(pattern);
    };
    await refused({ host: "192.168.1.50" }, /^this printer address is not allowed$/);
    await refused({ host: "169.254.169.254" }, /^this printer address is not allowed$/);
    await refused({ host: "127.0.0.1", port: 22 }, /^this printer port is not allowed$/);
    await refused({ host: "http://127.0.0.1/" }, /host/i);
    const list = expectStatus(await call<{ printers: PrinterJson[] }>("GET", org(t.other.slug, "printers"), { key: t.other.apiKeys.manager }), 200);
    expect(list.printers.map((x) => x.name)).not.toContain("Bad");

    const p = await standIn();
    expectApiError(
      await call("POST", org(t.other.slug, "printers"), { key: t.other.apiKeys.cashier, json: { name: "Till", host: "127.0.0.1", port: p.address.port } }),
      403,
      "FORBIDDEN",
    );
    const mine = await addPrinter(t.main, p, { name: "Main only", channels: [] });
    const other = t.other.apiKeys.manager;
    expectApiError(await call("PATCH", org(t.other.slug, `printers/${mine.id}`), { key: other, json: { name: "Mine now" } }), 404, "NOT_FOUND");
    expectApiError(await call("DELETE", org(t.other.slug, `printers/${mine.id}`), { key: other }), 404, "NOT_FOUND");
    expectApiError(await call("POST", org(t.other.slug, `printers/${mine.id}/test`), { key: other }), 404, "NOT_FOUND");
    expect((await jobs(t.other, mine.id)).length).toBe(0);
    // A patch that names a port outside PRINTER_PORTS changes nothing.
    expectApiError(await call("PATCH", org(t.main.slug, `printers/${mine.id}`), { key: t.main.apiKeys.manager, json: { port: 80 } }), 400, "BAD_INPUT");
    expect((await printerOf(t.main, mine.id)).port).toBe(p.address.port);
    const removed = expectStatus(await call<PrinterJson>("DELETE", org(t.main.slug, `printers/${mine.id}`), { key: t.main.apiKeys.manager }), 200);
    expect(removed.id).toBe(mine.id);
  });
});
