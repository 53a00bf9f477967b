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
