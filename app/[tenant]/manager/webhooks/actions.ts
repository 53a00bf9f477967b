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

/** Changes an endpoint's URL and events (checked as when created); its secret stays. */
export const updateWebhook = staffAction(
  ["MANAGER"],
  (t) =>
    z.object({
      id: z.string().max(64),
      url: z.string().trim().min(1, t("managerWebhooks.errors.url")).max(2_000, t("managerWebhooks.errors.url")),
      events: formList(z.enum(WEBHOOK_EVENT_TYPES, { error: t("managerWebhooks.errors.events") })).refine(
        (e) => e.length > 0,
        t("managerWebhooks.errors.events"),
      ),
    }),
  async ({ id, ...patch }, { app, caller }): Promise<{ id: string; url: string }> => {
    const after = await app.webhooks.update(caller.tenant, id, patch, caller.actor);
    refresh();
    return { id: after.id, url: after.url };
  },
);

/** A new signing secret for an endpoint, in the answer only; the old one stops at once. */
export const rotateWebhookSecret = staffAction(
  ["MANAGER"],
  () => z.object({ id: z.string().max(64) }),
  async ({ id }, { app, caller }): Promise<{ url: string; secret: string }> => {
    const rotated = await app.webhooks.rotateSecret(caller.tenant, id, caller.actor);
    return { url: rotated.url, secret: rotated.secret };
  },
);

/** Queues a test message for an endpoint; the page lists it with its outcome. */
export const pingWebhook = staffAction(
  ["MANAGER"],
  () => z.object({ id: z.string().max(64) }),
  async ({ id }, { app, caller }): Promise<{ id: string }> => {
    await app.webhooks.ping(caller.tenant, id, caller.actor);
    refresh();
    return { id };
  },
);
