"use client";

import { useState } from "react";
import { useTranslations } from "next-intl";
import { WEBHOOK_EVENT_TYPES } from "@/lib/core/webhooks/events";
import { dispatchFields, submitTo, useStaffAction } from "@/app/_lib/use-staff-action";
import { FormError } from "@/app/_components/form-error";
import { ConfirmButtons } from "../_components/confirm-buttons";
import { BUTTON } from "../_components/console-styles";
import { StatusNote } from "../_components/status-note";
import { useFreshError } from "../_components/use-fresh-error";
import { ColumnHeads } from "../_components/column-heads";
import { SecretBox } from "../access/secret-box";
import { pingWebhook, rotateWebhookSecret, updateWebhook } from "./actions";
import { EndpointFields, eventKey } from "./endpoint-fields";
import type { DeliveryRow, EndpointRow } from "./rows";

const STATE_STYLE: Record<DeliveryRow["state"], string> = {
  delivered: "font-semibold text-emerald-800",
  retrying: "font-semibold text-amber-800",
  waiting: "text-slate-700",
  gaveUp: "font-semibold text-red-800",
};

const OUTLINE = `${BUTTON} min-h-12 border-2 bg-white`;

/** One endpoint: its address and events (editable), a test message, a new secret and delete (each confirmed), its recent messages. */
export function EndpointCard({
  slug,
  e,
  confirming,
  onConfirm,
  onDelete,
  deleting,
}: {
  slug: string;
  e: EndpointRow;
  confirming: boolean;
  onConfirm: (on: boolean) => void;
  onDelete: () => void;
  deleting: boolean;
}) {
  const t = useTranslations("managerWebhooks");
  const [editing, setEditing] = useState(false);
  const [saved, save, saving] = useStaffAction(updateWebhook);
  const [pinged, ping, pinging] = useStaffAction(pingWebhook);
  const [rotated, rotate, rotating] = useStaffAction(rotateWebhookSecret);
  const [confirmingRotate, setConfirmingRotate] = useState(false);
  const [saveError, clearSaveError] = useFreshError(saved);
  const [savedFor, setSavedFor] = useState<unknown>(null);
  // A save that worked closes the form (once per answer).
  if (saved?.ok && savedFor !== saved) {
    setSavedFor(saved);
    setEditing(false);
  }

  return (
    <section aria-labelledby={`webhook-${e.id}`} data-testid="webhook" className="space-y-3 rounded-xl border-2 border-slate-300 bg-white p-4">
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
        {confirming || editing || confirmingRotate ? null : (
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              disabled={pinging}
              onClick={() => dispatchFields(ping, { tenant: slug, id: e.id })}
              className={`${OUTLINE} border-blue-700 text-blue-800 hover:bg-blue-50 focus-visible:ring-blue-300`}
            >
              {pinging ? t("pinging") : t("ping")}
            </button>
            <button
              type="button"
              onClick={() => setEditing(true)}
              className={`${OUTLINE} border-slate-500 text-slate-800 hover:bg-slate-100 focus-visible:ring-blue-300`}
            >
              {t("edit")}
            </button>
            <button
              type="button"
              disabled={rotating}
              onClick={() => setConfirmingRotate(true)}
              className={`${OUTLINE} border-amber-700 text-amber-900 hover:bg-amber-50 focus-visible:ring-amber-300`}
            >
              {rotating ? t("rotating") : t("rotate")}
            </button>
            <button
              type="button"
              disabled={deleting}
              onClick={() => onConfirm(true)}
              className={`${OUTLINE} border-red-700 text-red-800 hover:bg-red-50 focus-visible:ring-red-300`}
            >
              {t("delete")}
            </button>
          </div>
        )}
      </div>
      <StatusNote token={pinged} testId="ping-sent">
        {pinged?.ok ? t("pingQueued") : null}
      </StatusNote>
      <FormError message={pinged && !pinged.ok ? pinged.error : null} />
      <StatusNote token={saved}>{saved?.ok && !editing ? t("saved") : null}</StatusNote>
      <FormError message={rotated && !rotated.ok ? rotated.error : null} />
      {confirmingRotate ? (
        <div className="space-y-2 rounded-lg border-2 border-amber-600 bg-amber-50 p-3">
          <p className="text-lg font-semibold text-amber-950">{t("rotateConfirm")}</p>
          <ConfirmButtons
            yes={t("rotateYes")}
            back={t("back")}
            onYes={() => {
              setConfirmingRotate(false);
              dispatchFields(rotate, { tenant: slug, id: e.id });
            }}
            onBack={() => setConfirmingRotate(false)}
            pending={rotating}
          />
        </div>
      ) : null}
      {rotated?.ok && !confirmingRotate ? (
        <div className="space-y-2">
          <SecretBox heading={t("newSecretHeading", { url: rotated.data.url })} secret={rotated.data.secret} testId="rotated-webhook-secret" />
          <p className="text-base text-slate-700">{t("rotatedHint")}</p>
        </div>
      ) : null}
      {confirming ? (
        <div className="space-y-2 rounded-lg border-2 border-amber-600 bg-amber-50 p-3">
          <p className="text-lg font-semibold text-amber-950">{t("deleteConfirm")}</p>
          <ConfirmButtons yes={t("deleteYes")} back={t("back")} onYes={onDelete} onBack={() => onConfirm(false)} pending={deleting} />
        </div>
      ) : null}
      {editing ? (
        <form
          onSubmit={submitTo(save)}
          onInput={clearSaveError}
          aria-label={t("editHeading", { url: e.url })}
          className="space-y-4 rounded-lg border-2 border-blue-700 bg-blue-50 p-4"
        >
          <input type="hidden" name="tenant" value={slug} />
          <input type="hidden" name="id" value={e.id} />
          <EndpointFields idPrefix={`edit-${e.id}`} url={e.url} events={e.events} />
          <FormError message={saveError} />
          <div className="flex flex-wrap gap-3">
            <button type="submit" disabled={saving} className={`${BUTTON} bg-slate-900 text-white hover:bg-slate-700 focus-visible:ring-blue-300`}>
              {saving ? t("saving") : t("save")}
            </button>
            <button
              type="button"
              onClick={() => setEditing(false)}
              className={`${OUTLINE} border-slate-500 text-slate-800 hover:bg-slate-100 focus-visible:ring-blue-300`}
            >
              {t("cancel")}
            </button>
          </div>
        </form>
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
                    {d.type === "ping"
                      ? t("eventNames.ping")
                      : (WEBHOOK_EVENT_TYPES as readonly string[]).includes(d.type)
                        ? t(`eventNames.${eventKey(d.type)}`)
                        : d.type}
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
  );
}
