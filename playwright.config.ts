import { defineConfig } from "@playwright/test";
import { chromiumPath } from "./tests/e2e/browser";

/**
 * End-to-end tests in Chromium: CHROMIUM_PATH, else Debian's /usr/bin/chromium, else the one
 * `npx playwright install chromium` downloaded (tests/e2e/browser.ts); a run never
 * downloads one. tests/e2e/global-setup.ts starts the production build against its own
 * database and Redis key prefix.
 */
export default defineConfig({
  testDir: "tests/e2e",
  globalSetup: "./tests/e2e/global-setup.ts",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    browserName: "chromium",
    headless: true,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: chromiumPath(),
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
});
