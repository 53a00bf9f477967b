import { api, authorize, json } from "@/lib/edges/http/api.server";
import { printJobJson } from "@/lib/edges/http/printer-json";

/** Queues a test page: 202 with the job (GET …/print-jobs follows it). */
export const POST = api<{ slug: string; id: string }>({}, async (req, { params, app }) => {
  const caller = await authorize(app, req, params.slug, ["MANAGER"]);
  return json(printJobJson(await app.printers.test(caller.tenant, params.id, caller.actor)), 202);
});
