import { api, authorize, json, orderJson } from "@/lib/edges/http/api.server";

/** One order of this tenant. */
export const GET = api<{ slug: string; id: string }>({}, async (req, { params, app }) => {
  const { tenant } = await authorize(app, req, params.slug, ["CASHIER", "KITCHEN"]);
  return json(orderJson(await app.orders.get(tenant, params.id), tenant));
});
