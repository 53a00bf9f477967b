import { api, authorize, json, readJson } from "@/lib/edges/http/api.server";
import { seriesJson } from "@/lib/edges/http/series-json";

/** Changes some of a series' fields; orders already taken keep their numbers. */
export const PATCH = api<{ slug: string; id: string }>({ body: "json" }, async (req, { params, app }) => {
  const caller = await authorize(app, req, params.slug, ["MANAGER"]);
  return json(seriesJson(await app.series.update(caller.tenant, params.id, await readJson(req), caller.actor)));
});

/** Retires a series: its channels go back to the default series. */
export const DELETE = api<{ slug: string; id: string }>({}, async (req, { params, app }) => {
  const caller = await authorize(app, req, params.slug, ["MANAGER"]);
  return json(seriesJson(await app.series.remove(caller.tenant, params.id, caller.actor)));
});
