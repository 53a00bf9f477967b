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
