/**
 * Printers that map nothing (decision 0040), on real app servers, PostgreSQL and Redis: a
 * closed port, a silent one and one that drops every connection read the same to a manager
 * (status and last error); a cashier's key sees names and status only; a host:port is one
 * restaurant's unless PRINTER_SHARED_ADDRESSES=allow (and PRINTER_ERRORS=detailed gives the
 * detail back); with printing off, the answer is one sentence naming no address.
 */
import net from "node:net";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/db";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { type Api, apiClient, expectApiError, expectStatus } from "../support/http";
import { startAppServer, testKeyPrefix, type AppServer } from "../support/app-server";
import { startPrinterStandIn, type PrinterStandIn } from "../support/printer-stand-in";
import { eventually } from "../support/until";

const org = (slug: string, rest: string) => `/api/v1/orgs/${slug}/${rest}`;

interface PrinterJson {
  id: string;
  name: string;
  host?: string;
  port?: number;
  status: string;
  checkedAt: string | null;
  lastError?: string | null;
}

/** A port nothing listens on: a server's, closed. */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", () => r()));
  const { port } = s.address() as net.AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** A port that accepts and resets every connection at once. */
async function droppingPort(): Promise<{ port: number; stop: () => Promise<void> }> {
  const s = net.createServer((socket) => socket.resetAndDestroy());
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", () => r()));
  return { port: (s.address() as net.AddressInfo).port, stop: () => new Promise<void>((r) => s.close(() => r())) };
}

describe("printers that map nothing", () => {
  let db: TestDatabase;
  let app: AppServer | null = null;
  let call: Api;
  let a: TestTenant;
  let b: TestTenant;
  const keyPrefix = testKeyPrefix("prmap");
  const base = { PRINTER_NETWORKS: "127.0.0.1/32", PRINTER_PORTS: "1024-65535", SESSION_SECRET: randomBytes(32).toString("hex") };
  const stops: (() => Promise<void>)[] = [];
  const start = async (env: Record<string, string>) => {
    await app?.stop();
    app = await startAppServer({ databaseUrl: db.url, keyPrefix, env });
    call = apiClient(app.url);
  };
  const add = (tenant: TestTenant, name: string, host: string, port: number) =>
    call<PrinterJson>("POST", org(tenant.slug, "printers"), { key: tenant.apiKeys.manager, json: { name, host, port } });
  const list = async (tenant: TestTenant, key: string) =>
    expectStatus(await call<{ printers: PrinterJson[] }>("GET", org(tenant.slug, "printers"), { key }), 200).printers;

  beforeAll(async () => {
    db = await createTestDatabase("printer_privacy");
    const slugs = [uniqueSlug("prm-a"), uniqueSlug("prm-b")];
    const made = await provisionTenants(
      db.url,
      slugs.map((s) => stableDaySpec(s, "Noodle Bar")),
    );
    [a, b] = [made[slugs[0]!]!, made[slugs[1]!]!];
  });
  afterAll(async () => {
    await app?.stop();
    await Promise.all(stops.map((s) => s()));
    await db?.drop();
  });

  it("closed, silent and dropping printers read one sentence to a manager (unreachable ones offline for the cashier); a cashier's key sees names and status only", async () => {
    await start(base);
    const silent: PrinterStandIn = await startPrinterStandIn({ mode: "silent" });
    stops.push(() => silent.stop());
    const dropping = await droppingPort();
    stops.push(dropping.stop);
    const ports = { closed: await closedPort(), silent: silent.address.port, dropping: dropping.port };
    const ids: Record<string, string> = {};
    for (const [name, port] of Object.entries(ports)) {
      const made = expectStatus(await add(a, name, "127.0.0.1", port), 201);
      ids[name] = made.id;
      expectStatus(await call("POST", org(a.slug, `printers/${made.id}/test`), { key: a.apiKeys.manager }), 202);
    }
    const seen = await eventually(
      "every printer asked and answered nothing",
      () => list(a, a.apiKeys.manager),
      (ps) => ps.length === 3 && ps.every((p) => p.checkedAt !== null && p.lastError),
    );
    // One sentence for all three. A port that cannot be reached is offline, so the cashier is told
    // the ticket waits; the silent one took the test page's bytes (its job printed), which no
    // status could hide, and reads unknown as a printer without status replies does (decision 0040).
    expect(new Set(seen.map((p) => p.lastError))).toEqual(new Set(["the printer did not answer"]));
    expect(Object.fromEntries(seen.map((p) => [p.name, p.status]))).toEqual({ closed: "offline", dropping: "offline", silent: "unknown" });

    const cashier = await list(a, a.apiKeys.cashier);
    expect(cashier.map((p) => Object.keys(p).sort())).toEqual(
      cashier.map(() => ["channels", "charset", "checkedAt", "id", "name", "paper", "queued", "series", "status"]),
    );
    expect(JSON.stringify(cashier)).not.toContain("127.0.0.1");
    const manager = await list(a, a.apiKeys.manager);
    expect(manager.every((p) => p.host === "127.0.0.1" && typeof p.port === "number" && "lastError" in p)).toBe(true);
  });

  it("a host:port is one restaurant's: another's is refused in the sentence of any refused address", async () => {
    await start(base);
    const port = await closedPort();
    expectStatus(await add(a, "Shared", "127.0.0.1", port), 201);
    const refused = expectApiError(await add(b, "Theirs", "127.0.0.1", port), 400, "BAD_INPUT");
    const outside = expectApiError(await add(b, "Outside", "10.0.0.9", port), 400, "BAD_INPUT");
    expect(refused.message).toBe("this printer address is not allowed");
    expect(refused).toEqual(outside);
    // The mapped form is the same address.
    expect(expectApiError(await add(b, "Mapped", "::ffff:127.0.0.1", port), 400, "BAD_INPUT")).toEqual(outside);
    // Moving a printer of B onto it is refused too.
    const other = expectStatus(await add(b, "Other", "127.0.0.1", await closedPort()), 201);
    const moved = await call("PATCH", org(b.slug, `printers/${other.id}`), { key: b.apiKeys.manager, json: { port } });
    expect(expectApiError(moved, 400, "BAD_INPUT")).toEqual(outside);
  });

  it("PRINTER_SHARED_ADDRESSES=allow lets restaurants share an address; PRINTER_ERRORS=detailed shows what happened", async () => {
    await start({ ...base, PRINTER_SHARED_ADDRESSES: "allow", PRINTER_ERRORS: "detailed" });
    const port = await closedPort();
    expectStatus(await add(a, "Both A", "127.0.0.1", port), 201);
    const theirs = expectStatus(await add(b, "Both B", "127.0.0.1", port), 201);
    expectStatus(await call("POST", org(b.slug, `printers/${theirs.id}/test`), { key: b.apiKeys.manager }), 202);
    const seen = await eventually(
      "the shared printer checked",
      async () => (await list(b, b.apiKeys.manager)).find((p) => p.id === theirs.id)!,
      (p) => Boolean(p.lastError),
    );
    expect(seen.lastError).toMatch(/refused/);
  });

  it("with printing off, a host name is answered in one sentence that names no address", async () => {
    await start({ SESSION_SECRET: base.SESSION_SECRET });
    const res = await add(a, "VM", "localhost", 9100);
    const e = expectApiError(res, 400, "BAD_INPUT");
    expect(e.message).toBe("printing to network printers is off on this server");
    expect(JSON.stringify(res.body)).not.toMatch(/127\.0\.0\.1|::1/);
  });
});
