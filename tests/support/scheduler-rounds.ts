/**
 * A positive signal that the scheduler's leader has been through a whole round (docs/decisions/0010), for tests
 * that assert a round did nothing more, instead of sleeping for "several ticks".
 */
import type { Db } from "@/lib/adapters/postgres/prisma.server";
import { eventually } from "./until";

/** "HH:MM" of `at` on the wall clock of `timeZone`. */
export function wallClockSlot(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(at);
}

/**
 * Resolves once a whole round that began after this call has ended. Two fresh sentinel tenants (no schedule, no
 * shift) each get the slot just past, the second only once the first's shift exists: the round that starts the
 * first read its tenants after this call; the round that starts the second read them after that, so it is a later
 * round, and a leader runs one round at a time. `timeoutMs` only stops a hung test.
 */
export async function aWholeRoundLater(db: Db, sentinels: readonly [string, string], timeZone: string, timeoutMs = 60_000): Promise<void> {
  for (const tenantId of sentinels) {
    const slot = wallClockSlot(new Date(), timeZone);
    await db.tenant.update({ where: { id: tenantId }, data: { schedule: [slot] } });
    await eventually(
      `the sentinel's slot ${slot}`,
      () => db.shift.count({ where: { tenantId, slot } }),
      (n) => n > 0,
      timeoutMs,
    );
  }
}
