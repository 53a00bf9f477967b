/** Polls `check` every 50 ms until it is true; returns how long that took, or throws after `maxMs`. */
export async function timeUntil(check: () => Promise<boolean>, maxMs: number): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (await check()) return Date.now() - start;
    if (Date.now() - start > maxMs) throw new Error(`not within ${maxMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Polls `probe` every 200 ms until `ok` holds of its value, and returns that value; throws after `timeoutMs` saying what it last saw. */
export async function eventually<T>(what: string, probe: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms; last: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Waits until `check` holds, then fails unless that was sooner than `ttlMs` after `readAfter` (taken before a node
 * first read the cache entry in question): that entry lives at least `ttlMs`, so holding sooner proves the node was
 * told (the invalidation bus) rather than that its cache ran out. That comparison is the thing tested, not speed;
 * `maxMs` only stops a hung test.
 */
export async function toldBeforeExpiry(what: string, check: () => Promise<boolean>, readAfter: number, ttlMs: number, maxMs = 60_000): Promise<void> {
  await timeUntil(check, maxMs);
  const after = Date.now() - readAfter;
  if (after >= ttlMs) throw new Error(`${what}: seen ${after} ms after the entry was read, not before its ${ttlMs} ms TTL ran out: was the node told?`);
}
