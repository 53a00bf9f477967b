"use client";

import { useActionState, useState } from "react";
import { useTranslations } from "next-intl";
import type { StaffRole } from "@/lib/core/tenants";
import { signIn } from "./actions";
import { FormError } from "@/app/_components/form-error";
import { SignInButton } from "./sign-in-button";

const ROLES: readonly StaffRole[] = ["CASHIER", "KITCHEN", "MANAGER"];

export function SignInForm({ slug, next, defaultRole, labelledBy }: { slug: string; next: string; defaultRole: StaffRole; labelledBy?: string }) {
  const t = useTranslations("signIn");
  const [state, formAction, pending] = useActionState(signIn, null);
  // The form is remounted after each attempt (the code field cleared); the chosen role is kept.
  const [role, setRole] = useState<StaffRole>(defaultRole);
  const [attempt, setAttempt] = useState(0);
  const [seenState, setSeenState] = useState(state);
  if (state !== seenState) {
    setSeenState(state);
    if (state) setAttempt((a) => a + 1);
  }
  const error = state && !state.ok ? state.error : null;

  return (
    <form key={attempt} action={formAction} aria-labelledby={labelledBy} className="space-y-6" noValidate>
      <input type="hidden" name="tenant" value={slug} />
      <input type="hidden" name="next" value={next} />

      <fieldset>
        <legend className="mb-3 text-lg font-semibold">{t("roleLegend")}</legend>
        <div className="grid gap-3 sm:grid-cols-3">
          {ROLES.map((r) => (
            <label
              key={r}
              className="flex cursor-pointer flex-col rounded-xl border-2 border-slate-300 bg-white p-4 has-checked:border-blue-700 has-checked:bg-blue-50 has-focus-visible:ring-4 has-focus-visible:ring-blue-300"
            >
              <span className="flex items-center gap-2 text-xl font-bold">
                <input type="radio" name="role" value={r} defaultChecked={r === role} onChange={() => setRole(r)} className="size-5 accent-blue-700" />
                {t(`roles.${r}.label`)}
              </span>
              <span className="mt-1 text-sm text-slate-600">{t(`roles.${r}.hint`)}</span>
            </label>
          ))}
        </div>
      </fieldset>

      <div>
        <label htmlFor="code" className="mb-2 block text-lg font-semibold">
          {t("code")}
        </label>
        <input
          id="code"
          name="code"
          type="password"
          autoComplete="current-password"
          autoFocus={state != null}
          required
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "sign-in-error" : undefined}
          className="w-full rounded-xl border-2 border-slate-400 bg-white px-4 py-3 text-2xl focus:border-blue-700 focus:outline-none focus:ring-4 focus:ring-blue-200"
        />
      </div>

      <FormError id="sign-in-error" testId="sign-in-error" message={error} />

      <SignInButton pending={pending} />
    </form>
  );
}
