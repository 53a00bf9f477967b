/** What the kitchen screen shows, as plain data: read by the page and, live, by `readKitchen`. */
import type { Tenant } from "@/lib/core/tenants";
import { displayNumber, seriesOf } from "@/lib/core/series";
import type { App } from "@/lib/server/app.server";
import { formatTime } from "@/app/_lib/format";
import type { KitchenData } from "./types";

export async function kitchenData(app: App, tenant: Tenant): Promise<KitchenData> {
  const floor = await app.orders.floor(tenant);
  const { readyClearMinutes, ageWarnMinutes, ageLateMinutes } = tenant.floor;
  return {
    businessDay: floor.businessDay,
    currentShift: floor.shift,
    floor: { readyClearMinutes, ageWarnMinutes, ageLateMinutes },
    open: floor.open.map((o) => ({
      id: o.id,
      number: o.number,
      display: displayNumber(o.prefix, o.number),
      shift: o.shift,
      status: o.status,
      items: o.items,
      note: o.note,
      channel: o.channel,
      businessDay: o.businessDay,
      createdAt: o.createdAt.toISOString(),
      readyAt: o.readyAt?.toISOString() ?? null,
      orderedAt: formatTime(o.createdAt, tenant.timeZone),
    })),
    collected: floor.recentlyCollected.map((o) => ({
      id: o.id,
      number: o.number,
      display: displayNumber(o.prefix, o.number),
      shift: o.shift,
      collectedAt: o.collectedAt ? formatTime(o.collectedAt, tenant.timeZone) : "",
      // Not known (a release before people, an API key without a label): the row shows the time alone.
      collectedBy: o.collectedBy || null,
    })),
    prefixes: [...new Set(seriesOf(tenant).flatMap((s) => (s.prefix ? [s.prefix] : [])))],
  };
}
