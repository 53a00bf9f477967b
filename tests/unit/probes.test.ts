/**
 * The probes read the dependencies once per second at most, whatever the traffic, and share
 * a reading still running (decision 0042); a node told to stop is unready at once, from the
 * reading it has, not after it expires.
 */
import { describe, expect, it } from "vitest";
import { readMigrationFolders } from "@/lib/adapters/postgres/migrate.server";
import { sharedReading } from "@/lib/server/ops/readiness.server";
import { createProbes } from "@/lib/server/wiring/probes.server";

describe("sharedReading", () => {
  it("hands a reading in flight to every caller, reuses it for maxAge after it began, then reads again", async () => {
    let clock = 0;
    let reads = 0;
    const pending: (() => void)[] = [];
    const read = sharedReading(
      () => new Promise<number>((resolve) => pending.push(() => resolve(++reads))),
      1_000,
      () => clock,
    );
    const first = [read(), read(), read()];
    expect(pending).toHaveLength(1);
    // Slower than maxAge: still one reading, shared.
    clock = 2_500;
    first.push(read());
    expect(pending).toHaveLength(1);
    pending[0]!();
    expect(await Promise.all(first)).toEqual([1, 1, 1, 1]);
    // Finished but begun 2.5 s ago: read again, once.
    const second = [read(), read()];
    expect(pending).toHaveLength(2);
    pending[1]!();
    expect(await Promise.all(second)).toEqual([2, 2]);
    clock = 3_499;
    expect(await read()).toBe(2);
    expect(pending).toHaveLength(2);
    clock = 3_500;
    void read();
    expect(pending).toHaveLength(3);
  });
});

describe("createProbes", () => {
  it("answers a burst of probes from one reading, and unready at once when the node stops", async () => {
    const applied = (await readMigrationFolders()).map((f) => ({ migration_name: f.name }));
    const queries: string[] = [];
    let pings = 0;
    let stopping = false;
    const db = {
      $queryRaw: (sql: TemplateStringsArray) => {
        queries.push(sql.join("?"));
        return Promise.resolve(sql.join("?").includes("_prisma_migrations") ? applied : [{ "?column?": 1 }]);
      },
    };
    const probes = createProbes({
      env: { READY_REQUIRES_REDIS: true },
      db: db as never,
      redis: { ping: () => (pings++, Promise.resolve("PONG")) } as never,
      issuer: { source: () => "redis" } as never,
      replication: { replication: () => "none", historyWatch: () => "watched" } as never,
      leader: () => true,
      backup: () => ({ state: "off" }),
      stopping: () => stopping,
    });
    const answers = await Promise.all([...Array.from({ length: 50 }, () => probes.readiness()), ...Array.from({ length: 50 }, () => probes.health())]);
    expect(answers.slice(0, 50).every((r) => "checks" in r && r.status === "ready")).toBe(true);
    expect(answers.slice(50).every((h) => h.status === "ok")).toBe(true);
    // One database query, one migrations query and one Redis ping for all 100.
    expect(queries).toHaveLength(2);
    expect(pings).toBe(1);
    const { checkedAt } = answers[0]!;
    stopping = true;
    expect(await probes.readiness()).toMatchObject({ status: "unready", failing: ["node"], checks: { node: "stopping" }, checkedAt });
    expect(queries).toHaveLength(2);
  });
});
