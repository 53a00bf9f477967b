/**
 * The provisioning CLI (`npm run org -- create ...`, i.e. scripts/org.ts) as a real child
 * process against the run's database: what it prints, that its keys work against the
 * running server, that only hashes are stored, and how it refuses bad arguments.
 * (Spawned as `node --import tsx scripts/org.ts` directly: `npm run` would add its own
 * banner lines to stdout.)
 */
import { boardKey } from "@/lib/core/orders";
import { createHash } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { runScript, type CliRun } from "../support/cli";
import { createEmptyTestDatabase, type TestDatabase } from "../support/db";
import { uniqueSlug } from "../support/fixtures";
import { apiClient, expectStatus, type OrderJson } from "../support/http";

const databaseUrl = inject("databaseUrl");
const call = apiClient(inject("baseUrl"));

const org = (args: string[], env: Record<string, string> = { DATABASE_URL: databaseUrl }) =>
  runScript("scripts/org.ts", args, { NODE_ENV: "production", ...env });

let db: pg.Client;
beforeAll(async () => {
  db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
});

async function tenantExists(slug: string): Promise<boolean> {
  const { rowCount } = await db.query(`SELECT 1 FROM "Tenant" WHERE slug = $1`, [slug]);
  return rowCount === 1;
}

interface Created {
  id: string;
  slug: string;
  name: string;
  timeZone: string;
  dayStart: string;
  apiKeys: { manager: string; cashier: string; kitchen: string };
  staff: { manager: string; cashier: string; kitchen: string };
}

describe("org create", () => {
  const slug = uniqueSlug("cli");
  let run: CliRun;
  /** The printed object (every test parses stdout itself, so each can run alone). */
  const printed = () => JSON.parse(run.stdout) as Created;

  beforeAll(async () => {
    run = await org(["create", slug, "--name", "Xi'an Noodle Bar", "--timezone", "Asia/Shanghai", "--day-starts", "04:00"]);
  });

  it("exits 0 and prints exactly one JSON object with the tenant, its API keys and staff codes", () => {
    expect({ code: run.code, stderr: run.stderr }).toMatchObject({ code: 0 });
    // The whole of stdout is one JSON document, and it is an object.
    const created = printed();
    expect(created).not.toBeNull();
    expect(typeof created).toBe("object");
    expect(Array.isArray(created)).toBe(false);
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      slug,
      name: "Xi'an Noodle Bar",
      timeZone: "Asia/Shanghai",
      dayStart: "04:00",
      apiKeys: {
        manager: expect.stringMatching(/^nxu_mgr_[0-9a-f]{16}_[A-Za-z0-9_-]{20,64}$/),
        cashier: expect.stringMatching(/^nxu_csh_[0-9a-f]{16}_[A-Za-z0-9_-]{20,64}$/),
        kitchen: expect.stringMatching(/^nxu_kit_[0-9a-f]{16}_[A-Za-z0-9_-]{20,64}$/),
      },
      staff: {
        manager: expect.stringMatching(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/),
        cashier: expect.stringMatching(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/),
        kitchen: expect.stringMatching(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/),
      },
    });
    const secrets = [...Object.values(created.apiKeys), ...Object.values(created.staff)];
    expect(new Set(secrets).size).toBe(6);
    // Secrets go to stdout only, never to stderr (which ends up in logs).
    for (const s of secrets) expect(run.stderr).not.toContain(s);
  });

  it("the printed cashier key works against the running server", async () => {
    const created = printed();
    const res = await call<OrderJson>("POST", `/api/v1/orgs/${slug}/orders`, {
      key: created.apiKeys.cashier,
      json: { items: [{ name: "Biangbiang noodles", qty: 1 }] },
    });
    expect(expectStatus(res, 201)).toMatchObject({ status: "PLACED", items: [{ name: "Biangbiang noodles", qty: 1 }] });
    const board = await call<{ preparing: { key: string }[] }>("GET", `/api/v1/orgs/${slug}/board`);
    expect(expectStatus(board, 200).preparing.map((o) => o.key)).toContain(boardKey(res.body));
  });

  it("stores only hashes: no plain API key or staff code anywhere in the tenant's rows", async () => {
    const created = printed();
    const keys = await db.query<{ role: string; prefix: string; keyHash: string }>(
      `SELECT role, prefix, "keyHash" FROM "ApiKey" WHERE "tenantId" = $1 ORDER BY role`,
      [created.id],
    );
    expect(keys.rows.map((r) => r.role)).toEqual(["MANAGER", "CASHIER", "KITCHEN"]);
    const byRole = { MANAGER: created.apiKeys.manager, CASHIER: created.apiKeys.cashier, KITCHEN: created.apiKeys.kitchen } as Record<string, string>;
    for (const row of keys.rows) {
      const plain = byRole[row.role]!;
      expect(row.keyHash).toBe(createHash("sha256").update(plain).digest("hex"));
      expect(row.prefix).toBe(plain.split("_")[2]);
    }

    const staff = await db.query<{ role: string; secretHash: string }>(`SELECT role, "secretHash" FROM "StaffCredential" WHERE "tenantId" = $1`, [created.id]);
    expect(staff.rows.map((r) => r.role).sort()).toEqual(["CASHIER", "KITCHEN", "MANAGER"]);
    for (const row of staff.rows) expect(row.secretHash).toMatch(/^\$argon2id\$/);

    // Every column of every row of the tenant, as text: no secret, and no secret part of a key.
    const dump = await db.query<{ row: string }>(
      `SELECT t::text AS row FROM "Tenant" t WHERE id = $1
       UNION ALL SELECT k::text FROM "ApiKey" k WHERE "tenantId" = $1
       UNION ALL SELECT s::text FROM "StaffCredential" s WHERE "tenantId" = $1`,
      [created.id],
    );
    expect(dump.rows).toHaveLength(7);
    const text = dump.rows.map((r) => r.row).join("\n");
    for (const key of Object.values(created.apiKeys)) {
      expect(text).not.toContain(key);
      expect(text).not.toContain(key.split("_").slice(3).join("_"));
    }
    for (const code of Object.values(created.staff)) {
      expect(text).not.toContain(code);
      expect(text).not.toContain(code.replaceAll("-", ""));
    }
  });
});

describe("org create on a fresh database (no migrations applied yet)", () => {
  const fresh: TestDatabase[] = [];
  afterAll(async () => {
    for (const d of fresh) await d.drop();
  });
  async function freshDatabase(): Promise<{ url: string; tables: () => Promise<string[]> }> {
    const d = await createEmptyTestDatabase("cli_fresh");
    fresh.push(d);
    const tables = async () => {
      const client = new pg.Client({ connectionString: d.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`);
        return rows.map((r) => r.name);
      } finally {
        await client.end();
      }
    };
    return { url: d.url, tables };
  }

  it("applies the migrations first, as the server's start does, then creates the restaurant", async () => {
    const d = await freshDatabase();
    expect(await d.tables()).toEqual([]);
    const run = await org(["create", "first", "--name", "First Diner", "--timezone", "Europe/Berlin"], { DATABASE_URL: d.url });
    expect({ code: run.code, stderr: run.stderr }).toMatchObject({ code: 0 });
    expect(JSON.parse(run.stdout)).toMatchObject({ slug: "first", name: "First Diner", timeZone: "Europe/Berlin" });
    expect(run.stderr).toMatch(/applied \d+ migration\(s\)/);
    expect(await d.tables()).toEqual(expect.arrayContaining(["Tenant", "StaffCredential", "ApiKey", "_prisma_migrations"]));

    // Migrated now: the next restaurant applies none.
    const second = await org(["create", "second", "--name", "Second Diner", "--timezone", "Asia/Shanghai"], { DATABASE_URL: d.url });
    expect({ code: second.code, stderr: second.stderr }).toMatchObject({ code: 0 });
    expect(second.stderr).not.toMatch(/applied/);
    expect(JSON.parse(second.stdout)).toMatchObject({ slug: "second" });
  });

  it("with MIGRATE_ON_START=false leaves the schema alone and says in one line what to run", async () => {
    const d = await freshDatabase();
    const run = await org(["create", "first", "--name", "First Diner", "--timezone", "Europe/Berlin"], { DATABASE_URL: d.url, MIGRATE_ON_START: "false" });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^error: [^\n]*npm run db:migrate[^\n]*\n$/);
    expect(await d.tables()).toEqual([]);
  });
});

describe("org create refuses bad arguments", () => {
  /** Asserts a failed run: non-zero exit, a message on stderr matching `problem`, nothing on stdout. */
  function expectRefused(run: CliRun, problem: RegExp) {
    expect(run.code).not.toBe(0);
    expect(run.code).not.toBeNull();
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^error: /);
    expect(run.stderr).toMatch(problem);
  }

  it("an unknown time zone", async () => {
    const slug = uniqueSlug("cli-tz");
    const run = await org(["create", slug, "--name", "X", "--timezone", "Mars/Olympus_Mons", "--day-starts", "04:00"]);
    expectRefused(run, /time zone/i);
    expect(run.stderr).toContain("Mars/Olympus_Mons");
    expect(await tenantExists(slug)).toBe(false);
  });

  it("a slug that is taken", async () => {
    const run = await org(["create", "alpha", "--name", "Another Alpha", "--timezone", "Asia/Shanghai", "--day-starts", "04:00"]);
    expectRefused(run, /already taken/i);
    expect(run.stderr).toContain('"alpha"');
    const { rows } = await db.query<{ name: string }>(`SELECT name FROM "Tenant" WHERE slug = 'alpha'`);
    expect(rows).toEqual([{ name: "Alpha Noodles" }]);
  });

  it('a day start of "25:00"', async () => {
    const slug = uniqueSlug("cli-time");
    const run = await org(["create", slug, "--name", "X", "--timezone", "Asia/Shanghai", "--day-starts", "25:00"]);
    expectRefused(run, /day start/i);
    expect(run.stderr).toContain("25:00");
    expect(await tenantExists(slug)).toBe(false);
  });

  it("a language other than en or zh-CN", async () => {
    const slug = uniqueSlug("cli-lang");
    const run = await org(["create", slug, "--name", "X", "--timezone", "Asia/Shanghai", "--language", "fr"]);
    expectRefused(run, /language/i);
    expect(run.stderr).toMatch(/zh-CN/);
    expect(await tenantExists(slug)).toBe(false);
  });

  it("a missing --name", async () => {
    const slug = uniqueSlug("cli-noname");
    const run = await org(["create", slug, "--timezone", "Asia/Shanghai", "--day-starts", "04:00"]);
    expectRefused(run, /missing --name/);
    expect(await tenantExists(slug)).toBe(false);
  });

  it("a missing --timezone, a bad slug, an unknown command", async () => {
    expectRefused(await org(["create", uniqueSlug("cli-notz"), "--name", "X"]), /missing --timezone/);
    expectRefused(await org(["create", "Bad Slug!", "--name", "X", "--timezone", "Asia/Shanghai"]), /slug/i);
    expectRefused(await org(["delete", "alpha"]), /unknown command "delete"/);
  });

  // No DATABASE_URL is no refusal: the embedded database (tests/e2e/one-box.spec.ts, decision 0047).
  it("a malformed EMBEDDED_PG_PORT when there is no DATABASE_URL", async () => {
    expectRefused(
      await org(["create", uniqueSlug("cli-nodb"), "--name", "X", "--timezone", "Asia/Shanghai"], {
        EMBEDDED_PG_PORT: "eighty",
        EMBEDDED_PG_DIR: "/nonexistent",
      }),
      /EMBEDDED_PG_PORT must be a port/,
    );
  });
});
