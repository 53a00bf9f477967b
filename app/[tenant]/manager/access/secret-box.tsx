"use client";

import { useTranslations } from "next-intl";

/** A code or key shown once: marked clearly, selectable in one click, with a copy hint. */
export function SecretBox({ heading, secret, testId }: { heading: string; secret: string; testId: string }) {
  const t = useTranslations("managerAccess");
  return (
    <div role="status" className="space-y-2 rounded-xl border-4 border-amber-600 bg-amber-50 p-4 text-amber-950">
      <p className="text-lg font-bold">{heading}</p>
      <p className="font-semibold">{t("shownOnce")}</p>
      <code
        data-testid={testId}
        className="block select-all break-all rounded-lg border-2 border-amber-700 bg-white px-4 py-3 font-mono text-2xl text-slate-950"
      >
        {secret}
      </code>
      <p className="text-base">{t("copyHint")}</p>
    </div>
  );
}
