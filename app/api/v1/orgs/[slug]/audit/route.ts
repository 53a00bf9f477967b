import { parseAuditLimit } from "@/lib/core/audit-query";
import { api, authorize, json } from "@/lib/edges/http/api.server";
import type { z } from "zod";
import type { auditListSchema } from "@/lib/edges/http/openapi/schemas/console";

/** The audit trail, newest first: `?limit=N` (default 50, at most 500). */
export const GET = api<{ slug: string }>({ query: { limit: "one" } }, async (req, { params, app }) => {
  const caller = await authorize(app, req, params.slug, ["MANAGER"]);
  const limit = parseAuditLimit(Object.fromEntries(new URL(req.url).searchParams));
  const entries = await app.audit.list(caller.tenant.id, limit);
  return json({
    entries: entries.map((e) => ({ at: e.at.toISOString(), actor: e.actor, action: e.action, details: e.details })),
  } satisfies z.output<typeof auditListSchema>);
});
