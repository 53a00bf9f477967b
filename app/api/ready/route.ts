import { api, json } from "@/lib/edges/http/api.server";
import type { z } from "zod";
import type { readinessSchema } from "@/lib/edges/http/openapi/schemas/ops";

/**
 * Readiness, for load balancers and orchestrators: 200 `{status:"ready",checks}` while the
 * database and Redis answer, every migration is applied and the node is not shutting down;
 * else 503 with `failing` naming the checks. Liveness is /api/health.
 */
export const GET = api<Record<string, never>>({ query: "any" }, async (_req, { app }) => {
  const readiness: z.output<typeof readinessSchema> = await app.readiness();
  return json(readiness, readiness.status === "ready" ? 200 : 503, { "Cache-Control": "no-store" });
});
