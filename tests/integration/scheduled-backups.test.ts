/**
 * Scheduled backups (decision 0049) on real app servers, PostgreSQL and Redis: two nodes with
 * one backup folder make exactly one backup for the period (the leader claims its slot's
 * row), health and metrics say so, and the file restores into an empty database.
 */
import { PrismaBackupRunStore } from "@/lib/adapters/postgres/backup-runs.server";
import { createPrisma } from "@/lib/adapters/postgres/prisma.server";
import { createReadStream } from "node:fs";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { restoreBackup } from "@/lib/adapters/postgres/backup-restore.server";
import { createEmptyTestDatabase, createTestDatabase, type TestDatabase } from "../support/db";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { stableDaySpec, uniqueSlug } from "../support/fixtures";
import { apiClient, expectStatus } from "../support/http";
import { startAppServer, testKeyPrefix, type AppServer } from "../support/app-server";
import { eventually } from "../support/until";

const METRICS_TOKEN = randomBytes(16).toString("hex");

describe("scheduled backups", () => {
  let db: TestDatabase;
  let dir: string;
  let tenant: TestTenant;
  const servers: AppServer[] = [];
  const dbs: TestDatabase[] = [];

  beforeAll(async () => {
    db = await createTestDatabase("scheduled-backups");
    const slug = uniqueSlug("backups");
    tenant = (await provisionTenants(db.url, [stableDaySpec(slug, "Backed Up")]))[slug]!;
    dir = await mkdtemp(path.join(os.tmpdir(), "nextup-backups-"));
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await Promise.all(dbs.map((d) => d.drop()));
    await db?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it("two nodes with one folder make one backup for the period; health and metrics say so; it restores", async () => {
    const keyPrefix = testKeyPrefix("backups");
    // Orders before the nodes that back up start: the backup holds them.
    const first = await startAppServer({ databaseUrl: db.url, keyPrefix });
    for (let i = 0; i < 3; i++)
      expectStatus(await apiClient(first.url)("POST", `/api/v1/orgs/${tenant.slug}/orders`, { key: tenant.apiKeys.cashier, json: {} }), 201);
    await first.stop();

    const env = { BACKUP_DIR: dir, BACKUP_EVERY_MINUTES: "60", BACKUP_KEEP: "3", METRICS_TOKEN };
    const nodes = await Promise.all([0, 1].map(() => startAppServer({ databaseUrl: db.url, keyPrefix, env })));
    servers.push(...nodes);

    // Whichever node claims this hour's slot first writes its backup, once.
    const healths = async () =>
      Promise.all(nodes.map(async (n) => (await apiClient(n.url)<{ backup: { state: string; lastOk?: string | null } }>("GET", "/api/health")).body.backup));
    const seen = await eventually("a node reports the backup made", healths, (hs) => hs.some((h) => h.state === "ok"), 60_000);
    expect(seen.find((h) => h.state === "ok")!.lastOk).toEqual(expect.any(String));

    const files = (await readdir(dir)).filter((f) => f.endsWith(".nxb"));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^nextup-\d{4}-\d{2}-\d{2}T\d{4}Z\.nxb$/);
    expect((await stat(path.join(dir, files[0]!))).size).toBeGreaterThan(0);
    const sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
    try {
      const { rows } = await sql.query<{ n: number; ok: boolean }>(`SELECT count(*)::int AS n, bool_and(ok) AS ok FROM "BackupRun"`);
      expect(rows[0]).toEqual({ n: 1, ok: true });
    } finally {
      await sql.end();
    }
    // What every node reads each poll (one statement): that run as the latest and the last good one, one file kept.
    const prisma = createPrisma(db.url, { max: 1 });
    try {
      const summary = await new PrismaBackupRunStore(prisma).summary();
      expect(summary.kept).toBe(1);
      expect(summary.latest).toEqual(expect.objectContaining({ ok: true, file: path.join(dir, files[0]!), bytes: expect.any(Number) }));
      expect(summary.lastOk).toEqual(summary.latest);
    } finally {
      await prisma.$disconnect();
    }

    // The node that made it counted it.
    const scraped = await Promise.all(
      nodes.map(async (n) => (await fetch(`${n.url}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text()),
    );
    const made = scraped.map((text) => Number(/nextup_backups_total\{outcome="ok"\} (\d+)/.exec(text)?.[1] ?? "0"));
    expect(made.sort()).toEqual([0, 1]);

    // The file is a backup: it restores into an empty database with the orders.
    const target = await createEmptyTestDatabase("scheduled-restore");
    dbs.push(target);
    // The backup holds its own run (unfinished when the snapshot was taken): a restored database records no backup
    // made of it, so its console claims none and its first look makes one.
    const restored = await restoreBackup(target.url, createReadStream(path.join(dir, files[0]!)));
    expect(restored.orders).toBe(3);
    const after = new pg.Client({ connectionString: target.url });
    await after.connect();
    try {
      expect((await after.query<{ n: number }>(`SELECT count(*)::int AS n FROM "BackupRun"`)).rows[0]!.n).toBe(0);
    } finally {
      await after.end();
    }
  }, 180_000);
});
