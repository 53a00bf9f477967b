/**
 * One database, one key prefix and one app server (production build) for the e2e run.
 * Workers read what they need from process.env (Playwright passes globalSetup's env on).
 * PostgreSQL and Redis are found, or started for the run (tests/support/test-services.ts);
 * without a Chromium the run stops at once, saying how to get one.
 */
import { createTestDatabase } from "../support/db";
import { SHARED_SERVER_ENV, startAppServer, testKeyPrefix } from "../support/app-server";
import { provisionTenants } from "../support/tenants";
import { providePostgres, provideRedis, tearDown, type Teardown } from "../support/test-services";
import { requireChromium } from "./browser";

/** A push service's origin the e2e server accepts subscriptions for; nothing listens there (the discard port). */
const E2E_PUSH_SERVICE = "http://127.0.0.1:9";

export default async function globalSetup() {
  requireChromium();
  const teardowns: Teardown[] = [];
  try {
    teardowns.push(await providePostgres());
    teardowns.push(await provideRedis());
    const db = await createTestDatabase("e2e");
    teardowns.push(() => db.drop());
    const tenants = await provisionTenants(db.url, [
      { slug: "e2e-alpha", name: "Alpha Noodles", timeZone: "Asia/Shanghai" },
      { slug: "e2e-bravo", name: "Bravo Burgers", timeZone: "America/New_York" },
    ]);
    // Webhooks to a receiver on 127.0.0.1 (tests/e2e/webhooks.spec.ts) and printer stand-ins on
    // 127.0.0.1 (tests/e2e/printing.spec.ts): a restaurant's own network. Web Push on, with a
    // push-service stand-in's origin allowed (tests/e2e/customer-push.spec.ts).
    const server = await startAppServer({
      databaseUrl: db.url,
      keyPrefix: testKeyPrefix("e2e"),
      env: {
        ...SHARED_SERVER_ENV,
        WEBHOOKS_ALLOW_PRIVATE: "true",
        PRINTER_NETWORKS: "127.0.0.1/32",
        PRINTER_PORTS: "1024-65535",
        PUSH_CONTACT: "mailto:e2e@example.com",
        PUSH_SERVICES: E2E_PUSH_SERVICE,
      },
    });
    teardowns.push(async () => void (await server.stop()));
    process.env.E2E_BASE_URL = server.url;
    process.env.E2E_TENANTS = JSON.stringify(tenants);
    process.env.E2E_DATABASE_URL = db.url;
    process.env.E2E_PUSH_SERVICE = E2E_PUSH_SERVICE;
  } catch (e) {
    await tearDown(teardowns);
    throw e;
  }
  return () => tearDown(teardowns);
}
