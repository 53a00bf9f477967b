import { api, authorize, json } from "@/lib/edges/http/api.server";
import { queryOf } from "@/lib/edges/http/reports.server";
import { figuresJson } from "@/lib/edges/http/report-json";

/** A business day's figures: orders per local hour, time to ready and to collected (p50/p90) per shift, the takings. */
export const GET = api<{ slug: string }>({ query: { day: "one" } }, async (req, { params, app }) => {
  const { tenant } = await authorize(app, req, params.slug, ["MANAGER"]);
  return json(figuresJson(await app.reports.figures(tenant, queryOf(req, ["day"]))));
});
