import { api, json } from "@/lib/edges/http/api.server";
import type { z } from "zod";
import type { healthSchema } from "@/lib/edges/http/openapi/schemas/ops";

/**
 * Liveness: 200 whenever this process answers, with the dependencies at a glance (each
 * ping bounded). A dependency down is not a reason to restart the node, so it never makes
 * this 503; whether to send the node traffic is /api/ready. `leader`: whether this node
 * leads the scheduler (docs/decisions/0010).
 */
export const GET = api<Record<string, never>>({ query: "any" }, async (_req, { app }) => {
  return json((await app.health()) satisfies z.output<typeof healthSchema>, 200, { "Cache-Control": "no-store" });
});
