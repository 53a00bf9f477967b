"use client";

import { useState, type Ref } from "react";
import { useTranslations } from "next-intl";
import { FormError } from "@/app/_components/form-error";
import { advanceTypedNumber, stationTypedNumber, type StationTypedOutcome, type TypedOutcome } from "./actions";
import { BUTTON } from "./buttons";
import { useOrderAction } from "./use-order-action";

/** Where a typed number goes: the main kitchen moves the order one step, a station marks its part done. */
type Target = { station?: undefined; onOutcome: (outcome: TypedOutcome) => void } | { station: string; onOutcome: (outcome: StationTypedOutcome) => void };

/**
 * The counter's shortcut: type a number as shown (12, K12 or k12), press Enter, and the order
 * moves one step (Ready, then Collected) — or, on a station's screen, the station's share of it
 * is done. The field is emptied at once and keeps focus, so the next number can be typed while
 * the first is saved.
 */
export function TypedNumberForm({
  slug,
  inputRef,
  describedBy,
  letters,
  leaveChoice,
  target,
}: {
  slug: string;
  inputRef: Ref<HTMLInputElement>;
  describedBy: string;
  /** The restaurant's numbers have letters (K12): a touch keyboard must offer them, not digits alone. */
  letters: boolean;
  /** Set while the screen asks which order a number meant: an empty Enter here leaves the question, nothing moved. */
  leaveChoice?: () => void;
  target: Target;
}) {
  const t = useTranslations("kitchen");
  const { run, error } = useOrderAction(slug);
  const [value, setValue] = useState("");

  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (leaveChoice && value.trim() === "") return leaveChoice();
        if (target.station === undefined) run(advanceTypedNumber, { number: value }, target.onOutcome);
        else run(stationTypedNumber, { number: value, station: target.station }, target.onOutcome);
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
        enterKeyHint={target.station === undefined ? "go" : "done"}
        autoFocus
        aria-describedby={`typed-number-hint ${describedBy}`}
        aria-keyshortcuts="ArrowLeft ArrowRight ArrowUp ArrowDown Enter Escape"
        className="h-11 w-28 rounded-xl border-2 border-slate-500 bg-white px-3 text-3xl font-black tabular-nums focus:border-blue-700 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-500"
      />
      <button type="submit" className={BUTTON.secondary}>
        {target.station === undefined ? t("typed.submit") : t("station.done")}
      </button>
      {/* Said to assistive technology; the key legend shows it on screen. */}
      <p id="typed-number-hint" className="sr-only">
        {target.station === undefined ? t("typed.hint") : t("station.typedHint")}
      </p>
      <FormError message={error} className="basis-full px-2 py-1 text-base" />
    </form>
  );
}
