import { api, authorize, json, readJson } from "@/lib/edges/http/api.server";
import { webhookJson } from "@/lib/edges/http/webhook-json";

/** Deletes an endpoint and its pending messages. */
export const DELETE = api<{ slug: string; id: string }>({}, async (req, { params, app }) => {
  const caller = await authorize(app, req, params.slug, ["MANAGER"]);
  return json(webhookJson(await app.webhooks.delete(caller.tenant, params.id, caller.actor)));
});

/** Changes an endpoint's `{ url?, events? }` (the URL checked as when created); its secret stays. */
export const PATCH = api<{ slug: string; id: string }>({ body: "json" }, async (req, { params, app }) => {
  const caller = await authorize(app, req, params.slug, ["MANAGER"]);
  return json(webhookJson(await app.webhooks.update(caller.tenant, params.id, await readJson(req), caller.actor)));
});
