import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));

const YEAR_MS = 365 * 86_400_000;
/** The integration files whose clocks meet Redis's expiries or name business days. */
const YEAR_AHEAD_FILES = ["counter", "counter-batching", "counter-ledger-batching", "floor", "order-sql", "counter-fallback", "counter-properties"].map(
  (name) => `tests/integration/${name}.test.ts`,
);

export default defineConfig({
  resolve: { alias: { "@": root.replace(/\/$/, "") } },
  test: {
    projects: [
      {
        extends: true,
        // Property tests walk DST days minute by minute: a budget for a loaded 2-core machine, not a speed check.
        test: { name: "unit", include: ["tests/unit/**/*.test.ts"], environment: "node", testTimeout: 30_000 },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/integration/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Several files start servers and hammer Redis/PostgreSQL: two at a time on 2 cores.
          maxWorkers: 2,
        },
      },
      {
        extends: true,
        test: {
          // The clock-bound integration files again with this process's clock a year ahead
          // (tests/support/skewed-clock.mjs; Redis and PostgreSQL keep the real one): a test
          // clock pinned to a date is refused (tests/support/clock.ts) the day it is written,
          // and the counter runs on a node a year away from Redis's clock.
          name: "year-ahead",
          include: YEAR_AHEAD_FILES,
          environment: "node",
          globalSetup: ["tests/integration/global-setup.ts"],
          setupFiles: ["tests/support/skewed-clock.mjs"],
          env: { SKEWED_CLOCK_OFFSET_MS: String(YEAR_MS) },
          testTimeout: 60_000,
          hookTimeout: 120_000,
          maxWorkers: 2,
        },
      },
      {
        extends: true,
        test: {
          name: "faults",
          include: ["tests/faults/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/faults/global-setup.ts"],
          // Each file starts its own redis-server(s), app node(s) and three load-client
          // processes, then kills, pauses or partitions Redis: one file at a time.
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
