"use client";

import { useMemo, useState } from "react";
import { useTranslations } from "next-intl";
import { INPUT } from "../_components/console-styles";
import type { ZoneChoice } from "./zone-choices";

/** "new york" finds America/New_York: case, spaces, underscores and slashes do not matter. */
const squash = (s: string) =>
  s
    .toLowerCase()
    .replace(/[\s_/-]+/g, " ")
    .trim();

/**
 * The time zone as a list of IANA zones with a filter: typing narrows the list (and picks
 * its first zone), so a misspelt zone can never be submitted; the list is a plain
 * <select>, usable with the keyboard and screen readers. The offsets are the server's
 * (zone-choices.ts): the browser never computes them again.
 */
export function TimeZonePicker({
  zones,
  initial,
  onChange,
  describedBy,
}: {
  zones: ZoneChoice[];
  initial: string;
  onChange: (zone: string) => void;
  describedBy: string;
}) {
  const t = useTranslations("managerSettings");
  const [zone, setZone] = useState(initial);
  const [filter, setFilter] = useState("");
  const labelled = useMemo(() => {
    // A zone saved just now that the server's list lacks (an alias) stays choosable, without an offset.
    const all = zones.some((z) => z.zone === initial) ? zones : [{ zone: initial, offset: "" }, ...zones];
    return all.map(({ zone: z, offset }) => ({
      zone: z,
      label: offset ? `${z.replaceAll("_", " ")} (${offset})` : z.replaceAll("_", " "),
      key: squash(`${z} ${offset}`),
    }));
  }, [zones, initial]);
  const q = squash(filter);
  const matches = q ? labelled.filter((z) => z.key.includes(q)) : labelled;
  // The chosen zone is always an option, even when the filter hides the others.
  const shown = matches.some((z) => z.zone === zone) ? matches : [...labelled.filter((z) => z.zone === zone), ...matches];

  function choose(next: string) {
    setZone(next);
    onChange(next);
  }

  function narrow(text: string) {
    setFilter(text);
    const q2 = squash(text);
    const first = q2 ? labelled.find((z) => z.key.includes(q2)) : undefined;
    if (first && !labelled.some((z) => z.zone === zone && z.key.includes(q2))) choose(first.zone);
  }

  return (
    <div className="space-y-2">
      <label htmlFor="s-timezone" className="mb-1 block text-lg font-semibold">
        {t("timezone")}
      </label>
      <label htmlFor="s-timezone-filter" className="block text-base font-medium text-slate-700">
        {t("timezoneFilter")}
      </label>
      <input
        id="s-timezone-filter"
        type="search"
        value={filter}
        onChange={(e) => narrow(e.target.value)}
        onKeyDown={(e) => {
          // Enter picks, it does not submit the form.
          if (e.key === "Enter") e.preventDefault();
        }}
        autoComplete="off"
        placeholder={t("timezoneFilterPlaceholder")}
        aria-controls="s-timezone"
        aria-describedby="s-timezone-matches"
        className={INPUT}
      />
      <p
        id="s-timezone-matches"
        role="status"
        data-testid="timezone-matches"
        className={q && matches.length === 0 ? "text-base font-semibold text-red-800" : "text-base text-slate-600"}
      >
        {q
          ? matches.length === 0
            ? t("timezoneNoMatch", { filter: filter.trim(), zone })
            : t("timezoneMatches", { count: matches.length })
          : t("timezoneCount", { count: labelled.length })}
      </p>
      <select
        id="s-timezone"
        name="timezone"
        size={6}
        value={zone}
        onChange={(e) => choose(e.target.value)}
        aria-describedby={describedBy}
        className={`${INPUT} py-1`}
      >
        {shown.map((z) => (
          <option key={z.zone} value={z.zone} className="px-1 py-0.5">
            {z.label}
          </option>
        ))}
      </select>
    </div>
  );
}
