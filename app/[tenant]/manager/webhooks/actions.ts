"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { WEBHOOK_EVENT_TYPES } from "@/lib/core/webhooks/events";
import { formList, staffAction } from "@/lib/edges/next/validated-action.server";

/** A new endpoint; its signing secret is in the answer only. */
export const createWebhook = staffAction(
  ["MANAGER"],
  (t) =>
    z.object({
      url: z.string().trim().min(1, t("managerWebhooks.errors.url")).max(2_000, t("managerWebhooks.errors.url")),
      events: formList(z.enum(WEBHOOK_EVENT_TYPES, { error: t("managerWebhooks.errors.events") })).refine(
        (e) => e.length > 0,
        t("managerWebhooks.errors.events"),
      ),
    }),
  async (input, { app, caller }): Promise<{ url: string; secret: string }> => {
    const made = await app.webhooks.create(caller.tenant, input, caller.actor);
    refresh();
    return { url: made.url, secret: made.secret };
  },
);

export const deleteWebhook = staffAction(
  ["MANAGER"],
  () => z.object({ id: z.string().max(64) }),
  async ({ id }, { app, caller }): Promise<{ url: string }> => {
    const gone = await app.webhooks.delete(caller.tenant, id, caller.actor);
    refresh();
    return { url: gone.url };
  },
);
