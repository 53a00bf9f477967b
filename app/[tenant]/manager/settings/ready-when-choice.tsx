"use client";

import { useTranslations } from "next-intl";
import { READY_WHEN, type ReadyWhen } from "@/lib/core/stations";

/** When an order split between kitchen stations becomes ready: its last station's Done, or the expo screen's bump. */
export function ReadyWhenChoice({ initial }: { initial: ReadyWhen }) {
  const t = useTranslations("managerSettings.readyWhen");
  return (
    <fieldset aria-describedby="s-ready-when-hint">
      <legend className="mb-1 block text-lg font-semibold">{t("label")}</legend>
      <div className="flex flex-wrap gap-x-8 gap-y-2">
        {READY_WHEN.map((v) => (
          <label key={v} className="flex min-h-12 items-center gap-3 text-lg">
            <input type="radio" name="readyWhen" value={v} defaultChecked={initial === v} className="size-6 accent-blue-700" />
            {t(v)}
          </label>
        ))}
      </div>
      <p id="s-ready-when-hint" className="mt-1 text-base text-slate-600">
        {t("hint")}
      </p>
    </fieldset>
  );
}
