"use client";

import { useId, useRef, useState, type KeyboardEvent } from "react";
import { useLocale, useTranslations } from "next-intl";
import { addDays } from "@/lib/core/business-day";
import { formatPickedDay } from "@/app/_lib/format";

/**
 * A day picked in the page's language (decision 0056): Chromium draws a native date input in
 * the browser's locale ("11/28/2026" on a Chinese page), so the field shows the day as the page
 * writes it and opens the native calendar, whose input (visually hidden) carries the value.
 * Arrow keys step a day; Enter or Space opens the calendar.
 */
export function DateField({
  label,
  name,
  defaultValue,
  max,
  className,
}: {
  label: string;
  name: string;
  /** YYYY-MM-DD. */
  defaultValue: string;
  /** YYYY-MM-DD: no later day can be chosen. */
  max?: string;
  className?: string;
}) {
  const locale = useLocale();
  const t = useTranslations("common.dateField");
  const [day, setDay] = useState(defaultValue);
  const native = useRef<HTMLInputElement>(null);
  const labelId = useId();
  const hintId = useId();

  const open = () => {
    try {
      native.current?.showPicker();
    } catch {
      // No picker here (an old browser, a cross-origin frame): the arrow keys still step.
    }
  };
  const step = (days: number) => {
    const next = addDays(day, days);
    if (max === undefined || next <= max) setDay(next);
  };
  const onKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    const by = { ArrowUp: 1, ArrowRight: 1, ArrowDown: -1, ArrowLeft: -1, PageUp: 7, PageDown: -7 }[e.key];
    if (by === undefined) return;
    e.preventDefault();
    step(by);
  };

  return (
    <div className="flex flex-col text-lg font-semibold">
      <span id={labelId}>{label}</span>
      <span className="relative mt-1 inline-flex">
        <button
          type="button"
          aria-labelledby={`${labelId} ${hintId}-value`}
          aria-describedby={hintId}
          onClick={open}
          onKeyDown={onKey}
          data-testid={`date-field-${name}`}
          className={`inline-flex min-h-12 items-center gap-3 rounded-lg border-2 border-slate-400 bg-white px-3 text-left text-lg font-normal hover:border-blue-700 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-300 ${className ?? ""}`}
        >
          <span id={`${hintId}-value`} className="tabular-nums">
            {formatPickedDay(day, locale)}
          </span>
          <svg aria-hidden viewBox="0 0 24 24" className="size-5 text-slate-600" fill="none" stroke="currentColor" strokeWidth="2">
            <rect x="3" y="5" width="18" height="16" rx="2" />
            <path d="M3 10h18M8 3v4M16 3v4" />
          </svg>
        </button>
        <span id={hintId} className="sr-only">
          {t("hint")}
        </span>
        {/* The value the form sends; the page's language cannot reach its drawing, only its calendar is used. */}
        <input
          ref={native}
          type="date"
          name={name}
          value={day}
          max={max}
          required
          tabIndex={-1}
          aria-hidden
          aria-label={label}
          onChange={(e) => {
            if (e.target.value) setDay(e.target.value);
          }}
          className="pointer-events-none absolute inset-0 h-full w-full opacity-0"
        />
      </span>
    </div>
  );
}
