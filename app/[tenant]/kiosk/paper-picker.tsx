"use client";

import { useTranslations } from "next-intl";
import { PAPERS, type Paper } from "./use-kiosk-device";

/** "Ticket paper: 58 mm | 80 mm" — the width of this kiosk's receipt printer. */
export function PaperPicker({ paper, onChange }: { paper: Paper; onChange: (p: Paper) => void }) {
  const t = useTranslations("kiosk.paper");
  return (
    <fieldset className="flex items-center gap-3 print:hidden">
      <legend className="sr-only">{t("label")}</legend>
      <span aria-hidden="true" className="text-base font-semibold text-slate-700">
        {t("label")}
      </span>
      <div className="flex overflow-hidden rounded-lg border-2 border-slate-500">
        {PAPERS.map((p) => (
          <label
            key={p}
            className="cursor-pointer px-4 py-2 text-lg font-semibold text-slate-800 has-checked:bg-slate-800 has-checked:text-white has-focus-visible:ring-4 has-focus-visible:ring-blue-300"
          >
            <input type="radio" name="paper" value={p} checked={paper === p} onChange={() => onChange(p)} className="sr-only" />
            {t(`mm${p}`)}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
