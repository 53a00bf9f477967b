"use client";

import { useTranslations } from "next-intl";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "@/lib/core/webhooks/events";
import { INPUT } from "../_components/console-styles";

/** Message keys may not contain dots: "order.created" → "order_created". */
export const eventKey = (e: string) => e.replace(".", "_") as "order_created";

/** An endpoint's address and events: the same fields to add one and to change one. */
export function EndpointFields({ idPrefix, url, events }: { idPrefix: string; url?: string; events?: readonly WebhookEventType[] }) {
  const t = useTranslations("managerWebhooks");
  return (
    <>
      <div>
        <label htmlFor={`${idPrefix}-url`} className="mb-1 block text-lg font-semibold">
          {t("url")}
        </label>
        <input
          id={`${idPrefix}-url`}
          name="url"
          type="url"
          required
          maxLength={2000}
          defaultValue={url}
          placeholder={t("urlPlaceholder")}
          className={`${INPUT} bg-white`}
        />
      </div>
      <fieldset>
        <legend className="mb-1 text-lg font-semibold">{t("events")}</legend>
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          {WEBHOOK_EVENT_TYPES.map((e) => (
            <label key={e} className="flex min-h-11 items-center gap-2 text-lg">
              <input type="checkbox" name="events" value={e} defaultChecked={events ? events.includes(e) : true} className="h-6 w-6 accent-blue-700" />
              {t(`eventNames.${eventKey(e)}`)}
              <code className="text-sm text-slate-600">{e}</code>
            </label>
          ))}
        </div>
      </fieldset>
    </>
  );
}
