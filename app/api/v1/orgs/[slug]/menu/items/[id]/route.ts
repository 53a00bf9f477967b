import { api, authorize, json, readJson } from "@/lib/edges/http/api.server";
import { itemJson } from "@/lib/edges/http/menu-json";

type Params = { slug: string; id: string };

/** Changes an item `{categoryId?, name?, priceCents?, available?, position?}`: 200. */
export const PATCH = api<Params>({ body: "json" }, async (req, { params, app }) => {
  const caller = await authorize(app, req, params.slug, ["MANAGER"]);
  return json(itemJson(await app.menu.updateItem(caller.tenant, params.id, await readJson(req), caller.actor)));
});

/** Deletes an item (orders keep its name): 204. */
export const DELETE = api<Params>({}, async (req, { params, app }) => {
  const caller = await authorize(app, req, params.slug, ["MANAGER"]);
  await app.menu.deleteItem(caller.tenant, params.id, caller.actor);
  return new Response(null, { status: 204 });
});
