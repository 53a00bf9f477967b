"use client";

import { useState } from "react";
import { useTranslations } from "next-intl";
import { STAFF_ROLES, type StaffRole } from "@/lib/core/tenants";
import { dispatchFields, submitTo, useStaffAction } from "@/app/_lib/use-staff-action";
import { FormError } from "@/app/_components/form-error";
import { createKey, revokeKey } from "./actions";
import { SecretBox } from "./secret-box";
import { BUTTON, INPUT } from "../_components/console-styles";
import { StatusNote } from "../_components/status-note";
import { useFreshError } from "../_components/use-fresh-error";
import { ColumnHeads } from "../_components/column-heads";

export interface KeyRow {
  id: string;
  role: StaffRole;
  name: string;
  prefix: string;
  created: string;
  createdBy: string | null;
  revoked: string | null;
}

/** Create a key (shown once), list them without secrets, revoke with a second click. */
export function ApiKeys({ slug, keys }: { slug: string; keys: KeyRow[] }) {
  const t = useTranslations("managerAccess");
  const [created, create, creating] = useStaffAction(createKey);
  const [revoked, revoke, revoking] = useStaffAction(revokeKey);
  const [confirmId, setConfirmId] = useState<string | null>(null);

  const submitCreate = submitTo(create);
  const [createError, clearError] = useFreshError(created);

  function submitRevoke(id: string) {
    if (confirmId !== id) {
      setConfirmId(id);
      return;
    }
    setConfirmId(null);
    dispatchFields(revoke, { tenant: slug, id });
  }

  return (
    <div className="space-y-6">
      {/* A new key empties the form (a new form), ready for the next one. */}
      <form
        key={created?.ok ? created.data.prefix : "new"}
        onSubmit={submitCreate}
        onInput={clearError}
        className="grid gap-4 rounded-xl border-2 border-slate-300 bg-white p-4 sm:grid-cols-[1fr_12rem_auto] sm:items-end"
      >
        <input type="hidden" name="tenant" value={slug} />
        <div>
          <label htmlFor="key-name" className="mb-1 block text-lg font-semibold">
            {t("keyName")}
          </label>
          <input id="key-name" name="name" required maxLength={80} placeholder={t("keyNamePlaceholder")} className={INPUT} />
        </div>
        <div>
          <label htmlFor="key-role" className="mb-1 block text-lg font-semibold">
            {t("keyRole")}
          </label>
          <select id="key-role" name="role" defaultValue="CASHIER" className={INPUT}>
            {STAFF_ROLES.map((r) => (
              <option key={r} value={r}>
                {t(`roles.${r}`)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" disabled={creating} className={`${BUTTON} bg-slate-900 text-white hover:bg-slate-700 focus-visible:ring-blue-300`}>
          {creating ? t("creating") : t("create")}
        </button>
      </form>
      <FormError message={createError} />
      {created?.ok ? <SecretBox heading={t("newKeyHeading", { name: created.data.name })} secret={created.data.key} testId="new-key" /> : null}

      <FormError message={revoked && !revoked.ok ? revoked.error : null} />
      <StatusNote token={revoked}>{revoked?.ok ? t("revokedNow", { name: revoked.data.name }) : null}</StatusNote>

      {keys.length === 0 ? (
        <p className="text-lg text-slate-700">{t("noKeys")}</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full border-collapse text-left text-base">
            <ColumnHeads labels={(["name", "role", "prefix", "created", "status", "actions"] as const).map((c) => t(`table.${c}`))} />
            <tbody>
              {keys.map((k) => (
                <tr key={k.id} data-testid={`key-${k.prefix}`} className="border-b border-slate-200">
                  <td className="px-2 py-2 font-medium">{k.name || t("unnamed")}</td>
                  <td className="px-2 py-2">{t(`roles.${k.role}`)}</td>
                  <td className="px-2 py-2 font-mono">{k.prefix}</td>
                  <td className="px-2 py-2">
                    {k.created}
                    {k.createdBy ? <span className="block text-sm text-slate-600">{t("by", { who: k.createdBy })}</span> : null}
                  </td>
                  <td className="px-2 py-2">
                    {k.revoked ? (
                      <span className="text-slate-600">{t("revoked", { at: k.revoked })}</span>
                    ) : (
                      <span className="font-semibold text-emerald-800">{t("active")}</span>
                    )}
                  </td>
                  <td className="px-2 py-2">
                    {k.revoked ? null : (
                      <button
                        type="button"
                        disabled={revoking}
                        onClick={() => submitRevoke(k.id)}
                        onBlur={() => setConfirmId((c) => (c === k.id ? null : c))}
                        className={`${BUTTON} min-h-12 border-2 ${confirmId === k.id ? "border-red-800 bg-red-700 text-white" : "border-red-700 bg-white text-red-800 hover:bg-red-50"} focus-visible:ring-red-300`}
                      >
                        {confirmId === k.id ? t("revokeConfirm", { name: k.name || k.prefix }) : t("revoke")}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
