import { api, authorize, json, readJson } from "@/lib/edges/http/api.server";
import { listedStationJson, stationJson } from "@/lib/edges/http/station-json";

/** The restaurant's kitchen stations in screen order, each with its open work. */
export const GET = api<{ slug: string }>({}, async (req, { params, app }) => {
  const caller = await authorize(app, req, params.slug, ["MANAGER"]);
  return json({ stations: (await app.stations.list(caller.tenant)).map((s) => listedStationJson(s, caller.tenant)) });
});

/** A new station `{ name, default?, printerId? }`; the first one is the default. */
export const POST = api<{ slug: string }>({ body: "json" }, async (req, { params, app }) => {
  const caller = await authorize(app, req, params.slug, ["MANAGER"]);
  return json(stationJson(await app.stations.create(caller.tenant, await readJson(req), caller.actor), caller.tenant), 201);
});
