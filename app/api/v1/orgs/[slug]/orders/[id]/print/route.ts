import { api, authorize, json, readJson } from "@/lib/edges/http/api.server";
import { printJobJson } from "@/lib/edges/http/printer-json";
import { trackPath } from "@/lib/core/order-json";
import { publicOrigin } from "@/lib/server/http/public-origin.server";
import { requestOrigin } from "@/app/_lib/tenant.server";

/** Prints an order's ticket again `{ printerId? }`: 202 with the job; 409 when no printer is set up for it. */
export const POST = api<{ slug: string; id: string }>({ body: "json" }, async (req, { params, app }) => {
  const caller = await authorize(app, req, params.slug, ["CASHIER", "MANAGER"]);
  const order = await app.orders.get(caller.tenant, params.id);
  const url = `${publicOrigin({ env: app.env, requestOrigin: requestOrigin(req.headers) })}${trackPath(caller.tenant, order.id)}`;
  return json(printJobJson(await app.printers.reprint(caller.tenant, order, await readJson(req), url, caller.actor)), 202);
});
