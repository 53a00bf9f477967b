import { api, authorize, json, readJson } from "@/lib/edges/http/api.server";
import { apiKeyJson } from "@/lib/edges/http/api-key-json";
import type { z } from "zod";
import type { apiKeyCreatedSchema } from "@/lib/edges/http/openapi/schemas/console";

/** The restaurant's API keys, revoked ones included; never a secret. */
export const GET = api<{ slug: string }>({}, async (req, { params, app }) => {
  const caller = await authorize(app, req, params.slug, ["MANAGER"]);
  return json({ keys: (await app.keys.list(caller.tenant)).map(apiKeyJson) });
});

/** A new key `{ role, name }`; the key itself is in this answer only. */
export const POST = api<{ slug: string }>({ body: "json" }, async (req, { params, app }) => {
  const caller = await authorize(app, req, params.slug, ["MANAGER"]);
  const made = await app.keys.create(caller.tenant, await readJson(req), caller.actor);
  const created: z.output<typeof apiKeyCreatedSchema> = { id: made.id, role: made.role, name: made.name, prefix: made.prefix, key: made.key };
  return json(created, 201, { "Cache-Control": "no-store" });
});
