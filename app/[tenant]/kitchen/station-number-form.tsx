"use client";

import { useState, type Ref } from "react";
import { useTranslations } from "next-intl";
import { FormError } from "@/app/_components/form-error";
import { stationTypedNumber, type StationTypedOutcome } from "./actions";
import { BUTTON } from "./buttons";
import { useOrderAction } from "./use-order-action";

/**
 * A station's bump bar by number: type the order's number, Enter, and the station's share of
 * it is done. The field empties at once and keeps focus, so the next number can be typed.
 */
export function StationNumberForm({
  slug,
  station,
  inputRef,
  describedBy,
  letters,
  asking,
  onOutcome,
}: {
  slug: string;
  station: string;
  inputRef: Ref<HTMLInputElement>;
  describedBy: string;
  letters: boolean;
  /** The screen asks which order a number meant: an empty Enter leaves the question as it is. */
  asking: boolean;
  onOutcome: (outcome: StationTypedOutcome) => void;
}) {
  const t = useTranslations("kitchen");
  const { run, error } = useOrderAction(slug);
  const [value, setValue] = useState("");

  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (asking && value.trim() === "") return;
        run(stationTypedNumber, { number: value, station }, onOutcome);
        setValue("");
      }}
      className="flex flex-wrap items-center gap-x-2 gap-y-1"
    >
      <label htmlFor="typed-number" className="text-base font-bold">
        {t("typed.label")}
      </label>
      <input
        id="typed-number"
        ref={inputRef}
        name="number"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        inputMode={letters ? "text" : "numeric"}
        autoCapitalize={letters ? "characters" : undefined}
        spellCheck={false}
        autoComplete="off"
        enterKeyHint="done"
        autoFocus
        aria-describedby={`typed-number-hint ${describedBy}`}
        aria-keyshortcuts="ArrowLeft ArrowRight ArrowUp ArrowDown Enter Escape"
        className="h-11 w-28 rounded-xl border-2 border-slate-500 bg-white px-3 text-3xl font-black tabular-nums focus:border-blue-700 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-500"
      />
      <button type="submit" className={BUTTON.secondary}>
        {t("station.done")}
      </button>
      <p id="typed-number-hint" className="sr-only">
        {t("station.typedHint")}
      </p>
      <FormError message={error} className="basis-full px-2 py-1 text-base" />
    </form>
  );
}
