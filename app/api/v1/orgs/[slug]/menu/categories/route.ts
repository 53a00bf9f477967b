import { api, authorize, json, readJson } from "@/lib/edges/http/api.server";
import { categoryJson } from "@/lib/edges/http/menu-json";

type Params = { slug: string };

/** The categories in menu order (manager). */
export const GET = api<Params>({}, async (req, { params, app }) => {
  const { tenant } = await authorize(app, req, params.slug, ["MANAGER"]);
  return json({ categories: (await app.menu.categories(tenant)).map(categoryJson) });
});

/** Adds a category `{name, position?}` (last by default): 201. */
export const POST = api<Params>({ body: "json" }, async (req, { params, app }) => {
  const caller = await authorize(app, req, params.slug, ["MANAGER"]);
  return json(categoryJson(await app.menu.createCategory(caller.tenant, await readJson(req), caller.actor)), 201);
});
