import { getLocale, getTranslations } from "next-intl/server";
import type { StationFigures as Figures } from "@/lib/core/reports/station-figures";
import { ColumnHeads } from "../_components/column-heads";
import { formatDuration } from "./duration";

/** Per kitchen station (issue #40): parts, time to its part done, and how often it finished an order last. */
export async function StationFigures({ stations }: { stations: readonly Figures[] }) {
  const [t, locale] = await Promise.all([getTranslations("managerFigures.stations"), getLocale()]);
  const percent = (n: number, of: number) => new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 0 }).format(n / of);
  // The station that most often finished last holds orders up: marked, as long as it finished any last.
  const slowest = stations.reduce<Figures | null>((a, s) => (s.last > 0 && (!a || s.last / s.shared > a.last / a.shared) ? s : a), null);
  const noData = (
    <>
      <span aria-hidden="true">{t("noData")}</span>
      <span className="sr-only">{t("noDataLabel")}</span>
    </>
  );
  return (
    <section aria-labelledby="per-station" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="per-station" className="text-2xl font-bold">
        {t("heading")}
      </h2>
      <p className="mt-1 text-slate-600">{t("intro")}</p>
      <div className="mt-4 overflow-x-auto">
        <table className="w-full text-left text-lg" data-testid="station-times">
          <ColumnHeads labels={(["station", "parts", "doneP50", "doneP90", "last"] as const).map((c) => t(`col.${c}`))} />
          <tbody>
            {stations.map((s) => (
              <tr key={s.id} className="border-b border-slate-200" data-testid={`station-row-${s.id}`}>
                <th scope="row" className="whitespace-nowrap px-2 py-2 font-bold">
                  {s.name}
                  {s === slowest ? (
                    <span className="ml-2 rounded-md bg-amber-100 px-1.5 py-0.5 text-sm font-bold text-amber-900" data-testid="station-holds-up">
                      {t("holdsUp")}
                    </span>
                  ) : null}
                </th>
                <td className="px-2 py-2 tabular-nums">{s.parts}</td>
                {[s.timeToDone.p50, s.timeToDone.p90].map((v, i) => (
                  <td key={i} className="px-2 py-2 tabular-nums">
                    {v === null ? noData : formatDuration(v)}
                  </td>
                ))}
                <td className="px-2 py-2 tabular-nums" data-testid="station-last">
                  {s.shared === 0 ? noData : t("lastOf", { last: s.last, shared: s.shared, percent: percent(s.last, s.shared) })}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="mt-3 text-slate-600">{t("lastNote")}</p>
    </section>
  );
}
