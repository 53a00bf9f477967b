"use client";

import { useTranslations } from "next-intl";
import { ASK_SERVICE, CHANNELS, SERVICES, type AskService, type Channel, type Service } from "@/lib/core/orders";

const RADIO = "size-6 accent-blue-700";
const CHOICE = "flex min-h-12 items-center gap-3 text-lg";

/** The kiosk's "eat in or take away" question and what an order stating none is (issue #41). */
export function ServiceChoice({ ask, fallback }: { ask: AskService; fallback: Service }) {
  const t = useTranslations("managerSettings.service");
  const names = useTranslations("common.service");
  return (
    <fieldset aria-describedby="s-service-hint" className="grid gap-3">
      <legend className="mb-1 block text-lg font-semibold">{t("label")}</legend>
      <div className="flex flex-wrap gap-x-8 gap-y-2">
        {ASK_SERVICE.map((v) => (
          <label key={v} className={CHOICE}>
            <input type="radio" name="askService" value={v} defaultChecked={ask === v} className={RADIO} />
            {t(`ask.${v}`)}
          </label>
        ))}
      </div>
      <div className="flex flex-wrap items-center gap-x-8 gap-y-2">
        <span className="text-lg">{t("defaultLabel")}</span>
        {SERVICES.map((v) => (
          <label key={v} className={CHOICE}>
            <input type="radio" name="defaultService" value={v} defaultChecked={fallback === v} className={RADIO} />
            {names(v)}
          </label>
        ))}
      </div>
      <p id="s-service-hint" className="text-base text-slate-600">
        {t("hint")}
      </p>
    </fieldset>
  );
}

/** The channels whose orders are taken with a sold-out dish, flagged, instead of refused; never the kiosk. */
export function SoldOutAcceptedChoice({ accepted }: { accepted: readonly Channel[] }) {
  const t = useTranslations("managerSettings.soldOutAccepted");
  const channels = useTranslations("managerSeries.channelNames");
  return (
    <fieldset aria-describedby="s-sold-out-hint">
      <legend className="mb-1 block text-lg font-semibold">{t("label")}</legend>
      <div className="flex flex-wrap gap-x-8 gap-y-2">
        {CHANNELS.filter((c) => c !== "kiosk").map((c) => (
          <label key={c} className={CHOICE}>
            <input type="checkbox" name="soldOutAcceptedFrom" value={c} defaultChecked={accepted.includes(c)} className={RADIO} />
            {channels(c)}
          </label>
        ))}
      </div>
      <p id="s-sold-out-hint" className="mt-1 text-base text-slate-600">
        {t("hint")}
      </p>
    </fieldset>
  );
}
