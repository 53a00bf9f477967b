import { api, authorize, json, readJson } from "@/lib/edges/http/api.server";
import { cascadeParam, categoryJson } from "@/lib/edges/http/menu-json";

type Params = { slug: string; id: string };

/** Renames or moves a category `{name?, position?}`: 200. */
export const PATCH = api<Params>({ body: "json" }, async (req, { params, app }) => {
  const caller = await authorize(app, req, params.slug, ["MANAGER"]);
  return json(categoryJson(await app.menu.updateCategory(caller.tenant, params.id, await readJson(req), caller.actor)));
});

/** Deletes a category: 409 while it has items, unless `?cascade=true` (its items go too). 204. */
export const DELETE = api<Params>({ query: { cascade: "one" } }, async (req, { params, app }) => {
  const caller = await authorize(app, req, params.slug, ["MANAGER"]);
  await app.menu.deleteCategory(caller.tenant, params.id, cascadeParam(req), caller.actor);
  return new Response(null, { status: 204 });
});
