import { api, json } from "@/lib/edges/http/api.server";

/** Public: what the dining-room board shows. */
export const GET = api<{ slug: string }>({}, async (_req, { params, app }) => {
  const tenant = await app.tenants.get(params.slug);
  const board = await app.orders.board(tenant);
  return json(board, 200, { "Cache-Control": "no-store" });
});
