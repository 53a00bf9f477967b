import { api, authorize, json, orderJson } from "@/lib/edges/http/api.server";

/** The kitchen's "Call again": every board of the restaurant calls this ready number once more; not ready → 409. */
export const POST = api<{ slug: string; id: string }>({}, async (req, { params, app }) => {
  const { tenant } = await authorize(app, req, params.slug, ["KITCHEN"]);
  const order = await app.orders.callAgain(tenant, params.id);
  return json(orderJson(order, tenant));
});
