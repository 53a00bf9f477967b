import { api, authorize, json, readJson } from "@/lib/edges/http/api.server";
import type { z } from "zod";
import type { settingsSchema } from "@/lib/edges/http/openapi/schemas/console";

type Settings = z.output<typeof settingsSchema>;

/** The restaurant's settings (manager). */
export const GET = api<{ slug: string }>({}, async (req, { params, app }) => {
  const caller = await authorize(app, req, params.slug, ["MANAGER"]);
  return json(app.settings.get(caller.tenant) satisfies Settings);
});

/** A partial update: only the fields sent change; one bad field and nothing changes. */
export const PUT = api<{ slug: string }>({ body: "json" }, async (req, { params, app }) => {
  const caller = await authorize(app, req, params.slug, ["MANAGER"]);
  const { settings } = await app.settings.update(caller.tenant, await readJson(req), caller.actor);
  return json(settings satisfies Settings);
});
