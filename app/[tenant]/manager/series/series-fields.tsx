"use client";

import { useState } from "react";
import { useTranslations } from "next-intl";
import { CHANNELS } from "@/lib/core/orders";
import { displayNumber, sharesNumbers, type Series } from "@/lib/core/series";
import { INPUT } from "../_components/console-styles";

type T = ReturnType<typeof useTranslations<"managerSeries">>;

/** The default series' stored name is English ("Default"): each screen says it in its own language. */
export const seriesLabel = (t: T, s: Pick<Series, "name" | "isDefault">) => (s.isDefault ? t("defaultName") : s.name);

/** "K1–K99", or "1– (no end)". */
export function rangeText(t: T, s: Pick<Series, "prefix" | "first" | "last">): string {
  const first = displayNumber(s.prefix, s.first);
  return s.last === null ? t("rangeOpen", { first }) : t("range", { first, last: displayNumber(s.prefix, s.last) });
}

/** A typed whole number, or null while it is not one (the server says why on save). */
const typed = (v: string): number | null => (/^\d{1,8}$/.test(v.trim()) && Number(v) >= 1 ? Number(v) : null);

/**
 * A series' fields: the same to add one and to change one. The range is checked against
 * the restaurant's other series as it is typed: an overlap is allowed, and said.
 */
export function SeriesFields({ idPrefix, initial, others }: { idPrefix: string; initial?: Series; others: readonly Series[] }) {
  const t = useTranslations("managerSeries");
  const [prefix, setPrefix] = useState(initial?.prefix ?? "");
  const [first, setFirst] = useState(String(initial?.first ?? 1));
  const [last, setLast] = useState(initial?.last == null ? "" : String(initial.last));
  // Warned once the numbers are being typed: an untouched form is not a plan yet (the list says what overlaps now).
  const [touched, setTouched] = useState(false);
  const owners = new Map(others.flatMap((s) => s.channels.map((c) => [c, seriesLabel(t, s)] as const)));

  const from = typed(first);
  const to = last.trim() === "" ? null : typed(last);
  const candidate = { prefix: prefix.trim().toUpperCase(), first: from ?? 0, last: to };
  const valid = from !== null && (to !== null || last.trim() === "") && (to === null || to >= from);
  const overlaps = touched && valid ? others.filter((o) => sharesNumbers(candidate, o)) : [];
  const id = (f: string) => `${idPrefix}-${f}`;
  const change = (set: (v: string) => void) => (v: string) => {
    set(v);
    setTouched(true);
  };

  return (
    <>
      <div className="grid gap-4 md:grid-cols-[minmax(0,2fr)_repeat(3,minmax(0,1fr))]">
        <div>
          <label htmlFor={id("name")} className="mb-1 block text-lg font-semibold">
            {t("name")}
          </label>
          <input
            id={id("name")}
            name="name"
            aria-required="true"
            maxLength={40}
            autoComplete="off"
            defaultValue={initial?.name}
            placeholder={t("namePlaceholder")}
            className={`${INPUT} bg-white`}
          />
        </div>
        <WatchedField
          id={id("prefix")}
          name="prefix"
          label={t("prefix")}
          value={prefix}
          onChange={change(setPrefix)}
          hint={id("prefix-hint")}
          maxLength={3}
          uppercase
        />
        <WatchedField id={id("first")} name="first" label={t("first")} value={first} onChange={change(setFirst)} numeric />
        <WatchedField id={id("last")} name="last" label={t("last")} value={last} onChange={change(setLast)} hint={id("last-hint")} numeric />
      </div>
      <ul className="space-y-1 text-base text-slate-700">
        <li id={id("prefix-hint")}>{t("prefixHint")}</li>
        <li id={id("last-hint")}>{t("lastHint")}</li>
      </ul>
      {/* Said as it is typed, and kept in the page so screen readers hear each change. */}
      <div aria-live="polite" data-testid="overlap-warning">
        {overlaps.map((o) => (
          <p key={o.id} className="rounded-lg border-2 border-amber-600 bg-amber-50 px-4 py-2 text-lg font-medium text-amber-950">
            {t("overlap", { range: rangeText(t, candidate), other: seriesLabel(t, o) })}
          </p>
        ))}
      </div>
      <fieldset aria-describedby={id("channels-hint")}>
        <legend className="mb-1 text-lg font-semibold">{t("channels")}</legend>
        <p id={id("channels-hint")} className="mb-2 text-base text-slate-700">
          {t("channelsHint")}
        </p>
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          {CHANNELS.map((c) => {
            const owner = owners.get(c);
            return (
              <label key={c} className={`flex min-h-11 items-center gap-2 text-lg ${owner ? "text-slate-500" : ""}`}>
                <input
                  type="checkbox"
                  name="channels"
                  value={c}
                  disabled={owner !== undefined}
                  defaultChecked={initial?.channels.includes(c) ?? false}
                  className="h-6 w-6 accent-blue-700"
                />
                {t(`channelNames.${c}`)}
                {owner ? <span className="text-base">({t("ownedBy", { series: owner })})</span> : null}
              </label>
            );
          })}
        </div>
      </fieldset>
    </>
  );
}

/** A labelled text field whose value the form watches as it is typed (the overlap warning). */
function WatchedField(p: {
  id: string;
  name: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  hint?: string;
  maxLength?: number;
  numeric?: boolean;
  uppercase?: boolean;
}) {
  return (
    <div>
      <label htmlFor={p.id} className="mb-1 block text-lg font-semibold">
        {p.label}
      </label>
      <input
        id={p.id}
        name={p.name}
        autoComplete="off"
        maxLength={p.maxLength}
        inputMode={p.numeric ? "numeric" : undefined}
        autoCapitalize={p.uppercase ? "characters" : undefined}
        aria-describedby={p.hint}
        value={p.value}
        onChange={(e) => p.onChange(e.target.value)}
        className={`${INPUT} bg-white ${p.numeric ? "tabular-nums" : ""} ${p.uppercase ? "uppercase" : ""}`}
      />
    </div>
  );
}
