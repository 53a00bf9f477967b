import { api, authorize, json, readJson } from "@/lib/edges/http/api.server";
import { staffMemberJson } from "@/lib/edges/http/staff-json";

/** Changes a person (`who`: their id): a new PIN, another role or `active: false` signs them out everywhere. */
export const PATCH = api<{ slug: string; who: string }>({ body: "json" }, async (req, { params, app }) => {
  const caller = await authorize(app, req, params.slug, ["MANAGER"]);
  return json(staffMemberJson(await app.staff.update(caller.tenant, params.who, await readJson(req), caller.actor)));
});
