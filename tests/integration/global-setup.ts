/**
 * One database, one Redis key prefix and one app server for the integration run.
 * Tests that need their own server (faults, limits) start one themselves. PostgreSQL and
 * Redis are found, or started for the run (tests/support/test-services.ts).
 */
import type { TestProject } from "vitest/node";
import { createTestDatabase } from "../support/db";
import { SHARED_SERVER_ENV, startAppServer, testKeyPrefix, testRedisUrl } from "../support/app-server";
import { provisionTenants, type TestTenant } from "../support/tenants";
import { providePostgres, provideRedis, tearDown, type Teardown } from "../support/test-services";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
    redisUrl: string;
    keyPrefix: string;
    tenants: Record<string, TestTenant>;
  }
}

export default async function setup(project: TestProject) {
  const teardowns: Teardown[] = [];
  try {
    teardowns.push(await providePostgres());
    teardowns.push(await provideRedis());
    const db = await createTestDatabase("integration");
    teardowns.push(() => db.drop());
    const keyPrefix = testKeyPrefix("it");
    const tenants = await provisionTenants(db.url, [
      { slug: "alpha", name: "Alpha Noodles", timeZone: "Asia/Shanghai" },
      { slug: "bravo", name: "Bravo Burgers", timeZone: "America/New_York" },
      { slug: "charlie", name: "Charlie Curry" },
    ]);
    const server = await startAppServer({ databaseUrl: db.url, keyPrefix, env: SHARED_SERVER_ENV });
    teardowns.push(async () => {
      const code = await server.stop();
      if (code !== 0) console.error(`app server exited with ${code}:\n${server.output().slice(-4000)}`);
    });
    project.provide("baseUrl", server.url);
    project.provide("databaseUrl", db.url);
    project.provide("redisUrl", testRedisUrl());
    project.provide("keyPrefix", keyPrefix);
    project.provide("tenants", tenants);
  } catch (e) {
    await tearDown(teardowns);
    throw e;
  }
  return () => tearDown(teardowns);
}
