/** A station's own screen (issue #40): only the orders with work for it, only its lines. */
import type { Order } from "@/lib/core/orders";
import type { Tenant } from "@/lib/core/tenants";
import { openAt, partsFor } from "@/lib/core/station-bumps";
import { linesFor } from "@/lib/core/stations";
import { formatTime } from "@/app/_lib/format";
import { kitchenOrder } from "./kitchen-order.server";
import type { KitchenData, StationDoneOrder } from "./types";

/** What changes in the kitchen's data on station `id`'s screen; a station that does not exist leaves nothing to show. */
export function stationView(open: readonly Order[], tenant: Tenant, id: string): Partial<KitchenData> {
  const live = tenant.stations ?? [];
  const station = live.find((s) => s.id === id);
  if (!station) return { open: [], collected: [], station: null, missingStation: id, doneHere: [] };
  const here = (o: Order) => ({ ...kitchenOrder(o, tenant), items: linesFor(o.items, station, live) });
  const doneHere = open.flatMap((o): StationDoneOrder[] => {
    const parts = partsFor(o, station, tenant);
    if (parts.length === 0 || parts.some((p) => p.doneAt === null)) return [];
    const at = parts
      .map((p) => p.doneAt!)
      .sort()
      .at(-1)!;
    return [{ ...here(o), partDoneAt: at, partDoneTime: formatTime(at, tenant.timeZone) }];
  });
  return {
    open: open.filter((o) => openAt(o, station, tenant)).map(here),
    // The pickup and collected piles are the main kitchen's: a station bumps its share only.
    collected: [],
    station: { id: station.id, name: station.name, isDefault: station.isDefault },
    doneHere: doneHere.sort((a, b) => b.partDoneAt.localeCompare(a.partDoneAt)),
  };
}
