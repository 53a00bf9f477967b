/**
 * Test-only preload: this process's clock reads SKEWED_CLOCK_OFFSET_MS milliseconds off
 * the machine's, as a server with a wrong system clock would (what libfaketime does for C
 * programs; it is not installed here). `Date.now()`, `new Date()` and `Date()` are
 * shifted; timers and `performance.now()` (monotonic) are not, as on a real machine.
 *
 *   NODE_OPTIONS="--import /abs/path/tests/support/skewed-clock.mjs" SKEWED_CLOCK_OFFSET_MS=-1500 node …
 *
 * Used by tests/faults/clock-skew.test.ts to start app nodes whose clocks disagree.
 */
const offset = Number(process.env.SKEWED_CLOCK_OFFSET_MS ?? 0);
if (!Number.isFinite(offset)) throw new Error(`SKEWED_CLOCK_OFFSET_MS is not a number: ${process.env.SKEWED_CLOCK_OFFSET_MS}`);
if (offset !== 0) {
  const RealDate = Date;
  const now = () => RealDate.now() + offset;
  globalThis.Date = new Proxy(RealDate, {
    construct: (target, args, newTarget) => Reflect.construct(target, args.length ? args : [now()], newTarget),
    apply: () => new RealDate(now()).toString(),
    get: (target, prop, receiver) => (prop === "now" ? now : Reflect.get(target, prop, receiver)),
  });
}
