import { StaffCodeService } from "@/lib/core/staff-codes";
import { api, authorize, json } from "@/lib/edges/http/api.server";
import type { z } from "zod";
import type { staffCodeSchema } from "@/lib/edges/http/openapi/schemas/console";

/** A new sign-in code for a role (`who`: the role; shown once); that role's shared-code sessions end. */
export const POST = api<{ slug: string; who: string }>({}, async (req, { params, app }) => {
  const caller = await authorize(app, req, params.slug, ["MANAGER"]);
  const role = StaffCodeService.parseRole(params.who);
  const { code, generation } = await app.staffCodes.rotate(caller.tenant, role, caller.actor);
  return json({ role, code, generation } satisfies z.output<typeof staffCodeSchema>, 200, { "Cache-Control": "no-store" });
});
