import { api, authorize, json, readJson } from "@/lib/edges/http/api.server";
import { staffMemberJson } from "@/lib/edges/http/staff-json";

/** The restaurant's people, those let go included; never a PIN. */
export const GET = api<{ slug: string }>({}, async (req, { params, app }) => {
  const caller = await authorize(app, req, params.slug, ["MANAGER"]);
  return json({ staff: (await app.staff.list(caller.tenant)).map(staffMemberJson) });
});

/** A new person `{ name, role, pin }`: they sign in with their name and PIN at once. */
export const POST = api<{ slug: string }>({ body: "json" }, async (req, { params, app }) => {
  const caller = await authorize(app, req, params.slug, ["MANAGER"]);
  return json(staffMemberJson(await app.staff.create(caller.tenant, await readJson(req), caller.actor)), 201);
});
