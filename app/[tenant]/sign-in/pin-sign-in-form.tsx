"use client";

import { useActionState, useState } from "react";
import { useTranslations } from "next-intl";
import type { StaffRole } from "@/lib/core/tenants";
import { signInWithPin } from "./actions";
import { FormError } from "@/app/_components/form-error";
import { SignInButton } from "./sign-in-button";

/** A person the sign-in page offers: id and name (and role, to group them), never anything of the PIN. */
export interface SignInName {
  id: string;
  name: string;
  role: StaffRole;
}

const ROLES: readonly StaffRole[] = ["KITCHEN", "CASHIER", "MANAGER"];

/**
 * Sign-in by person (decision 0051): choose your name, type your PIN. After a refusal the
 * form is remounted with the PIN cleared and focused; the chosen name is kept.
 */
export function PinSignInForm({ slug, next, people, defaultMember }: { slug: string; next: string; people: SignInName[]; defaultMember: string }) {
  const t = useTranslations("signIn");
  const [state, formAction, pending] = useActionState(signInWithPin, null);
  const [member, setMember] = useState(defaultMember);
  const [attempt, setAttempt] = useState(0);
  const [seenState, setSeenState] = useState(state);
  if (state !== seenState) {
    setSeenState(state);
    if (state) setAttempt((a) => a + 1);
  }
  const error = state && !state.ok ? state.error : null;
  const groups = ROLES.map((role) => ({ role, people: people.filter((p) => p.role === role) })).filter((g) => g.people.length > 0);

  return (
    <form key={attempt} action={formAction} aria-labelledby="by-pin-heading" className="space-y-6" noValidate>
      <input type="hidden" name="tenant" value={slug} />
      <input type="hidden" name="next" value={next} />
      <h2 id="by-pin-heading" className="text-2xl font-bold">
        {t("byPinHeading")}
      </h2>

      <div className="grid gap-5 sm:grid-cols-[3fr_2fr]">
        <div>
          <label htmlFor="member" className="mb-2 block text-lg font-semibold">
            {t("name")}
          </label>
          <select
            id="member"
            name="member"
            value={member}
            onChange={(e) => setMember(e.target.value)}
            autoFocus={state == null && !defaultMember}
            required
            aria-invalid={error && !member ? true : undefined}
            aria-describedby={error ? "pin-sign-in-error" : undefined}
            className="w-full rounded-xl border-2 border-slate-400 bg-white px-4 py-3 text-2xl focus:border-blue-700 focus:outline-none focus:ring-4 focus:ring-blue-200"
          >
            <option value="" disabled>
              {t("chooseNamePlaceholder")}
            </option>
            {groups.map((g) => (
              <optgroup key={g.role} label={t(`roles.${g.role}.label`)}>
                {g.people.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="pin" className="mb-2 block text-lg font-semibold">
            {t("pin")}
          </label>
          <input
            id="pin"
            name="pin"
            type="password"
            inputMode="numeric"
            autoComplete="off"
            maxLength={8}
            autoFocus={state != null || !!defaultMember}
            required
            aria-invalid={error && member ? true : undefined}
            aria-describedby={error ? "pin-hint pin-sign-in-error" : "pin-hint"}
            className="w-full rounded-xl border-2 border-slate-400 bg-white px-4 py-3 text-2xl tracking-widest focus:border-blue-700 focus:outline-none focus:ring-4 focus:ring-blue-200"
          />
        </div>
      </div>
      <p id="pin-hint" className="-mt-3 text-base text-slate-600">
        {t("pinHint")}
      </p>

      <FormError id="pin-sign-in-error" testId="pin-sign-in-error" message={error} />

      <SignInButton pending={pending} />
    </form>
  );
}
