import { api, authorize, json } from "@/lib/edges/http/api.server";
import { deliveryJson } from "@/lib/edges/http/webhook-json";

/** The endpoint's latest deliveries (`?limit=` 1–200, default 50), newest first. */
export const GET = api<{ slug: string; id: string }>({ query: { limit: "one" } }, async (req, { params, app }) => {
  const caller = await authorize(app, req, params.slug, ["MANAGER"]);
  const limit = new URL(req.url).searchParams.get("limit");
  return json({ deliveries: (await app.webhooks.deliveries(caller.tenant, params.id, limit)).map(deliveryJson) });
});
