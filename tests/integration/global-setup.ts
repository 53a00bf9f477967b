/**
 * One database, one Redis key prefix and one app server for the integration run.
 * Tests that need their own server (faults, limits) start one themselves.
 */
import type { TestProject } from "vitest/node";
import { createTestDatabase } from "../support/db";
import { SHARED_SERVER_ENV, startAppServer, testKeyPrefix, TEST_REDIS_URL } from "../support/app-server";
import { provisionTenants, type TestTenant } from "../support/tenants";

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
  const db = await createTestDatabase("integration");
  const keyPrefix = testKeyPrefix("it");
  let server: Awaited<ReturnType<typeof startAppServer>>;
  let tenants: Record<string, TestTenant>;
  try {
    tenants = await provisionTenants(db.url, [
      { slug: "alpha", name: "Alpha Noodles", timeZone: "Asia/Shanghai" },
      { slug: "bravo", name: "Bravo Burgers", timeZone: "America/New_York" },
      { slug: "charlie", name: "Charlie Curry" },
    ]);
    server = await startAppServer({ databaseUrl: db.url, keyPrefix, env: SHARED_SERVER_ENV });
  } catch (e) {
    await db.drop();
    throw e;
  }
  project.provide("baseUrl", server.url);
  project.provide("databaseUrl", db.url);
  project.provide("redisUrl", TEST_REDIS_URL);
  project.provide("keyPrefix", keyPrefix);
  project.provide("tenants", tenants);

  return async () => {
    const code = await server.stop();
    if (code !== 0) console.error(`app server exited with ${code}:\n${server.output().slice(-4000)}`);
    await db.drop();
  };
}
