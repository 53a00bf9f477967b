/** What the manager's live panel shows, as plain data: read by the page and, live, by `readManager`. */
import { summarizeShift, type ShiftSummary } from "@/lib/core/shift-summary";
import type { Tenant } from "@/lib/core/tenants";
import { nextSlot } from "@/lib/core/schedule";
import type { App } from "@/lib/server/app.server";

export interface ManagerData {
  businessDay: string;
  shift: number;
  summary: ShiftSummary;
  /** Orders still open today, every shift: what a new shift would keep or clear. */
  openCount: number;
  counter: "redis" | "database";
  /** The restaurant's shift schedule, and the slot of today still to come ("HH:MM"), if any. */
  schedule: readonly string[];
  nextScheduled: string | null;
}

export async function managerData(app: App, tenant: Tenant): Promise<ManagerData> {
  const [{ businessDay, shift, orders }, openCount] = await Promise.all([app.orders.currentShift(tenant), app.shifts.openCount(tenant)]);
  const next = nextSlot(tenant, new Date());
  return {
    businessDay,
    shift,
    summary: summarizeShift(orders),
    openCount,
    counter: app.counterSource(),
    schedule: tenant.schedule,
    nextScheduled: next?.slot ?? null,
  };
}
