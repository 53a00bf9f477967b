import { api, authorize, json } from "@/lib/edges/http/api.server";
import { webhookJson } from "@/lib/edges/http/webhook-json";
import type { z } from "zod";
import type { webhookWithSecretSchema } from "@/lib/edges/http/webhook-json";

/** A new signing secret for this endpoint, in this answer only; the old one stops at once. */
export const POST = api<{ slug: string; id: string }>({}, async (req, { params, app }) => {
  const caller = await authorize(app, req, params.slug, ["MANAGER"]);
  const rotated = await app.webhooks.rotateSecret(caller.tenant, params.id, caller.actor);
  return json({ ...webhookJson(rotated), secret: rotated.secret } satisfies z.output<typeof webhookWithSecretSchema>, 200, { "Cache-Control": "no-store" });
});
