/**
 * Production on one box (decision 0047): the production build started as `npm start` with
 * no DATABASE_URL, no REDIS_URL, no SESSION_SECRET. It is given only what keeps it apart
 * from a developer's own `.data` and from the rest of the run: EMBEDDED_PG_DIR (a fresh
 * temporary data folder), EMBEDDED_PG_PORT and PORT (free ports), REDIS_KEY_PREFIX (the
 * machine's Redis may be shared) and NEXT_TELEMETRY_DISABLED. It must run on the embedded
 * PostgreSQL, keep its session secret in the data folder, create no demo, say how to create
 * a restaurant, let `npm run org -- create` work without DATABASE_URL (with the server
 * running, and without it), and serve a board opened from another address of the box
 * (127.0.0.2) live, with no dev badge, and print tickets a phone can open.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { trackChild } from "../support/child-registry";
import { runScript } from "../support/cli";
import { freePort } from "../support/ports";
import { lanAddress } from "@/lib/server/http/public-origin.server";
import { expect, signIn, test } from "./fixtures";

test.describe.configure({ timeout: 300_000 });

const dataDir = mkdtempSync(path.join(tmpdir(), "nextup-one-box-"));
// As root, PostgreSQL runs as the 'postgres' user (see startEmbeddedPostgres): it must reach its folder.
chmodSync(dataDir, 0o755);
const pgDir = path.join(dataDir, "postgres");
const isolation = (pgPort: number) => ({ EMBEDDED_PG_DIR: pgDir, EMBEDDED_PG_PORT: String(pgPort) });

/**
 * `npm run org -- create …` with no DATABASE_URL (spawned directly: npm adds banner lines to stdout), on this test's
 * folder and port: a PostgreSQL it starts for itself must not meet another on the default port (a shop's own).
 */
const orgCreate = (slug: string, name: string, pgPort: number) =>
  runScript("scripts/org.ts", ["create", slug, "--name", name, "--timezone", "Europe/Berlin"], isolation(pgPort));

let server: ChildProcess | null = null;
let output = "";

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server!.once("exit", r));
    server.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
  }
  // A PostgreSQL a failed test left running on the temporary folder: stopped by its own pid.
  const pid = Number(existsSync(path.join(pgDir, "postmaster.pid")) ? readFileSync(path.join(pgDir, "postmaster.pid"), "utf8").split("\n")[0] : NaN);
  if (Number.isInteger(pid) && pid > 0) {
    try {
      process.kill(pid, "SIGINT");
      for (let i = 0; i < 50 && existsSync(path.join(pgDir, "postmaster.pid")); i++) await new Promise((r) => setTimeout(r, 100));
    } catch {
      // already gone
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
});

test("npm start with no environment runs production on one box: no demo, org create without DATABASE_URL, a live board from another address", async ({
  browser,
  request,
}) => {
  const port = await freePort();
  const pgPort = await freePort();
  server = trackChild(
    spawn(process.execPath, ["--import", "tsx", "server.ts"], {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        NODE_ENV: "production", // what `npm start` sets
        PORT: String(port),
        ...isolation(pgPort),
        REDIS_KEY_PREFIX: `nextup-test:one-box:${randomBytes(4).toString("hex")}:`,
        NEXT_TELEMETRY_DISABLED: "1",
      },
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );
  server.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  server.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  // HOST is the default (0.0.0.0): every address of the box.
  const box = (host: string) => `http://${host}:${port}`;
  await expect
    .poll(
      async () => {
        if (server?.exitCode !== null) throw new Error(`the server exited with ${server?.exitCode}:\n${output}`);
        return (await fetch(`${box("127.0.0.1")}/api/health`).catch(() => null))?.status ?? 0;
      },
      { timeout: 180_000, intervals: [500] },
    )
    .toBe(200);
  await expect.poll(() => output, { timeout: 30_000 }).toContain("No restaurant yet");

  // The banner: the mode, where the data lives, how to create a restaurant here.
  expect(output).toContain("Nextup in production on one box");
  expect(output).toContain(`embedded PostgreSQL in ${pgDir}`);
  expect(output).toContain(`EMBEDDED_PG_DIR=${pgDir} npm run org -- create`);
  // The secret is kept in the data folder, the owner's only, and never printed.
  const secretFile = path.join(dataDir, "session-secret");
  expect(statSync(secretFile).mode & 0o777).toBe(0o600);
  const secret = readFileSync(secretFile, "utf8").trim();
  expect(secret.length).toBeGreaterThanOrEqual(32);
  expect(output).not.toContain(secret);
  // No demo restaurant.
  expect(output).not.toContain("Demo Diner");
  expect((await request.get(`${box("127.0.0.1")}/demo/board`)).status()).toBe(404);

  // With the server running, the CLI uses its database.
  const created = await orgCreate("one-box-noodles", "One Box Noodles", pgPort);
  expect(created.code, created.stderr).toBe(0);
  expect(created.stderr).toContain("the running server's");
  const shop = JSON.parse(created.stdout) as { slug: string; apiKeys: { cashier: string }; staff: { cashier: string } };

  // A TV opening the board at another address of the box: the production build, live.
  const ctx = await browser.newContext({ baseURL: box("127.0.0.2") });
  const board = await ctx.newPage();
  await board.goto(`${box("127.0.0.2")}/${shop.slug}/board`);
  await expect(board.getByTestId("connection")).toHaveAttribute("data-state", "live", { timeout: 30_000 });
  await expect(board.locator("nextjs-portal")).toHaveCount(0); // Next's dev indicator
  await expect(board.locator("body")).not.toContainText("Compiling");
  // An order from a till at a third address reaches it.
  const res = await request.post(`${box("127.0.0.3")}/api/v1/orgs/${shop.slug}/orders`, {
    headers: { authorization: `Bearer ${shop.apiKeys.cashier}` },
    data: { items: [{ name: "Noodles", qty: 1 }] },
  });
  expect(res.status()).toBe(201);
  const order = (await res.json()) as { number: number };
  await expect(
    board
      .getByTestId("preparing")
      .getByTestId("board-number")
      .filter({ hasText: new RegExp(`^${order.number}$`) }),
  ).toBeVisible();

  // A kiosk on the box itself (a loopback address, which no phone reaches): its ticket links to the box's LAN address (read, never contacted).
  const kiosk = await ctx.newPage();
  await signIn(kiosk, shop.slug, "Cashier", shop.staff.cashier);
  await kiosk.goto(`/${shop.slug}/kiosk?lang=en`);
  await kiosk.getByTestId("item-name-0").fill("Dumplings");
  await kiosk.getByRole("button", { name: "Take order" }).click();
  const issued = (await kiosk.getByTestId("issued-number").textContent())!.trim();
  const link = (await kiosk
    .getByRole("article", { name: `Ticket for order ${issued}` })
    .getByTestId("ticket-url")
    .textContent())!.trim();
  const lan = lanAddress();
  expect(link).toMatch(new RegExp(`^${(lan ? `${lan}:${port}` : `127.0.0.2:${port}`).replace(/\./g, "\\.")}/${shop.slug}/o/[0-9a-f-]{36}$`));
  // The customer's page itself answers at any address of the box.
  const customer = await ctx.newPage();
  await customer.goto(`${box("127.0.0.3")}${link.slice(link.indexOf("/"))}`);
  await expect(customer.getByTestId("order-number")).toHaveText(issued);
  await ctx.close();

  // Stopped, the server stops its database; the CLI then starts it for itself, and stops it.
  const exited = new Promise<number | null>((r) => server!.once("exit", (code) => r(code)));
  server.kill("SIGTERM");
  expect(await exited).toBe(0);
  expect(existsSync(path.join(pgDir, "postmaster.pid"))).toBe(false);
  const alone = await orgCreate("one-box-dumplings", "One Box Dumplings", pgPort);
  expect(alone.code, alone.stderr).toBe(0);
  expect(alone.stderr).toContain("started for this command");
  expect((JSON.parse(alone.stdout) as { slug: string }).slug).toBe("one-box-dumplings");
  expect(existsSync(path.join(pgDir, "postmaster.pid"))).toBe(false);
  // `npm run db:migrate` needs no DATABASE_URL either: the server migrated this database at start.
  const migrate = await runScript("scripts/db-migrate.ts", [], isolation(pgPort));
  expect(migrate.code, migrate.stderr).toBe(0);
  expect(migrate.stderr).toContain("started for this command");
  expect(migrate.stderr).toContain("the database is up to date");
  expect(existsSync(path.join(pgDir, "postmaster.pid"))).toBe(false);
});
