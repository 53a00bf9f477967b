"use client";

import { useTranslations } from "next-intl";
import { useForgottenChoice } from "./use-forgotten-choice";
import { displayNumber, type Series } from "@/lib/core/series";

type T = ReturnType<typeof useTranslations<"kiosk.series">>;

/** A series as the kiosk names it: the default in the screen's language, its numbers after it ("Kiosk · K1–K99"). */
export function seriesOption(t: T, s: Series): string {
  const name = seriesName(t, s);
  const first = displayNumber(s.prefix, s.first);
  const range = s.last === null ? t("rangeOpen", { first }) : t("range", { first, last: displayNumber(s.prefix, s.last) });
  return t("option", { name, range });
}

/** A series' name as the kiosk says it (the default in the screen's language). */
export const seriesName = (t: T, s: Series): string => (s.isDefault ? t("defaultName") : s.name);

/**
 * The series this device chose, found by name (as an order names it) among the restaurant's
 * series as the kiosk last read them. One deleted since is forgotten — the device is back on
 * its channel's series — and `gone` names it until someone chooses again.
 */
export function useDeviceSeries(all: readonly Series[], remembered: string | null, remember: (name: string | null) => void) {
  const chosen = remembered === null ? null : (all.find((s) => s.name.toLocaleLowerCase("en") === remembered.toLocaleLowerCase("en")) ?? null);
  const missing = remembered !== null && chosen === null ? remembered : null;
  const { gone, choose } = useForgottenChoice(missing, remember);
  return { chosen, gone, choose };
}

/**
 * "Number series: Automatic (Kiosk · K1–K99) | Default | Kiosk…" — which series this device
 * numbers its orders in, remembered on the device like its paper. Nothing to choose with
 * the default series alone.
 */
export function SeriesPicker({
  series,
  auto,
  chosen,
  onChange,
}: {
  series: readonly Series[];
  /** The series the kiosk's channel takes when the device chooses none. */
  auto: Series;
  /** The chosen series' name, null for automatic. */
  chosen: string | null;
  onChange: (name: string | null) => void;
}) {
  const t = useTranslations("kiosk.series");
  if (series.length < 2) return null;
  return (
    <label className="flex items-center gap-3 text-base font-semibold text-slate-700 print:hidden">
      {t("label")}
      <select
        data-testid="series-picker"
        value={chosen ?? ""}
        onChange={(e) => onChange(e.target.value || null)}
        className="min-h-11 rounded-lg border-2 border-slate-500 bg-white px-3 py-2 text-lg font-semibold text-slate-900 focus:border-blue-700 focus:ring-4 focus:ring-blue-200 focus:outline-none"
      >
        <option value="">{t("auto", { series: seriesOption(t, auto) })}</option>
        {series.map((s) => (
          <option key={s.id} value={s.name}>
            {seriesOption(t, s)}
          </option>
        ))}
      </select>
    </label>
  );
}
