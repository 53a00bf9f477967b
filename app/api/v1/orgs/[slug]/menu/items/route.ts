import { api, authorize, json, readJson } from "@/lib/edges/http/api.server";
import { itemJson } from "@/lib/edges/http/menu-json";

type Params = { slug: string };

/** The items in menu order, optionally of one category `?categoryId=` (manager). */
export const GET = api<Params>({ query: { categoryId: "one" } }, async (req, { params, app }) => {
  const { tenant } = await authorize(app, req, params.slug, ["MANAGER"]);
  const categoryId = new URL(req.url).searchParams.get("categoryId") ?? undefined;
  return json({ items: (await app.menu.items(tenant, categoryId)).map(itemJson) });
});

/** Adds an item `{categoryId, name, priceCents?, available?, position?}`: 201. */
export const POST = api<Params>({ body: "json" }, async (req, { params, app }) => {
  const caller = await authorize(app, req, params.slug, ["MANAGER"]);
  return json(itemJson(await app.menu.createItem(caller.tenant, await readJson(req), caller.actor)), 201);
});
