"use client";

import { useEffect, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { dispatchFields, submitTo, useStaffAction } from "@/app/_lib/use-staff-action";
import { FormError } from "@/app/_components/form-error";
import { SecretBox } from "../access/secret-box";
import { BUTTON } from "../_components/console-styles";
import { StatusNote } from "../_components/status-note";
import { useFreshError } from "../_components/use-fresh-error";
import { createWebhook, deleteWebhook } from "./actions";
import { EndpointCard } from "./endpoint-card";
import { EndpointFields } from "./endpoint-fields";
import type { EndpointRow } from "./rows";

/** Re-reads the page every few seconds while a message is still being sent, so its outcome (a test's too) shows by itself. */
const SENDING_REFRESH_MS = 3_000;
/** A stuck queue (no worker) must not make the page refresh forever. */
const MAX_SENDING_REFRESHES = 40;

function useRefreshWhileSending(endpoints: EndpointRow[]) {
  const router = useRouter();
  const count = useRef(0);
  const sending = endpoints.some((e) => e.deliveries.some((d) => d.state === "waiting"));
  useEffect(() => {
    if (!sending || count.current >= MAX_SENDING_REFRESHES) return;
    const t = setTimeout(() => {
      count.current += 1;
      router.refresh();
    }, SENDING_REFRESH_MS);
    return () => clearTimeout(t);
  }, [sending, endpoints, router]);
}

/** Add an endpoint (its secret shown once), list them with their recent messages, delete with a confirmation. */
export function WebhooksPanel({ slug, endpoints }: { slug: string; endpoints: EndpointRow[] }) {
  const t = useTranslations("managerWebhooks");
  const [created, create, creating] = useStaffAction(createWebhook);
  const [deleted, remove, deleting] = useStaffAction(deleteWebhook);
  const [confirmId, setConfirmId] = useState<string | null>(null);

  const submitCreate = submitTo(create);
  const [createError, clearCreateError] = useFreshError(created);
  useRefreshWhileSending(endpoints);

  function submitDelete(id: string) {
    setConfirmId(null);
    dispatchFields(remove, { tenant: slug, id });
  }

  return (
    <div className="space-y-6">
      <FormError message={deleted && !deleted.ok ? deleted.error : null} />
      <StatusNote token={deleted}>{deleted?.ok ? t("deleted", { url: deleted.data.url }) : null}</StatusNote>

      {endpoints.length === 0 ? <p className="text-lg text-slate-700">{t("none")}</p> : null}
      {endpoints.map((e) => (
        <EndpointCard
          key={e.id}
          slug={slug}
          e={e}
          confirming={confirmId === e.id}
          onConfirm={(on) => setConfirmId(on ? e.id : null)}
          onDelete={() => submitDelete(e.id)}
          deleting={deleting}
        />
      ))}

      <h2 id="add-webhook" className="pt-2 text-2xl font-bold">
        {t("addHeading")}
      </h2>
      <form
        key={created?.ok ? created.data.url : "new"}
        onSubmit={submitCreate}
        onInput={clearCreateError}
        aria-labelledby="add-webhook"
        className="space-y-4 rounded-xl border-2 border-slate-300 bg-white p-4"
      >
        <input type="hidden" name="tenant" value={slug} />
        <EndpointFields idPrefix="webhook" />
        <button type="submit" disabled={creating} className={`${BUTTON} bg-slate-900 text-white hover:bg-slate-700 focus-visible:ring-blue-300`}>
          {creating ? t("creating") : t("create")}
        </button>
      </form>
      <FormError message={createError} />
      {created?.ok ? (
        <div className="space-y-2">
          <SecretBox heading={t("newSecretHeading", { url: created.data.url })} secret={created.data.secret} testId="new-webhook-secret" />
          <p className="text-base text-slate-700">{t("secretHint")}</p>
        </div>
      ) : null}
    </div>
  );
}
