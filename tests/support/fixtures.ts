/**
 * Tenants for tests that assert exact numbers: a unique slug, and a day-start far from
 * now, so the tenant's business day cannot roll over (and restart numbering) while a
 * test file runs, whatever the time of day the suite runs at.
 */
import { randomBytes } from "node:crypto";

/** `<label>-<8 hex>`: unique across files and runs, a valid slug. */
export function uniqueSlug(label: string): string {
  return `${label}-${randomBytes(4).toString("hex")}`;
}

/** A tenant spec in UTC whose business day starts 12 hours from now. */
export function stableDaySpec(slug: string, name = slug): { slug: string; name: string; timeZone: string; dayStart: string } {
  const hour = (new Date().getUTCHours() + 12) % 24;
  return { slug, name, timeZone: "UTC", dayStart: `${String(hour).padStart(2, "0")}:00` };
}
