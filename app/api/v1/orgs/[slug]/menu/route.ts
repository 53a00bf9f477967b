import { api, authorize, json } from "@/lib/edges/http/api.server";
import { sectionJson } from "@/lib/edges/http/menu-json";

/** The whole menu, categories in order with their items (sold-out ones too, `available: false`): cashier or manager. */
export const GET = api<{ slug: string }>({}, async (req, { params, app }) => {
  const { tenant } = await authorize(app, req, params.slug, ["CASHIER"]);
  return json({ categories: (await app.menu.menu(tenant)).map(sectionJson) });
});
