"use client";

import { useTranslations } from "next-intl";
import { FormError } from "@/app/_components/form-error";
import { Icon } from "@/app/_components/icon";
import type { TypedChoiceState } from "./typed-choice";

/** What a kitchen or station screen tells the cook under its number field: done, refused, or a question. */
export type Feedback = { tone: "ok" | "error"; text: string } | ({ tone: "choice" } & TypedChoiceState);

/** The line that says what the last typed number or tap did (the number field points at it). */
export function KitchenFeedback({ feedback, actionError }: { feedback: Feedback | null; actionError: string | null }) {
  return (
    <div id="kitchen-feedback" className="min-w-48 flex-1">
      <p role="status" data-testid="kitchen-status" className="text-xl leading-tight font-bold text-emerald-800">
        {feedback?.tone === "ok" ? feedback.text : ""}
      </p>
      <FormError testId="kitchen-error" message={feedback?.tone === "error" ? feedback.text : null} className="px-2 py-1 text-base leading-tight" />
      <FormError message={actionError} className="px-2 py-1 text-base leading-tight" />
    </div>
  );
}

/** Shows or hides the All day panel beside the tickets. */
export function AllDayToggle({ shown, onToggle }: { shown: boolean; onToggle: () => void }) {
  const t = useTranslations("kitchen");
  return (
    <button
      type="button"
      aria-expanded={shown}
      aria-controls="all-day"
      onClick={onToggle}
      className="inline-flex min-h-10 items-center gap-1.5 rounded-lg border-2 border-slate-700 bg-white px-3 text-base font-bold text-slate-900 hover:bg-slate-100 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-500 aria-expanded:bg-slate-800 aria-expanded:text-white"
    >
      <Icon name="allDay" />
      {t("allDay.toggle")}
    </button>
  );
}
