"use client";

import { useTranslations } from "next-intl";

/** The sign-in forms' one big button (by name and PIN, or by a role's code). */
export function SignInButton({ pending }: { pending: boolean }) {
  const t = useTranslations("signIn");
  return (
    <button
      type="submit"
      disabled={pending}
      className="w-full rounded-xl bg-blue-700 px-6 py-4 text-2xl font-bold text-white hover:bg-blue-800 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-300 disabled:cursor-wait disabled:opacity-70"
    >
      {pending ? t("submitting") : t("submit")}
    </button>
  );
}
