"use client";

import { useTranslations } from "next-intl";
import { BUTTON } from "./buttons";

/** "Cancel order K12? This cannot be undone." with the safe choice focused; `number` is the displayed one. */
export function CancelConfirm({
  number,
  pending,
  onCancel,
  onKeep,
  className,
}: {
  number: string;
  pending: boolean;
  onCancel: (trigger: Element) => void;
  onKeep: () => void;
  className: string;
}) {
  const t = useTranslations("kitchen.confirmCancel");
  return (
    <div role="group" aria-label={t("label", { number })} className={`rounded-xl border-2 border-red-700 bg-red-50 p-2 ${className}`}>
      <p className="text-base leading-snug font-semibold text-red-900">{t("text", { number })}</p>
      <div className="grid shrink-0 grid-cols-2 gap-2">
        <button type="button" disabled={pending} onClick={(e) => onCancel(e.currentTarget)} className={BUTTON.danger}>
          {t("yes")}
        </button>
        <button type="button" autoFocus onClick={onKeep} className={BUTTON.secondary}>
          {t("keep")}
        </button>
      </div>
    </div>
  );
}
