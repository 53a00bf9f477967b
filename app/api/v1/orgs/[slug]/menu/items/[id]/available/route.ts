import { api, json, readJson } from "@/lib/edges/http/api.server";
import { authorizeKeyOrSession } from "@/lib/edges/http/key-or-session.server";
import { itemJson } from "@/lib/edges/http/menu-json";

/** Sold out or back, `{available: boolean}`: 200 with the item. A kitchen or manager key, or the kitchen screen's session. */
export const PUT = api<{ slug: string; id: string }>({ body: "json" }, async (req, { params, app }) => {
  const caller = await authorizeKeyOrSession(app, req, params.slug, ["KITCHEN"]);
  return json(itemJson(await app.menu.setAvailable(caller.tenant, params.id, await readJson(req), caller.actor)));
});
