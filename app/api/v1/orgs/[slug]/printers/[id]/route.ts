import { api, authorize, json, readJson } from "@/lib/edges/http/api.server";
import { printerJson } from "@/lib/edges/http/printer-json";

/** Changes some of a printer's fields. */
export const PATCH = api<{ slug: string; id: string }>({ body: "json" }, async (req, { params, app }) => {
  const caller = await authorize(app, req, params.slug, ["MANAGER"]);
  return json(printerJson(await app.printers.update(caller.tenant, params.id, await readJson(req), caller.actor)));
});

/** Removes a printer and its waiting jobs (`queued` says how many). */
export const DELETE = api<{ slug: string; id: string }>({}, async (req, { params, app }) => {
  const caller = await authorize(app, req, params.slug, ["MANAGER"]);
  return json(printerJson(await app.printers.remove(caller.tenant, params.id, caller.actor)));
});
