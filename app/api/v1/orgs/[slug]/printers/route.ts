import { api, authorize, json, readJson } from "@/lib/edges/http/api.server";
import { printerJson } from "@/lib/edges/http/printer-json";

/** The restaurant's network printers, each with its status and waiting jobs; a cashier's key sees no address or error. */
export const GET = api<{ slug: string }>({}, async (req, { params, app }) => {
  const caller = await authorize(app, req, params.slug, ["MANAGER", "CASHIER"]);
  const full = caller.role === "MANAGER";
  return json({ printers: (await app.printers.list(caller.tenant)).map((p) => printerJson(p, full)) });
});

/** A new printer `{ name, host, port?, paper?, charset?, channels?, series? }`; its address must be in PRINTER_NETWORKS and PRINTER_PORTS. */
export const POST = api<{ slug: string }>({ body: "json" }, async (req, { params, app }) => {
  const caller = await authorize(app, req, params.slug, ["MANAGER"]);
  return json(printerJson(await app.printers.create(caller.tenant, await readJson(req), caller.actor)), 201);
});
