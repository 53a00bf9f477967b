/**
 * Print jobs fenced by the drain that holds them (decision 0033), on real PostgreSQL: a
 * drain's writes after another claimed its job change nothing, a claimed job never goes to
 * a drain that does not hold the printer; and the reproduction of issue #35 with two app
 * nodes: a node frozen (SIGSTOP) mid-step past its hold, the other node printing the
 * ticket, the frozen one resumed — the printer receives the ticket once.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/db";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { apiClient, expectStatus, type OrderJson } from "../support/http";
import { startAppServer, testKeyPrefix, type AppServer } from "../support/app-server";
import { startPrinterStandIn, type PrinterStandIn } from "../support/printer-stand-in";
import { decodeEscPos } from "../support/escpos-decode";
import { eventually } from "../support/until";
import { createPrisma } from "@/lib/adapters/postgres/prisma.server";
import { PrismaPrintLedger } from "@/lib/adapters/postgres/print-ledger.server";

const org = (slug: string, rest: string) => `/api/v1/orgs/${slug}/${rest}`;

describe("print jobs fenced by their holder", () => {
  let db: TestDatabase;
  let prisma: ReturnType<typeof createPrisma>;
  let ledger: PrismaPrintLedger;
  let tenants: Record<"ledger" | "nodes", TestTenant>;
  const printers: PrinterStandIn[] = [];

  beforeAll(async () => {
    db = await createTestDatabase("printfence");
    const slugs = { ledger: uniqueSlug("pf-ledger"), nodes: uniqueSlug("pf-nodes") };
    const made = await provisionTenants(db.url, [stableDaySpec(slugs.ledger, "Noodle Bar"), stableDaySpec(slugs.nodes, "Noodle Bar")]);
    tenants = { ledger: made[slugs.ledger]!, nodes: made[slugs.nodes]! };
    prisma = createPrisma(db.url, { max: 4 });
    ledger = new PrismaPrintLedger(prisma);
  });
  afterAll(async () => {
    await prisma?.$disconnect();
    await Promise.all(printers.map((p) => p.stop()));
    await db?.drop();
  });

  /** A printer with one waiting test page, straight in the database. */
  const printerWithJob = async () => {
    const printer = await prisma.printer.create({ data: { tenantId: tenants.ledger.id, name: `P ${randomUUID()}`, host: "127.0.0.1", port: 9100 } });
    const job = await prisma.printJob.create({ data: { tenantId: tenants.ledger.id, printerId: printer.id, kind: "test" } });
    return { printerId: printer.id, jobId: job.id };
  };
  /** Time passes for `holder`: its hold on the printer lapses (nothing else changes). */
  const lapse = (printerId: string) => prisma.$executeRaw`UPDATE "Printer" SET "drainingUntil" = now() - interval '1 second' WHERE "id" = ${printerId}::uuid`;
  const row = (jobId: string) =>
    prisma.printJob.findUniqueOrThrow({ where: { id: jobId }, select: { state: true, holder: true, sendingAt: true, attempts: true } });

  it("a drain's writes after another drain claimed its job change nothing", async () => {
    const { printerId, jobId } = await printerWithJob();
    const [a, b] = [randomUUID(), randomUUID()];
    expect(await ledger.hold(printerId, a)).toBe(true);
    expect(await ledger.claim(printerId, a)).toMatchObject({ id: jobId, state: "claimed" });
    // A stalls past its hold; B takes the printer and the job over.
    await lapse(printerId);
    expect(await ledger.hold(printerId, b)).toBe(true);
    expect(await ledger.claim(printerId, b)).toMatchObject({ id: jobId, state: "claimed" });
    const taken = await row(jobId);
    expect(taken).toEqual({ state: "printing", holder: b, sendingAt: null, attempts: 0 });

    // A comes back: every write it tries finds another holder.
    expect(await ledger.sending(jobId, a)).toBe(false);
    expect(await ledger.printed(jobId, a, new Date())).toBe(false);
    expect(await ledger.notPrinted(jobId, a, "stale")).toBe(false);
    expect(await ledger.gaveUp(jobId, a, new Date(), "stale")).toBe(false);
    expect(await ledger.claim(printerId, a)).toBeNull();
    expect(await row(jobId)).toEqual(taken);

    // B's own writes go through.
    expect(await ledger.sending(jobId, b)).toBe(true);
    expect(await ledger.printed(jobId, b, new Date())).toBe(true);
    expect(await row(jobId)).toMatchObject({ state: "printed", holder: b, attempts: 1 });
  });

  it("a claimed job never goes to a drain that does not hold the printer, and a taken-over job says it was being sent", async () => {
    const { printerId, jobId } = await printerWithJob();
    const [a, b] = [randomUUID(), randomUUID()];
    expect(await ledger.hold(printerId, a)).toBe(true);
    expect(await ledger.claim(printerId, a)).toMatchObject({ id: jobId });
    // B while A's hold is live: neither the printer nor the job.
    expect(await ledger.hold(printerId, b)).toBe(false);
    expect(await ledger.claim(printerId, b)).toBeNull();
    expect(await row(jobId)).toMatchObject({ state: "printing", holder: a });

    // A's bytes begin to go out, then A stalls: B finds the job as being sent, not as waiting.
    expect(await ledger.sending(jobId, a)).toBe(true);
    await lapse(printerId);
    expect(await ledger.sending(jobId, a)).toBe(false);
    expect(await ledger.hold(printerId, b)).toBe(true);
    expect(await ledger.claim(printerId, b)).toMatchObject({ id: jobId, state: "sending", attempts: 1 });
    // B may not send it (it is not B's to begin sending), only give it up.
    expect(await ledger.sending(jobId, b)).toBe(false);
    expect(await ledger.printed(jobId, a, new Date())).toBe(false);
    expect(await ledger.gaveUp(jobId, b, new Date(), "may have printed")).toBe(true);
    expect(await row(jobId)).toMatchObject({ state: "gaveUp", holder: b, attempts: 1 });
  });

  it("a node frozen mid-step past its hold, while the other node prints the ticket, prints nothing when it resumes", { timeout: 180_000 }, async () => {
    const env = { PRINTER_NETWORKS: "127.0.0.1/32", PRINTER_PORTS: "1024-65535", SESSION_SECRET: randomBytes(32).toString("hex") };
    const keyPrefix = testKeyPrefix("printfence");
    const t = tenants.nodes;
    const p = await startPrinterStandIn();
    printers.push(p);
    const first = await startAppServer({ databaseUrl: db.url, keyPrefix, env });
    let second: AppServer | null = null;
    const pid = first.proc.pid!;
    let frozen = false;
    try {
      const call = apiClient(first.url);
      const printer = expectStatus(
        await call<{ id: string }>("POST", org(t.slug, "printers"), {
          key: t.apiKeys.manager,
          json: { name: "Counter", host: p.address.host, port: p.address.port, channels: ["api"] },
        }),
        201,
      );
      // The first node's status query will wait for replies that do not come: it is mid-step, holding the printer.
      p.mode = "silent";
      const placed = expectStatus(await call<OrderJson>("POST", org(t.slug, "orders"), { key: t.apiKeys.cashier, json: {} }), 201);
      await eventually(
        "the first node holding the printer, asking it how it is",
        async () => ({
          held: (await prisma.printer.findUniqueOrThrow({ where: { id: printer.id } })).drainOwner !== null,
          open: p.openConnections(),
        }),
        (s) => s.held && s.open > 0,
      );
      process.kill(pid, "SIGSTOP");
      frozen = true;
      p.mode = "online";
      await eventually(
        "the first node's hold lapsed",
        async () =>
          (await prisma.$queryRaw<{ lapsed: boolean }[]>`SELECT "drainingUntil" < now() AS "lapsed" FROM "Printer" WHERE "id" = ${printer.id}::uuid`)[0]!
            .lapsed,
        (lapsed) => lapsed,
        60_000,
      );

      second = await startAppServer({ databaseUrl: db.url, keyPrefix, env });
      await p.waitForJobs(1, 60_000);
      const job = () => prisma.printJob.findFirstOrThrow({ where: { printerId: printer.id }, select: { state: true } });
      await eventually("the ticket marked printed", job, (j) => j.state === "printed");

      process.kill(pid, "SIGCONT");
      frozen = false;
      // The first node finishes its step: it either prints the ticket again or finds the job taken over.
      await eventually(
        "the first node done with its step",
        async () => ({ tickets: p.jobs().length, takenOver: first.output().includes("print job taken over by another drain") }),
        (s) => s.tickets > 1 || s.takenOver,
        60_000,
      );
      const numbers = p.jobs().map((bytes) => [...decodeEscPos(bytes, "latin").scales].sort((x, y) => y.height - x.height)[0]!.text);
      expect(numbers).toEqual([placed.display]);
      expect(await job()).toEqual({ state: "printed" });
    } finally {
      if (frozen) process.kill(pid, "SIGCONT");
      await second?.stop();
      await first.stop();
    }
  });
});
