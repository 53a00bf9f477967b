import { orderWithHistoryJson } from "@/lib/core/order-json";
import { api, authorize, json } from "@/lib/edges/http/api.server";

/** One order of this tenant, with its history (who took it, who moved it, when). */
export const GET = api<{ slug: string; id: string }>({}, async (req, { params, app }) => {
  const { tenant } = await authorize(app, req, params.slug, ["CASHIER", "KITCHEN"]);
  const { order, history } = await app.orders.withHistory(tenant, params.id);
  return json(orderWithHistoryJson(order, history, tenant));
});
