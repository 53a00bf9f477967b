import { api, authorize, json, orderJson, readJson } from "@/lib/edges/http/api.server";

/** Move an order: `{status: "READY" | "COLLECTED" | "CANCELLED" | "PLACED"}`; illegal moves are 409. */
export const POST = api<{ slug: string; id: string }>({ body: "json" }, async (req, { params, app }) => {
  const { tenant, by } = await authorize(app, req, params.slug, ["KITCHEN"]);
  // The API key's label is who the order's history and webhooks name.
  const order = await app.orders.changeStatus(tenant, params.id, await readJson(req), by);
  return json(orderJson(order, tenant));
});
