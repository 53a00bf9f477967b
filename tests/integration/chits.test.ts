/**
 * Kitchen chits per station printer and the figures per station (issue #40), end to end: a
 * real app server, PostgreSQL, Redis and the ESC/POS printer stand-in. A Bar with a printer
 * and a Grill without one: each order's Bar part prints one chit (only the Bar's lines, the
 * whole note, no QR code), written in the order's own transaction; `"print": false` skips the
 * customer's ticket, not the chit; a refused order writes none; the stats answer per station.
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
import { decodeEscPos } from "../support/escpos-decode";
import { eventually } from "../support/until";

const org = (slug: string, rest: string) => `/api/v1/orgs/${slug}/${rest}`;
const ALLERGY =
  "Severe peanut allergy: no peanuts, no peanut oil, no satay; rinse the shaker and the jigger first, and ask the manager if unsure about any syrup";

interface JobJson {
  id: string;
  printerId: string;
  kind: string;
  stationId: string | null;
  orderId: string | null;
  state: string;
}
interface Spread {
  samples: number;
  p50: number | null;
  p90: number | null;
}
interface StationFiguresJson {
  id: string;
  name: string;
  parts: number;
  timeToDone: Spread;
  shared: number;
  last: number;
}

describe("kitchen chits", () => {
  let db: TestDatabase;
  let app: AppServer;
  let call: Api;
  let sql: pg.Client;
  let t: TestTenant;
  let plain: TestTenant;
  let bar: PrinterStandIn;
  let counter: PrinterStandIn;
  const ids = { barPrinter: "", counterPrinter: "", grill: "", bar: "", ribeye: "", lemonade: "", pie: "" };

  const as = (tenant: TestTenant, role: "manager" | "cashier" | "kitchen") => tenant.apiKeys[role];
  const post = async <T>(tenant: TestTenant, path: string, json: unknown, status = 201, role: "manager" | "cashier" | "kitchen" = "manager") =>
    expectStatus(await call<T>("POST", org(tenant.slug, path), { key: as(tenant, role), json }), status);
  const order = (tenant: TestTenant, json: Record<string, unknown>) => post<OrderJson>(tenant, "orders", json, 201, "cashier");
  const jobsOf = async (orderId: string) =>
    (
      await sql.query<{ kind: string; stationId: string | null; printerId: string }>(
        `SELECT "kind", "stationId"::text AS "stationId", "printerId"::text AS "printerId" FROM "PrintJob" WHERE "orderId" = $1 ORDER BY "seq"`,
        [orderId],
      )
    ).rows;

  beforeAll(async () => {
    db = await createTestDatabase("chits");
    const slugs = { main: uniqueSlug("chit-main"), plain: uniqueSlug("chit-plain") };
    const made = await provisionTenants(db.url, [stableDaySpec(slugs.main, "Grill House"), stableDaySpec(slugs.plain, "Noodle Bar")]);
    t = made[slugs.main]!;
    plain = made[slugs.plain]!;
    app = await startAppServer({
      databaseUrl: db.url,
      keyPrefix: testKeyPrefix("chits"),
      env: {
        PRINTER_NETWORKS: "127.0.0.1/32",
        PRINTER_PORTS: "1024-65535",
        PUBLIC_URL: "http://chits.nextup.test",
        SESSION_SECRET: randomBytes(32).toString("hex"),
      },
    });
    call = apiClient(app.url);
    sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
    [bar, counter] = await Promise.all([startPrinterStandIn(), startPrinterStandIn()]);

    const printer = async (tenant: TestTenant, name: string, p: PrinterStandIn, channels: string[]) =>
      (await post<{ id: string }>(tenant, "printers", { name, host: p.address.host, port: p.address.port, channels })).id;
    ids.barPrinter = await printer(t, "Bar printer", bar, []);
    ids.counterPrinter = await printer(t, "Counter", counter, ["api"]);
    ids.grill = (await post<{ id: string }>(t, "stations", { name: "Grill" })).id;
    ids.bar = (await post<{ id: string }>(t, "stations", { name: "Bar", printerId: ids.barPrinter })).id;
    const food = (await post<{ id: string }>(t, "menu/categories", { name: "Food" })).id;
    const item = async (name: string, stationId: string, available = true) =>
      (await post<{ id: string }>(t, "menu/items", { categoryId: food, name, priceCents: 900, stationId, available })).id;
    ids.ribeye = await item("Ribeye", ids.grill);
    ids.lemonade = await item("Lemonade", ids.bar);
    ids.pie = await item("Peanut pie", ids.bar, false);
  });
  afterAll(async () => {
    await sql?.end();
    await app?.stop();
    await Promise.all([bar?.stop(), counter?.stop()]);
    await db?.drop();
  });

  it("the Bar's part prints one chit in the order's transaction: only its lines, the whole note, no QR code; no ticket with print false", async () => {
    const placed = await order(t, {
      items: [
        { menuItemId: ids.ribeye, qty: 2 },
        { menuItemId: ids.lemonade, qty: 3 },
        { name: "Extra fries", qty: 1 },
      ],
      note: ALLERGY,
      channel: "delivery",
      print: false,
    });
    expect((placed as OrderJson & { stations: { name: string }[] }).stations.map((p) => p.name)).toEqual(["Grill", "Bar"]);

    const jobs = await jobsOf(placed.id);
    expect(jobs.map(({ kind, stationId, printerId }) => ({ kind, stationId, printerId }))).toEqual([
      { kind: "chit", stationId: ids.bar, printerId: ids.barPrinter },
    ]);

    const [bytes] = await bar.waitForJobs(1, 15_000);
    const chit = decodeEscPos(bytes!, "latin");
    const text = chit.lines.join("\n");
    expect(chit.scales).toContainEqual({ text: "Bar", width: 2, height: 2 });
    expect(chit.scales).toContainEqual({ text: placed.display, width: 6, height: 6 });
    expect(chit.lines).toContain("3 × Lemonade");
    expect(text).not.toContain("Ribeye");
    expect(text).not.toContain("Extra fries");
    expect(text).not.toMatch(/9[.,]00/);
    expect(chit.lines.filter(Boolean).join(" ")).toContain(`Note: ${ALLERGY}`);
    expect(chit.lines.some((l) => l.startsWith("Delivery "))).toBe(true);
    expect(chit.qr).toEqual([]);
    // No QR code command at all (GS ( k), not just none decoded.
    expect(bytes!.includes(Buffer.from([0x1d, 0x28, 0x6b]))).toBe(false);
    expect(chit.cuts).toBe(1);

    const listed = await eventually(
      "the chit marked printed",
      async () =>
        expectStatus(await call<{ jobs: JobJson[] }>("GET", org(t.slug, `print-jobs?printerId=${ids.barPrinter}`), { key: t.apiKeys.manager }), 200).jobs,
      (js) => js[0]?.state === "printed",
    );
    expect(listed[0]).toMatchObject({ kind: "chit", stationId: ids.bar, orderId: placed.id });
    expect(counter.jobs()).toHaveLength(0);
  });

  it("with the ticket printing too: the ticket on the counter (all lines, QR code), the chit on the bar; a Grill-only order prints no chit", async () => {
    const before = bar.jobs().length;
    const placed = await order(t, {
      items: [
        { menuItemId: ids.ribeye, qty: 1 },
        { menuItemId: ids.lemonade, qty: 1 },
      ],
    });
    expect((await jobsOf(placed.id)).map((j) => [j.kind, j.printerId])).toEqual([
      ["ticket", ids.counterPrinter],
      ["chit", ids.barPrinter],
    ]);
    const [ticket] = await counter.waitForJobs(1, 15_000);
    const decoded = decodeEscPos(ticket!, "latin");
    // Each line with what it comes to (no currency set: the amount alone).
    expect(decoded.lines).toContainEqual(expect.stringMatching(/^1 × Ribeye +9\.00$/));
    expect(decoded.qr).toHaveLength(1);
    const chits = await bar.waitForJobs(before + 1, 15_000);
    const chit = decodeEscPos(chits.at(-1)!, "latin");
    expect(chit.lines).toContain("1 × Lemonade");
    expect(chit.lines.join("\n")).not.toContain("Ribeye");

    const grillOnly = await order(t, { items: [{ menuItemId: ids.ribeye, qty: 1 }], print: false });
    expect(await jobsOf(grillOnly.id)).toEqual([]);
  });

  it("a refused order (a sold-out dish) writes no chit and prints nothing", async () => {
    const [{ n: before }] = (await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "PrintJob"`)).rows as [{ n: number }];
    const printed = bar.jobs().length;
    expectApiError(
      await call("POST", org(t.slug, "orders"), {
        key: t.apiKeys.cashier,
        json: {
          items: [
            { menuItemId: ids.lemonade, qty: 1 },
            { menuItemId: ids.pie, qty: 1 },
          ],
        },
      }),
      409,
      "CONFLICT",
    );
    const [{ n: after }] = (await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "PrintJob"`)).rows as [{ n: number }];
    expect(after).toBe(before);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(bar.jobs()).toHaveLength(printed);
  });

  it("the chit is written in the order's transaction: a chit the database refuses takes the order with it", async () => {
    // This file's own database: a trigger refuses the chit of an order with this note.
    await sql.query(`
      CREATE FUNCTION refuse_chit() RETURNS trigger AS $$
      BEGIN
        IF NEW."kind" = 'chit' AND (SELECT "note" FROM "Order" WHERE "id" = NEW."orderId") = 'refuse my chit' THEN
          RAISE EXCEPTION 'chit refused by the test';
        END IF;
        RETURN NEW;
      END $$ LANGUAGE plpgsql;
      CREATE TRIGGER refuse_chit BEFORE INSERT ON "PrintJob" FOR EACH ROW EXECUTE FUNCTION refuse_chit();`);
    try {
      // Not through the contract-checked client: a 500 is what this test expects.
      const res = await fetch(`${app.url}${org(t.slug, "orders")}`, {
        method: "POST",
        headers: { authorization: `Bearer ${t.apiKeys.cashier}`, "content-type": "application/json" },
        body: JSON.stringify({ items: [{ menuItemId: ids.lemonade, qty: 1 }], note: "refuse my chit", print: false }),
      });
      expect(res.status).toBe(500);
      const stored = await sql.query(`SELECT 1 FROM "Order" WHERE "note" = 'refuse my chit'`);
      expect(stored.rowCount).toBe(0);
    } finally {
      await sql.query(`DROP TRIGGER refuse_chit ON "PrintJob"; DROP FUNCTION refuse_chit();`);
    }
  });

  it("a restaurant whose stations have no printer prints its tickets as before, and no chit", async () => {
    const p = await startPrinterStandIn();
    try {
      const printerId = (await post<{ id: string }>(plain, "printers", { name: "Counter", host: p.address.host, port: p.address.port, channels: ["api"] })).id;
      await post(plain, "stations", { name: "Wok" });
      const placed = await order(plain, { items: [{ name: "Beef noodles", qty: 2 }], note: "no coriander" });
      expect((await jobsOf(placed.id)).map((j) => [j.kind, j.stationId, j.printerId])).toEqual([["ticket", null, printerId]]);
      const [bytes] = await p.waitForJobs(1, 15_000);
      expect(decodeEscPos(bytes!, "latin").qr).toHaveLength(1);
    } finally {
      await p.stop();
    }
  });

  it("the stats answer per station: parts, time to done, and which station finished orders last", async () => {
    const done = (orderId: string, stationId: string) => post<OrderJson>(t, `orders/${orderId}/stations/${stationId}/done`, undefined, 200, "kitchen");
    // Three orders at both stations: the Grill finishes the first last, the Bar the other two.
    const both = [];
    for (let i = 0; i < 3; i++)
      both.push(
        await order(t, {
          items: [
            { menuItemId: ids.ribeye, qty: 1 },
            { menuItemId: ids.lemonade, qty: 1 },
          ],
          print: false,
        }),
      );
    await done(both[0]!.id, ids.bar);
    await done(both[0]!.id, ids.grill);
    for (const o of both.slice(1)) {
      await done(o.id, ids.grill);
      await done(o.id, ids.bar);
    }
    const stats = expectStatus(await call<{ stations: StationFiguresJson[] }>("GET", org(t.slug, "stats"), { key: t.apiKeys.manager }), 200);
    const [grill, barFigures] = stats.stations;
    // Earlier tests took 3 orders with a Grill part (one with a Bar part too) and 2 with a Bar part, none done.
    expect(grill).toMatchObject({ id: ids.grill, name: "Grill", parts: 6, shared: 3, last: 1 });
    expect(barFigures).toMatchObject({ id: ids.bar, name: "Bar", parts: 5, shared: 3, last: 2 });
    expect(grill!.timeToDone.samples).toBe(3);
    expect(barFigures!.timeToDone.samples).toBe(3);
    expect(grill!.timeToDone.p50).toBeGreaterThan(0);
    expect(grill!.timeToDone.p90!).toBeGreaterThanOrEqual(grill!.timeToDone.p50!);

    const none = expectStatus(await call<{ stations: StationFiguresJson[] }>("GET", org(plain.slug, "stats"), { key: plain.apiKeys.manager }), 200);
    expect(none.stations).toHaveLength(1);
    expect(none.stations[0]).toMatchObject({ name: "Wok", parts: 1, timeToDone: { samples: 0, p50: null, p90: null }, shared: 0, last: 0 });
  });

  it("a noodle order with options, a line's note and take away (issue #41): the ticket and the Bar's chit print them, the ticket with prices", async () => {
    const food = (await post<{ id: string }>(t, "menu/categories", { name: "Noodles" })).id;
    const noodles = (
      await post<{ id: string }>(t, "menu/items", {
        categoryId: food,
        name: "Beef noodles",
        priceCents: 1250,
        stationId: ids.bar,
        optionGroups: [
          { name: "Size", required: true, options: [{ name: "Small" }, { name: "Large", priceCents: 200 }] },
          { name: "Spice", required: true, options: [{ name: "Mild" }, { name: "Extra spicy" }] },
        ],
      })
    ).id;
    const [tickets, chits] = [counter.jobs().length, bar.jobs().length];
    const placed = await order(t, {
      items: [{ menuItemId: noodles, qty: 2, options: ["Extra spicy", "Large"], note: "no coriander" }],
      service: "takeAway",
    });

    // This order's ticket and chit by their big number: an earlier test's job may still come in after them.
    const ofThisOrder = async (printer: typeof counter, before: number) => {
      for (let n = before + 1; ; n++) {
        const jobs = (await printer.waitForJobs(n, 15_000)).slice(before).map((j) => decodeEscPos(j, "latin"));
        const mine = jobs.find((d) => d.scales.some((x) => x.text === placed.display && x.width === 6));
        if (mine) return mine;
      }
    };
    const ticket = await ofThisOrder(counter, tickets);
    expect(ticket.scales).toContainEqual({ text: "TAKE AWAY", width: 2, height: 2 });
    // 48 columns: "2 × ", the dish in the middle, "29.00" (2 × 14.50) on the right.
    const at = ticket.lines.findIndex((l) => l.startsWith("2 × Beef noodles"));
    expect(ticket.lines[at]).toMatch(/^2 × Beef noodles · Large · Extra spicy +29\.00$/);
    expect(ticket.lines[at + 1]).toBe("no coriander");
    expect(ticket.lines).toContain("Total 29.00");

    const chit = await ofThisOrder(bar, chits);
    expect(chit.scales).toContainEqual({ text: "TAKE AWAY", width: 2, height: 2 });
    expect(chit.scales).toContainEqual({ text: "Beef noodles · Large · Extra spicy", width: 1, height: 2 });
    expect(chit.lines).toContain("2 × Beef noodles · Large · Extra spicy");
    expect(chit.lines).toContain("no coriander");
    expect(chit.lines.join("\n")).not.toMatch(/29[.,]00/);
  });
});
