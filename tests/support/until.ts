/** Polls `check` every 50 ms until it is true; returns how long that took, or throws after `maxMs`. */
export async function timeUntil(check: () => Promise<boolean>, maxMs: number): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (await check()) return Date.now() - start;
    if (Date.now() - start > maxMs) throw new Error(`not within ${maxMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
