/**
 * The burst every fault scenario uses: 3 client processes × 4 cashiers, each pausing
 * briefly between orders — a busy lunch rush, not a saturation benchmark (on a 2-core
 * machine a saturated CPU would itself look like a Redis fault).
 */
export const BURST = {
  processes: 3,
  concurrency: 4,
  thinkMs: 20,
  timeoutMs: 15_000,
} as const;

/**
 * The small series every scenario's burst also orders into (decision 0027): 20 numbers W1–W20
 * that come round many times in one burst while the kitchen collects them, every 4th order
 * of each client naming it (tests/support/fault-scenario.ts).
 */
export const WRAPPING_SERIES = { name: "Window", prefix: "W", first: 1, last: 20 } as const;
