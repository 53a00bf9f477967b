"use client";

import { ConfirmButtons } from "../_components/confirm-buttons";
import { BUTTON } from "../_components/console-styles";
import { useState } from "react";
import { useTranslations } from "next-intl";
import type { StaffRole } from "@/lib/core/tenants";
import { dispatchFields, useStaffAction } from "@/app/_lib/use-staff-action";
import { FormError } from "@/app/_components/form-error";
import { rotateCode } from "./actions";
import { SecretBox } from "./secret-box";

type Result = Awaited<ReturnType<typeof rotateCode>>;

/** One role: ask, confirm, then show the new code once. */
export function RotateCode({ slug, role }: { slug: string; role: StaffRole }) {
  const t = useTranslations("managerAccess");
  const [confirming, setConfirming] = useState(false);
  const [state, dispatch, pending] = useStaffAction<Result>(rotateCode);
  const name = t(`roles.${role}`);

  function rotate() {
    setConfirming(false);
    dispatchFields(dispatch, { tenant: slug, role });
  }

  return (
    <li className="space-y-3 rounded-xl border-2 border-slate-300 bg-white p-4" data-testid={`rotate-${role}`}>
      <h3 className="text-xl font-bold">{name}</h3>
      {confirming ? (
        <div role="group" aria-label={t("rotate", { role: name })} className="space-y-3 rounded-xl border-2 border-amber-600 bg-amber-50 p-3">
          <p className="text-lg font-semibold text-amber-950">{t("rotateConfirm", { role: name })}</p>
          <ConfirmButtons yes={t("rotateYes", { role: name })} back={t("back")} onYes={rotate} onBack={() => setConfirming(false)} />
        </div>
      ) : (
        <button
          type="button"
          disabled={pending}
          onClick={() => setConfirming(true)}
          className={`${BUTTON} bg-slate-900 text-white hover:bg-slate-700 focus-visible:ring-blue-300`}
        >
          {pending ? t("rotating") : t("rotate", { role: name })}
        </button>
      )}
      <FormError message={state && !state.ok ? state.error : null} />
      {state?.ok ? <SecretBox heading={t("newCodeHeading", { role: name })} secret={state.data.code} testId={`new-code-${role}`} /> : null}
    </li>
  );
}
