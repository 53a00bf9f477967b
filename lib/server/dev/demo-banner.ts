/**
 * What `npm run dev` prints about the demo restaurant: the restaurant as it is stored now
 * (a manager may have changed its time zone, day start or shifts in the console) and only
 * the sign-in codes that still work. Its screens are in the start banner, with every other
 * restaurant's (lib/server/ops/start-banner.ts).
 */
import { formatDayStart } from "@/lib/core/business-day";
import type { Tenant } from "@/lib/core/tenants";

type PerRole<T> = { manager: T; cashier: T; kitchen: T };

export interface DemoBannerInput {
  tenant: Pick<Tenant, "slug" | "name" | "timeZone" | "dayStartMinutes" | "schedule">;
  /** Per role: the demo's code while it still signs in, null once a manager changed it. */
  codes: PerRole<string | null>;
  /** API keys of a demo created just now (shown once), else null. */
  apiKeys: PerRole<string> | null;
}

export function demoBanner({ tenant, codes, apiKeys }: DemoBannerInput): string {
  // A changed code is the manager's secret: say so, never print the old one that no longer works.
  const code = (c: string | null) => (c === null ? "changed (the demo code no longer works)" : c);
  const lines = [
    "",
    `  Demo restaurant "${tenant.name}" (${tenant.timeZone}, day starts ${formatDayStart(tenant.dayStartMinutes)}, scheduled shifts: ${tenant.schedule.join(", ") || "none"})`,
    `    kiosk    sign-in code: ${code(codes.cashier)}`,
    `    kitchen  sign-in code: ${code(codes.kitchen)}`,
    `    manager  sign-in code: ${code(codes.manager)}`,
    ...(apiKeys ? [`    API keys (shown once): ${JSON.stringify(apiKeys)}`] : []),
    "",
  ];
  return lines.join("\n") + "\n";
}
