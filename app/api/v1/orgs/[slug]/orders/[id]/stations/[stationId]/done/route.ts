import { api, authorize, json, orderJson } from "@/lib/edges/http/api.server";

/** A station is done with its part of the order; the last part done makes it ready (unless the restaurant's expo does). Repeating it is harmless. */
export const POST = api<{ slug: string; id: string; stationId: string }>({}, async (req, { params, app }) => {
  const { tenant, by } = await authorize(app, req, params.slug, ["KITCHEN"]);
  return json(orderJson(await app.orders.partDone(tenant, params.id, params.stationId, by), tenant));
});

/** Undo of a station's Done: its part is open again, and a Ready the parts made is taken back. */
export const DELETE = api<{ slug: string; id: string; stationId: string }>({}, async (req, { params, app }) => {
  const { tenant, by } = await authorize(app, req, params.slug, ["KITCHEN"]);
  return json(orderJson(await app.orders.partUndo(tenant, params.id, params.stationId, by), tenant));
});
