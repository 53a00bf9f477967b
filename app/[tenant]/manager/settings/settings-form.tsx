"use client";

import { useState } from "react";
import { useLocale, useTranslations } from "next-intl";
import { dayRuleChange, type TenantSettings } from "@/lib/core/settings";
import { parseDayStart } from "@/lib/core/business-day";
import { formatShortDay } from "@/app/_lib/format";
import { LOCALES } from "@/lib/core/locales";
import { submitTo, useStaffAction } from "@/app/_lib/use-staff-action";
import { FormError } from "@/app/_components/form-error";
import { saveSettings } from "./actions";
import { INPUT } from "../_components/console-styles";
import { StatusNote } from "../_components/status-note";
import { useFreshError } from "../_components/use-fresh-error";
import { TimeZonePicker } from "./time-zone-picker";
import type { ZoneChoice } from "./zone-choices";
import { ScheduleTimes } from "./schedule-times";
import { ReadyWhenChoice } from "./ready-when-choice";
import { ServiceChoice, SoldOutAcceptedChoice } from "./service-choice";

type Result = Awaited<ReturnType<typeof saveSettings>>;

const LABEL = "mb-1 block text-lg font-semibold";
const HINT = "mt-1 text-base text-slate-600";

/** Every setting on one form; only what differs is saved (and audited). */
export function SettingsForm({
  slug,
  initial,
  timeZones,
  openOrders,
  serverNow,
}: {
  slug: string;
  initial: TenantSettings;
  /** Every zone with its offset, as the server computed them (zone-choices.ts). */
  timeZones: ZoneChoice[];
  /** Open orders on the floor now: the preview of a day-rule change says they stay. */
  openOrders: number;
  serverNow: number;
}) {
  const t = useTranslations("managerSettings");
  const tl = useTranslations("common.languages");
  const [state, dispatch, pending] = useStaffAction<Result>(saveSettings);
  // After a save the form shows what was saved (the server's answer), else what was loaded.
  const s = state?.ok ? state.data.settings : initial;

  const submit = submitTo(dispatch);
  const [error, clearError] = useFreshError(state);
  const [rule, setRule] = useState({ timeZone: s.timezone, dayStart: s.dayStartsAt });

  return (
    <form onSubmit={submit} onInput={clearError} className="space-y-6" key={JSON.stringify(s)}>
      <input type="hidden" name="tenant" value={slug} />
      <StatusNote testId="settings-saved" token={state}>
        {state?.ok ? (state.data.changed ? t("saved") : t("savedNothing")) : null}
      </StatusNote>
      <FormError message={error} testId="settings-error" />

      <div>
        <label htmlFor="s-name" className={LABEL}>
          {t("name")}
        </label>
        <input id="s-name" name="name" required maxLength={120} defaultValue={s.name} aria-describedby="s-name-hint" className={INPUT} />
        <p id="s-name-hint" className={HINT}>
          {t("nameHint")}
        </p>
      </div>

      <div className="grid gap-6 sm:grid-cols-2">
        <div>
          <TimeZonePicker
            zones={timeZones}
            initial={s.timezone}
            onChange={(zone) => setRule((r) => ({ ...r, timeZone: zone }))}
            describedBy="s-timezone-hint day-rule-change"
          />
          <p id="s-timezone-hint" className={HINT}>
            {t("timezoneHint")}
          </p>
        </div>
        <div>
          <label htmlFor="s-day" className={LABEL}>
            {t("dayStartsAt")}
          </label>
          <input
            id="s-day"
            name="dayStartsAt"
            type="time"
            required
            defaultValue={s.dayStartsAt}
            onChange={(e) => setRule((r) => ({ ...r, dayStart: e.target.value }))}
            aria-describedby="s-day-hint day-rule-change"
            className={`${INPUT} tabular-nums`}
          />
          <p id="s-day-hint" className={HINT}>
            {t("dayStartsAtHint")}
          </p>
        </div>
      </div>

      <DayRuleChangeNote saved={s} rule={rule} now={serverNow} openOrders={openOrders} />

      <div>
        <label htmlFor="s-language" className={LABEL}>
          {t("language")}
        </label>
        <select id="s-language" name="language" defaultValue={s.language ?? ""} className={INPUT}>
          <option value="">{t("languageBrowser")}</option>
          {LOCALES.map((l) => (
            <option key={l} value={l}>
              {tl(l)}
            </option>
          ))}
        </select>
      </div>

      <div className="grid gap-6 sm:grid-cols-2">
        <div>
          <label htmlFor="s-currency" className={LABEL}>
            {t("currency")}
          </label>
          <input
            id="s-currency"
            name="currency"
            defaultValue={s.currency ?? ""}
            placeholder={t("currencyNone")}
            maxLength={3}
            autoComplete="off"
            spellCheck={false}
            aria-describedby="s-currency-hint"
            className={`${INPUT} uppercase placeholder:normal-case`}
          />
          <p id="s-currency-hint" className={HINT}>
            {t("currencyHint")}
          </p>
        </div>
        <div>
          <label className="flex items-center gap-3 text-lg font-semibold">
            <input type="checkbox" name="kioskNumberOnly" defaultChecked={s.kioskNumberOnly} aria-describedby="s-number-only-hint" className="size-6" />
            {t("kioskNumberOnly")}
          </label>
          <p id="s-number-only-hint" className={HINT}>
            {t("kioskNumberOnlyHint")}
          </p>
        </div>
      </div>

      <div>
        <ScheduleTimes initial={s.schedule} describedBy="s-schedule-hint" />
        <p id="s-schedule-hint" className={HINT}>
          {t("scheduleHint")}
        </p>
      </div>

      <div className="grid gap-6 sm:grid-cols-3">
        {(["readyClearMinutes", "ageWarnMinutes", "ageLateMinutes"] as const).map((f) => (
          <div key={f}>
            <label htmlFor={`s-${f}`} className={LABEL}>
              {t(f)}
            </label>
            <input
              id={`s-${f}`}
              name={f}
              type="number"
              inputMode="numeric"
              required
              min={1}
              max={f === "ageLateMinutes" ? 480 : 240}
              step={1}
              defaultValue={s[f]}
              className={`${INPUT} tabular-nums`}
            />
          </div>
        ))}
      </div>

      <div>
        <label htmlFor="s-printGiveUpMinutes" className={LABEL}>
          {t("printGiveUpMinutes")}
        </label>
        <input
          id="s-printGiveUpMinutes"
          name="printGiveUpMinutes"
          type="number"
          inputMode="numeric"
          required
          min={1}
          max={120}
          step={1}
          defaultValue={s.printGiveUpMinutes}
          aria-describedby="s-print-give-up-hint"
          className={`${INPUT} tabular-nums sm:max-w-60`}
        />
        <p id="s-print-give-up-hint" className={HINT}>
          {t("printGiveUpMinutesHint")}
        </p>
      </div>

      <ReadyWhenChoice initial={s.readyWhen} />

      <ServiceChoice ask={s.askService} fallback={s.defaultService} />

      <SoldOutAcceptedChoice accepted={s.soldOutAcceptedFrom} />

      <button
        type="submit"
        disabled={pending}
        className="rounded-xl bg-slate-900 px-6 py-3 text-xl font-bold text-white hover:bg-slate-700 focus:outline-none focus-visible:ring-4 focus-visible:ring-blue-300 disabled:cursor-wait disabled:opacity-60"
      >
        {pending ? t("saving") : t("save")}
      </button>
    </form>
  );
}

/** Before saving: what the new time zone or day start does to today's business day and the open orders. */
function DayRuleChangeNote({
  saved,
  rule,
  now,
  openOrders,
}: {
  saved: TenantSettings;
  rule: { timeZone: string; dayStart: string };
  now: number;
  openOrders: number;
}) {
  const t = useTranslations("managerSettings.dayRuleChange");
  const locale = useLocale();
  const change = dayRuleChange(new Date(now), { timeZone: saved.timezone, dayStartMinutes: parseDayStart(saved.dayStartsAt) ?? 0 }, rule);
  return (
    <p
      id="day-rule-change"
      role="status"
      data-testid="day-rule-change"
      className={change ? "rounded-xl border-2 border-amber-500 bg-amber-50 px-4 py-3 text-lg text-amber-950" : "sr-only"}
    >
      {change
        ? `${t(change.effect, { from: formatShortDay(change.from, locale), to: formatShortDay(change.to, locale) })} ${t("openStay", { count: openOrders })}`
        : ""}
    </p>
  );
}
