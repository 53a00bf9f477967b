/**
 * Secrets never reach the log (issue #10): a Redis password in REDIS_URL used to be printed
 * whole when Redis did not answer at start-up.
 */
import { expect, inject, it } from "vitest";
import { startAppServer, testKeyPrefix } from "../support/app-server";
import { freePort } from "../support/ports";

const databaseUrl = inject("databaseUrl");

it("a Redis password in REDIS_URL is not in the start-up log", async () => {
  // Nothing listens on this port: the server warns that Redis does not answer, naming it.
  const redisUrl = `redis://:log-s3cret-pw@127.0.0.1:${await freePort()}`;
  const server = await startAppServer({ databaseUrl, redisUrl, keyPrefix: testKeyPrefix("logs"), env: { REDIS_AUTOSTART: "false", LOG_LEVEL: "info" } });
  try {
    await fetch(`${server.url}/api/health`);
  } finally {
    await server.stop();
  }
  const out = server.output();
  expect(out).toContain("Redis does not answer");
  expect(out).toContain("redis://***@127.0.0.1:");
  expect(out).not.toContain("log-s3cret-pw");
});
