import { describe, expect, it } from "vitest";
import { checkReadiness, type ReadinessProbes } from "@/lib/server/ops/readiness.server";

const healthy = (): ReadinessProbes => ({
  database: async () => true,
  redis: async () => true,
  appliedMigrations: async () => ["001_init", "002_menu"],
  expectedMigrations: async () => ["001_init", "002_menu"],
  stopping: () => false,
  redisRequired: true,
  replication: () => "async",
});

describe("checkReadiness", () => {
  it("is ready when every check passes", async () => {
    expect(await checkReadiness(healthy())).toEqual({
      status: "ready",
      checks: { database: "up", redis: "up", migrations: "applied", node: "running" },
      // Told, never a reason to be unready (decision 0028).
      replication: "async",
      checkedAt: expect.any(String),
    });
  });

  it("names each failing check", async () => {
    const down = await checkReadiness({ ...healthy(), database: async () => false, appliedMigrations: () => Promise.reject(new Error("ECONNREFUSED")) });
    expect(down).toMatchObject({ status: "unready", failing: ["database", "migrations"], checks: { database: "down", migrations: "unknown" } });
    expect(await checkReadiness({ ...healthy(), redis: () => Promise.reject(new Error("timeout")) })).toMatchObject({ status: "unready", failing: ["redis"] });
    expect(await checkReadiness({ ...healthy(), expectedMigrations: async () => ["001_init", "002_menu", "003_new"] })).toMatchObject({
      status: "unready",
      failing: ["migrations"],
      checks: { migrations: "pending" },
    });
    // No bookkeeping table yet while the database answers: nothing was migrated.
    expect(await checkReadiness({ ...healthy(), appliedMigrations: () => Promise.reject(new Error("relation does not exist")) })).toMatchObject({
      failing: ["migrations"],
      checks: { migrations: "pending" },
    });
    expect(await checkReadiness({ ...healthy(), stopping: () => true })).toMatchObject({ status: "unready", failing: ["node"], checks: { node: "stopping" } });
  });

  it("reports Redis down but stays ready when Redis is not required", async () => {
    expect(await checkReadiness({ ...healthy(), redis: async () => false, redisRequired: false })).toEqual({
      status: "ready",
      checks: { database: "up", redis: "down", migrations: "applied", node: "running" },
      replication: "async",
      checkedAt: expect.any(String),
    });
  });
});
