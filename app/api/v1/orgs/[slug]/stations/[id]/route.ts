import { api, authorize, json, readJson } from "@/lib/edges/http/api.server";
import { stationJson } from "@/lib/edges/http/station-json";

/** Renames a station, makes it the default, or sets its chit printer. */
export const PATCH = api<{ slug: string; id: string }>({ body: "json" }, async (req, { params, app }) => {
  const caller = await authorize(app, req, params.slug, ["MANAGER"]);
  return json(stationJson(await app.stations.update(caller.tenant, params.id, await readJson(req), caller.actor), caller.tenant));
});

/** Retires a station: its open work goes to the default station's screen. */
export const DELETE = api<{ slug: string; id: string }>({}, async (req, { params, app }) => {
  const caller = await authorize(app, req, params.slug, ["MANAGER"]);
  return json(stationJson(await app.stations.remove(caller.tenant, params.id, caller.actor), caller.tenant));
});
