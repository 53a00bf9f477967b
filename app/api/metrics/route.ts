import { AppError } from "@/lib/core/errors";
import { safeEqual } from "@/lib/auth/secrets.server";
import { api } from "@/lib/edges/http/api.server";
import { stampedClientAddress } from "@/lib/server/http/client-address.server";

/**
 * Prometheus metrics of this node, for operators: `Authorization: Bearer $METRICS_TOKEN`.
 * Without METRICS_TOKEN configured the endpoint does not exist (404).
 */
export const GET = api<Record<string, never>>({ query: "any" }, async (req, { app }) => {
  const token = app.env.METRICS_TOKEN;
  if (!token) throw new AppError("NOT_FOUND", { message: "Metrics are disabled (METRICS_TOKEN unset)", userMessage: "Not found." });
  const given = /^Bearer\s+(\S+)$/.exec(req.headers.get("authorization") ?? "")?.[1];
  if (!given) throw new AppError("UNAUTHENTICATED", { message: "Missing metrics token", userMessage: "Send `Authorization: Bearer <METRICS_TOKEN>`." });
  // A wrong token counts against the address like a wrong API key.
  const address = stampedClientAddress(req.headers);
  await app.throttles.beforeAuthentication(address);
  if (!safeEqual(given, token)) {
    await app.throttles.failed(address);
    throw new AppError("FORBIDDEN", { message: "Wrong metrics token", userMessage: "Wrong metrics token." });
  }
  return new Response(await app.metrics.registry.metrics(), {
    headers: { "Content-Type": app.metrics.registry.contentType, "Cache-Control": "no-store" },
  });
});
