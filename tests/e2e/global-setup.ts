/**
 * One database, one key prefix and one app server (production build) for the e2e run.
 * Workers read what they need from process.env (Playwright passes globalSetup's env on).
 */
import { createTestDatabase } from "../support/db";
import { SHARED_SERVER_ENV, startAppServer, testKeyPrefix } from "../support/app-server";
import { provisionTenants } from "../support/tenants";

export default async function globalSetup() {
  const db = await createTestDatabase("e2e");
  try {
    const tenants = await provisionTenants(db.url, [
      { slug: "e2e-alpha", name: "Alpha Noodles", timeZone: "Asia/Shanghai" },
      { slug: "e2e-bravo", name: "Bravo Burgers", timeZone: "America/New_York" },
    ]);
    const server = await startAppServer({ databaseUrl: db.url, keyPrefix: testKeyPrefix("e2e"), env: SHARED_SERVER_ENV });
    process.env.E2E_BASE_URL = server.url;
    process.env.E2E_TENANTS = JSON.stringify(tenants);
    process.env.E2E_DATABASE_URL = db.url;
    return async () => {
      await server.stop();
      await db.drop();
    };
  } catch (e) {
    await db.drop();
    throw e;
  }
}
