"use client";

import { useState } from "react";
import { useTranslations } from "next-intl";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "@/lib/core/webhooks/events";
import { dispatchFields, submitTo, useStaffAction } from "@/app/_lib/use-staff-action";
import { FormError } from "@/app/_components/form-error";
import { SecretBox } from "../access/secret-box";
import { ConfirmButtons } from "../_components/confirm-buttons";
import { BUTTON, INPUT } from "../_components/console-styles";
import { StatusNote } from "../_components/status-note";
import { ColumnHeads } from "../_components/column-heads";
import { createWebhook, deleteWebhook } from "./actions";

export interface DeliveryRow {
  id: string;
  type: string;
  at: string;
  state: "delivered" | "gaveUp" | "retrying" | "waiting";
  nextAttempt: string | null;
  attempts: number;
  answer: string | null;
}

export interface EndpointRow {
  id: string;
  url: string;
  events: WebhookEventType[];
  created: string;
  createdBy: string | null;
  deliveries: DeliveryRow[];
}

const STATE_STYLE: Record<DeliveryRow["state"], string> = {
  delivered: "font-semibold text-emerald-800",
  retrying: "font-semibold text-amber-800",
  waiting: "text-slate-700",
  gaveUp: "font-semibold text-red-800",
};

/** Message keys may not contain dots: "order.created" → "order_created". */
const eventKey = (e: string) => e.replace(".", "_") as "order_created";

/** Add an endpoint (its secret shown once), list them with their recent messages, delete with a confirmation. */
export function WebhooksPanel({ slug, endpoints }: { slug: string; endpoints: EndpointRow[] }) {
  const t = useTranslations("managerWebhooks");
  const [created, create, creating] = useStaffAction(createWebhook);
  const [deleted, remove, deleting] = useStaffAction(deleteWebhook);
  const [confirmId, setConfirmId] = useState<string | null>(null);

  const submitCreate = submitTo(create);

  function submitDelete(id: string) {
    setConfirmId(null);
    dispatchFields(remove, { tenant: slug, id });
  }

  return (
    <div className="space-y-6">
      <FormError message={deleted && !deleted.ok ? deleted.error : null} />
      {deleted?.ok ? <StatusNote>{t("deleted", { url: deleted.data.url })}</StatusNote> : null}

      {endpoints.length === 0 ? <p className="text-lg text-slate-700">{t("none")}</p> : null}
      {endpoints.map((e) => (
        <section key={e.id} aria-labelledby={`webhook-${e.id}`} data-testid="webhook" className="space-y-3 rounded-xl border-2 border-slate-300 bg-white p-4">
          <div className="flex flex-wrap items-start justify-between gap-3">
            <div className="min-w-0">
              <h2 id={`webhook-${e.id}`} className="break-all font-mono text-lg font-bold">
                {e.url}
              </h2>
              <p className="text-base text-slate-700">{e.events.map((ev) => t(`eventNames.${eventKey(ev)}`)).join(" · ")}</p>
              <p className="text-sm text-slate-600">
                {t("created", { at: e.created })}
                {e.createdBy ? ` ${t("by", { who: e.createdBy })}` : ""}
              </p>
            </div>
            {confirmId === e.id ? null : (
              <button
                type="button"
                disabled={deleting}
                onClick={() => setConfirmId(e.id)}
                className={`${BUTTON} min-h-12 border-2 border-red-700 bg-white text-red-800 hover:bg-red-50 focus-visible:ring-red-300`}
              >
                {t("delete")}
              </button>
            )}
          </div>
          {confirmId === e.id ? (
            <div className="space-y-2 rounded-lg border-2 border-amber-600 bg-amber-50 p-3">
              <p className="text-lg font-semibold text-amber-950">{t("deleteConfirm")}</p>
              <ConfirmButtons yes={t("deleteYes")} back={t("back")} onYes={() => submitDelete(e.id)} onBack={() => setConfirmId(null)} pending={deleting} />
            </div>
          ) : null}
          <h3 className="text-lg font-semibold">{t("recent")}</h3>
          {e.deliveries.length === 0 ? (
            <p className="text-base text-slate-700">{t("noDeliveries")}</p>
          ) : (
            <div className="overflow-x-auto">
              <table className="w-full border-collapse text-left text-base">
                <ColumnHeads labels={(["at", "event", "status", "attempts", "answer"] as const).map((c) => t(`table.${c}`))} />
                <tbody>
                  {e.deliveries.map((d) => (
                    <tr key={d.id} data-testid={`delivery-${d.state}`} className="border-b border-slate-200">
                      <td className="whitespace-nowrap px-2 py-2 tabular-nums">{d.at}</td>
                      <td className="px-2 py-2">
                        {(WEBHOOK_EVENT_TYPES as readonly string[]).includes(d.type) ? t(`eventNames.${eventKey(d.type)}`) : d.type}
                      </td>
                      <td className={`px-2 py-2 ${STATE_STYLE[d.state]}`}>
                        {d.state === "retrying" ? t("status.retrying", { at: d.nextAttempt ?? "" }) : t(`status.${d.state}`)}
                      </td>
                      <td className="px-2 py-2 tabular-nums">{d.attempts}</td>
                      <td className="break-all px-2 py-2 text-slate-700">{d.answer ?? "—"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      ))}

      <h2 id="add-webhook" className="pt-2 text-2xl font-bold">
        {t("addHeading")}
      </h2>
      <form onSubmit={submitCreate} aria-labelledby="add-webhook" className="space-y-4 rounded-xl border-2 border-slate-300 bg-white p-4">
        <input type="hidden" name="tenant" value={slug} />
        <div>
          <label htmlFor="webhook-url" className="mb-1 block text-lg font-semibold">
            {t("url")}
          </label>
          <input id="webhook-url" name="url" type="url" required maxLength={2000} placeholder={t("urlPlaceholder")} className={INPUT} />
        </div>
        <fieldset>
          <legend className="mb-1 text-lg font-semibold">{t("events")}</legend>
          <div className="flex flex-wrap gap-x-6 gap-y-2">
            {WEBHOOK_EVENT_TYPES.map((e) => (
              <label key={e} className="flex min-h-11 items-center gap-2 text-lg">
                <input type="checkbox" name="events" value={e} defaultChecked className="h-6 w-6 accent-blue-700" />
                {t(`eventNames.${eventKey(e)}`)}
                <code className="text-sm text-slate-600">{e}</code>
              </label>
            ))}
          </div>
        </fieldset>
        <button type="submit" disabled={creating} className={`${BUTTON} bg-slate-900 text-white hover:bg-slate-700 focus-visible:ring-blue-300`}>
          {creating ? t("creating") : t("create")}
        </button>
      </form>
      <FormError message={created && !created.ok ? created.error : null} />
      {created?.ok ? (
        <div className="space-y-2">
          <SecretBox heading={t("newSecretHeading", { url: created.data.url })} secret={created.data.secret} testId="new-webhook-secret" />
          <p className="text-base text-slate-700">{t("secretHint")}</p>
        </div>
      ) : null}
    </div>
  );
}
