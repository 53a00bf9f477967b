import { api, authorize, json, readJson } from "@/lib/edges/http/api.server";
import { listedSeriesJson, seriesJson } from "@/lib/edges/http/series-json";

/** The restaurant's number series, the default first, each with how many of its numbers are open. */
export const GET = api<{ slug: string }>({}, async (req, { params, app }) => {
  const caller = await authorize(app, req, params.slug, ["MANAGER"]);
  return json({ series: (await app.series.listWithOpen(caller.tenant)).map(listedSeriesJson) });
});

/** A new series `{ name, prefix?, first?, last?, channels? }`. */
export const POST = api<{ slug: string }>({ body: "json" }, async (req, { params, app }) => {
  const caller = await authorize(app, req, params.slug, ["MANAGER"]);
  return json(seriesJson(await app.series.create(caller.tenant, await readJson(req), caller.actor)), 201);
});
