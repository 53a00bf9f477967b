import { orderWithHistoryJson } from "@/lib/core/order-json";
import { estimable } from "@/lib/core/wait-service";
import { api, authorize, json } from "@/lib/edges/http/api.server";

/** One order of this tenant, with its history (who took it, who moved it, when) and, while it is being prepared, its wait estimate. */
export const GET = api<{ slug: string; id: string }>({}, async (req, { params, app }) => {
  const { tenant } = await authorize(app, req, params.slug, ["CASHIER", "KITCHEN"]);
  const { order, history } = await app.orders.withHistory(tenant, params.id);
  const ahead = estimable(order) ? (await app.orders.track(tenant, order.id)).aheadKeys.length : 0;
  return json(orderWithHistoryJson(order, history, tenant, await app.waits.of(tenant, order, ahead)));
});
