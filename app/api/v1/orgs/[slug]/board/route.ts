import { api, json } from "@/lib/edges/http/api.server";
import type { z } from "zod";
import type { boardSchema } from "@/lib/edges/http/openapi/schemas/orders";

/** Public: what the dining-room board shows. */
export const GET = api<{ slug: string }>({}, async (_req, { params, app }) => {
  const tenant = await app.tenants.get(params.slug);
  const board = await app.orders.board(tenant);
  return json(board satisfies z.output<typeof boardSchema>, 200, { "Cache-Control": "no-store" });
});
