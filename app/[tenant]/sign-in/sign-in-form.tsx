"use client";

import { useActionState } from "react";
import type { StaffRole } from "@/lib/core/tenants";
import { ROLE_LABEL } from "@/lib/auth/roles";
import { signIn, type SignInState } from "./actions";
import { FormError } from "@/app/_components/form-error";

const ROLES: { role: StaffRole; hint: string }[] = [
  { role: "CASHIER", hint: "Take orders and hand out numbers" },
  { role: "KITCHEN", hint: "Mark orders ready and collected" },
  { role: "MANAGER", hint: "Start shifts, see every screen" },
];

export function SignInForm({ slug, next, defaultRole }: { slug: string; next: string; defaultRole: StaffRole }) {
  const [state, formAction, pending] = useActionState<SignInState, FormData>(signIn, null);
  const role = state?.role ?? defaultRole;

  return (
    // Remount after each attempt so the chosen role stays selected and the code field is cleared.
    <form key={state?.attempt ?? 0} action={formAction} className="space-y-6" noValidate>
      <input type="hidden" name="tenant" value={slug} />
      <input type="hidden" name="next" value={next} />

      <fieldset>
        <legend className="mb-3 text-lg font-semibold">I am working as</legend>
        <div className="grid gap-3 sm:grid-cols-3">
          {ROLES.map(({ role: r, hint }) => (
            <label
              key={r}
              className="flex cursor-pointer flex-col rounded-xl border-2 border-slate-300 bg-white p-4 has-checked:border-blue-700 has-checked:bg-blue-50 has-focus-visible:ring-4 has-focus-visible:ring-blue-300"
            >
              <span className="flex items-center gap-2 text-xl font-bold">
                <input type="radio" name="role" value={r} defaultChecked={r === role} className="size-5 accent-blue-700" />
                {ROLE_LABEL[r]}
              </span>
              <span className="mt-1 text-sm text-slate-600">{hint}</span>
            </label>
          ))}
        </div>
      </fieldset>

      <div>
        <label htmlFor="code" className="mb-2 block text-lg font-semibold">
          Sign-in code
        </label>
        <input
          id="code"
          name="code"
          type="password"
          autoComplete="current-password"
          autoFocus={state != null}
          required
          aria-invalid={state?.error ? true : undefined}
          aria-describedby={state?.error ? "sign-in-error" : undefined}
          className="w-full rounded-xl border-2 border-slate-400 bg-white px-4 py-3 text-2xl focus:border-blue-700 focus:outline-none focus:ring-4 focus:ring-blue-200"
        />
      </div>

      <FormError id="sign-in-error" testId="sign-in-error" message={state?.error} />

      <button
        type="submit"
        disabled={pending}
        className="w-full rounded-xl bg-blue-700 px-6 py-4 text-2xl font-bold text-white hover:bg-blue-800 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-300 disabled:cursor-wait disabled:opacity-70"
      >
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
