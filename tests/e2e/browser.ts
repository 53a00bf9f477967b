/**
 * Which Chromium the e2e tests drive: CHROMIUM_PATH, else the system's /usr/bin/chromium
 * (Debian's package), else the one `npx playwright install chromium` downloaded.
 * Playwright itself never downloads a browser during a run.
 */
import { existsSync } from "node:fs";
import { chromium } from "@playwright/test";
import { SetupError } from "../support/test-services";

const SYSTEM_CHROMIUM = "/usr/bin/chromium";

/** The executable to launch; undefined means Playwright's own download. */
export function chromiumPath(): string | undefined {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return existsSync(SYSTEM_CHROMIUM) ? SYSTEM_CHROMIUM : undefined;
}

/** Stops the run at once, in one line, when there is no browser to drive. */
export function requireChromium(): void {
  const path = chromiumPath() ?? chromium.executablePath();
  if (existsSync(path)) return;
  const where = process.env.CHROMIUM_PATH ? `CHROMIUM_PATH=${process.env.CHROMIUM_PATH}` : `${SYSTEM_CHROMIUM} or Playwright's download (${path})`;
  throw new SetupError(
    `No Chromium at ${where}: run \`npx playwright install chromium\` (needs the network), or install the system package (\`apt install chromium\`) or set CHROMIUM_PATH to a Chromium or Chrome binary.`,
  );
}
