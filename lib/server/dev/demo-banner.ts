/**
 * What `npm run dev` prints about the demo restaurant: the restaurant as it is stored now
 * (a manager may have changed its time zone, day start or shifts in the console) and only
 * the sign-in codes that still work.
 */
import { formatDayStart } from "@/lib/core/business-day";
import type { Tenant } from "@/lib/core/tenants";

type PerRole<T> = { manager: T; cashier: T; kitchen: T };

export interface DemoBannerInput {
  tenant: Pick<Tenant, "slug" | "name" | "timeZone" | "dayStartMinutes" | "schedule">;
  /** Per role: the demo's code while it still signs in, null once a manager changed it. */
  codes: PerRole<string | null>;
  /** e.g. http://localhost:3000 */
  localOrigin: string;
  /** What tickets link to when it is not localhost: PUBLIC_URL or this machine's LAN address. */
  ticketOrigin: string | null;
  /** API keys of a demo created just now (shown once), else null. */
  apiKeys: PerRole<string> | null;
}

export function demoBanner({ tenant, codes, localOrigin, ticketOrigin, apiKeys }: DemoBannerInput): string {
  const base = `${localOrigin}/${tenant.slug}`;
  // A changed code is the manager's secret: say so, never print the old one that no longer works.
  const code = (c: string | null) => (c === null ? "changed (the demo code no longer works)" : c);
  const lines = [
    "",
    `  Demo restaurant "${tenant.name}" (${tenant.timeZone}, day starts ${formatDayStart(tenant.dayStartMinutes)}, scheduled shifts: ${tenant.schedule.join(", ") || "none"})`,
    `    kiosk    ${base}/kiosk     sign-in code: ${code(codes.cashier)}`,
    `    kitchen  ${base}/kitchen   sign-in code: ${code(codes.kitchen)}`,
    `    manager  ${base}/manager   sign-in code: ${code(codes.manager)}`,
    `    board    ${base}/board     (public)`,
    ...(ticketOrigin ? [`    from TVs and phones (tickets link here): ${ticketOrigin}/${tenant.slug}/board`] : []),
    ...(apiKeys ? [`    API keys (shown once): ${JSON.stringify(apiKeys)}`] : []),
    "",
  ];
  return lines.join("\n") + "\n";
}
