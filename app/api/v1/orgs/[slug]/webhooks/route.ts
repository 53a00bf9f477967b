import { api, authorize, json, readJson } from "@/lib/edges/http/api.server";
import { webhookJson } from "@/lib/edges/http/webhook-json";
import type { z } from "zod";
import type { webhookWithSecretSchema } from "@/lib/edges/http/webhook-json";

/** The restaurant's webhook endpoints; never a secret. */
export const GET = api<{ slug: string }>({}, async (req, { params, app }) => {
  const caller = await authorize(app, req, params.slug, ["MANAGER"]);
  return json({ webhooks: (await app.webhooks.list(caller.tenant)).map(webhookJson) });
});

/** A new endpoint `{ url, events }`; its signing secret is in this answer only. */
export const POST = api<{ slug: string }>({ body: "json" }, async (req, { params, app }) => {
  const caller = await authorize(app, req, params.slug, ["MANAGER"]);
  const made = await app.webhooks.create(caller.tenant, await readJson(req), caller.actor);
  return json({ ...webhookJson(made), secret: made.secret } satisfies z.output<typeof webhookWithSecretSchema>, 201, { "Cache-Control": "no-store" });
});
