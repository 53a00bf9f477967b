import { api, authorize, json } from "@/lib/edges/http/api.server";
import { printJobJson } from "@/lib/edges/http/printer-json";
import { queryOf } from "@/lib/edges/http/reports.server";

/** The latest print jobs, newest first: `?printerId=&limit=` (default 50, at most 200). */
export const GET = api<{ slug: string }>({ query: { printerId: "one", limit: "one" } }, async (req, { params, app }) => {
  const caller = await authorize(app, req, params.slug, ["MANAGER", "CASHIER"]);
  return json({ jobs: (await app.printers.jobs(caller.tenant, queryOf(req, ["printerId", "limit"]))).map((j) => printJobJson(j, caller.role === "MANAGER")) });
});
