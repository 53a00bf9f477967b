import { getLocale, getTranslations } from "next-intl/server";
import type { EstimateAccuracy } from "@/lib/core/reports/estimate-accuracy";

/** How good the customers' wait estimates were that day (decision 0052): replayed, three numbers. */
export async function EstimateFigures({ a }: { a: EstimateAccuracy }) {
  const [t, locale] = await Promise.all([getTranslations("managerFigures.estimates"), getLocale()]);
  const percent = (share: number) => new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 0 }).format(share);
  const minutes = (m: number) => new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(m);
  return (
    <section aria-labelledby="estimates" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm" data-testid="estimate-figures">
      <h2 id="estimates" className="text-2xl font-bold">
        {t("heading")}
      </h2>
      <p className="mt-1 text-slate-600">{t("intro")}</p>
      {a.compared === 0 || a.medianErrorMinutes === null || a.underShare === null || a.withinShare === null ? (
        <p className="mt-3 text-lg" data-testid="estimate-none">
          {t("none", { count: a.estimated })}
        </p>
      ) : (
        <dl className="mt-4 grid gap-4 sm:grid-cols-3">
          <Figure label={t("medianError")} value={t("minutes", { value: minutes(a.medianErrorMinutes) })} testId="estimate-median-error" />
          <Figure label={t("within")} value={percent(a.withinShare)} testId="estimate-within" />
          <Figure label={t("under")} value={percent(a.underShare)} testId="estimate-under" />
        </dl>
      )}
      {a.compared > 0 ? (
        <p className="mt-3 text-slate-600" data-testid="estimate-count">
          {t("count", { estimated: a.estimated, compared: a.compared })}
        </p>
      ) : null}
    </section>
  );
}

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="rounded-xl bg-slate-50 p-4">
      <dt className="text-base text-slate-600">{label}</dt>
      <dd className="text-3xl font-bold tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}
