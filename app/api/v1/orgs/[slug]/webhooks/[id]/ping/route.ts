import { api, authorize, json } from "@/lib/edges/http/api.server";
import type { z } from "zod";
import type { pingQueuedSchema } from "@/lib/edges/http/openapi/schemas/console";

/** Queues a test message (`ping`) for this endpoint; its outcome shows in its deliveries. */
export const POST = api<{ slug: string; id: string }>({}, async (req, { params, app }) => {
  const caller = await authorize(app, req, params.slug, ["MANAGER"]);
  const { deliveryId } = await app.webhooks.ping(caller.tenant, params.id, caller.actor);
  return json({ deliveryId } satisfies z.output<typeof pingQueuedSchema>, 202);
});
