/** What the kitchen screen shows, as plain data: read by the page and, live, by `readKitchen`. */
import type { Tenant } from "@/lib/core/tenants";
import { asReadyWhen } from "@/lib/core/stations";
import { displayNumber, seriesOf } from "@/lib/core/series";
import type { App } from "@/lib/server/app.server";
import { formatTime } from "@/app/_lib/format";
import { kitchenOrder } from "./kitchen-order.server";
import { stationView } from "./station-data.server";
import type { KitchenData } from "./types";

/** The main kitchen (`station` null), or station `station`'s own screen. */
export async function kitchenData(app: App, tenant: Tenant, station: string | null = null): Promise<KitchenData> {
  const floor = await app.orders.floor(tenant);
  const { readyClearMinutes, ageWarnMinutes, ageLateMinutes } = tenant.floor;
  const data: KitchenData = {
    businessDay: floor.businessDay,
    currentShift: floor.shift,
    floor: { readyClearMinutes, ageWarnMinutes, ageLateMinutes },
    open: floor.open.map((o) => kitchenOrder(o, tenant)),
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
    stations: (tenant.stations ?? []).map((s) => ({ id: s.id, name: s.name, isDefault: s.isDefault })),
    readyWhen: asReadyWhen(tenant.floor.readyWhen),
    station: null,
  };
  return station === null ? data : { ...data, ...stationView(floor.open, tenant, station) };
}
