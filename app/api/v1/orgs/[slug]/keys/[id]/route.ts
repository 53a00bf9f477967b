import { api, authorize, json } from "@/lib/edges/http/api.server";
import { apiKeyJson } from "@/lib/edges/http/api-key-json";

/** Revokes a key: refused on every node within seconds; revoking twice is fine. */
export const DELETE = api<{ slug: string; id: string }>({}, async (req, { params, app }) => {
  const caller = await authorize(app, req, params.slug, ["MANAGER"]);
  return json(apiKeyJson(await app.keys.revoke(caller.tenant, params.id, caller.actor)));
});
