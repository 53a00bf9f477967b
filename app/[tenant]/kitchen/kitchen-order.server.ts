import type { Order } from "@/lib/core/orders";
import type { Tenant } from "@/lib/core/tenants";
import { displayNumber } from "@/lib/core/series";
import { formatTime } from "@/app/_lib/format";
import type { KitchenOrder } from "./types";

/** An open order as the screens receive it. */
export function kitchenOrder(o: Order, tenant: Tenant): KitchenOrder {
  return {
    id: o.id,
    number: o.number,
    display: displayNumber(o.prefix, o.number),
    shift: o.shift,
    status: o.status,
    items: o.items,
    note: o.note,
    channel: o.channel,
    service: o.service,
    businessDay: o.businessDay,
    createdAt: o.createdAt.toISOString(),
    readyAt: o.readyAt?.toISOString() ?? null,
    orderedAt: formatTime(o.createdAt, tenant.timeZone),
    stations: o.stations.map((p) => ({ id: p.id, name: p.name, doneAt: p.doneAt, doneTime: p.doneAt ? formatTime(p.doneAt, tenant.timeZone) : null })),
  };
}
