import { api, json } from "@/lib/edges/http/api.server";

/**
 * Dependencies at a glance. 503 only when PostgreSQL is down (nothing can be stored);
 * Redis down makes the status "degraded" but keeps 200, so a load balancer does not pull
 * every node at once for a fault they share. `leader`: whether this node leads the scheduler
 * (docs/decisions/0010).
 */
export const GET = api<Record<string, never>>(async (_req, { app }) => {
  const health = await app.health();
  return json(health, health.db === "up" ? 200 : 503, { "Cache-Control": "no-store" });
});
