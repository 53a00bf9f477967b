"use client";

import { useTranslations } from "next-intl";
import { dispatchFields, useStaffAction } from "@/app/_lib/use-staff-action";
import { FormError } from "@/app/_components/form-error";
import { BUTTON } from "../_components/console-styles";
import { ColumnHeads } from "../_components/column-heads";
import { StatusNote } from "../_components/status-note";
import { reprintJob } from "./actions";
import type { JobRow } from "./rows";
import { errorInWords } from "./printer-status";

const STATE_STYLE: Record<JobRow["state"], string> = {
  queued: "font-semibold text-amber-900",
  printing: "font-semibold text-blue-800",
  printed: "font-semibold text-emerald-800",
  gaveUp: "font-bold text-red-800",
};

/** The latest print jobs, newest first; a ticket that was given up can be printed again on its printer. */
export function PrintJobs({ slug, jobs }: { slug: string; jobs: readonly JobRow[] }) {
  const t = useTranslations("managerPrinters");
  const [reprinted, reprint, reprinting] = useStaffAction(reprintJob);
  return (
    <section aria-labelledby="print-jobs" className="space-y-3">
      <h2 id="print-jobs" className="text-2xl font-bold">
        {t("jobsHeading")}
      </h2>
      <StatusNote token={reprinted} testId="reprinted">
        {reprinted?.ok ? t("reprinted", { display: reprinted.data.display ?? "", printer: reprinted.data.printer }) : null}
      </StatusNote>
      <FormError message={reprinted && !reprinted.ok ? reprinted.error : null} />
      {jobs.length === 0 ? (
        <p className="text-lg text-slate-700">{t("noJobs")}</p>
      ) : (
        <div className="overflow-x-auto rounded-xl border-2 border-slate-300 bg-white">
          <table className="w-full border-collapse text-left text-base" data-testid="print-jobs">
            <ColumnHeads labels={(["number", "printer", "state", "at", "error", "action"] as const).map((c) => t(`jobs.${c}`))} />
            <tbody>
              {jobs.map((j) => (
                <tr key={j.id} data-testid={`job-${j.state}`} className="border-b border-slate-200 align-top">
                  <td className="whitespace-nowrap px-2 py-2 text-lg font-bold tabular-nums">
                    {j.kind === "test" ? t("testPage") : (j.display ?? "—")}
                    {j.kind === "chit" ? (
                      <span className="block text-sm font-normal text-slate-600" data-testid="job-chit">
                        {j.station ? t("chitOf", { station: j.station }) : t("chit")}
                      </span>
                    ) : null}
                  </td>
                  <td className="px-2 py-2">{j.printer}</td>
                  <td className={`px-2 py-2 ${STATE_STYLE[j.state]}`}>
                    {t(`jobState.${j.state}`)}
                    {j.attempts > 1 ? <span className="block text-sm font-normal text-slate-600">{t("attempts", { count: j.attempts })}</span> : null}
                  </td>
                  <td className="whitespace-nowrap px-2 py-2 tabular-nums">{j.at}</td>
                  <td className="break-words px-2 py-2 text-slate-700">{j.lastError ? errorInWords(t, j.lastError) : "—"}</td>
                  <td className="px-2 py-2">
                    {j.kind === "ticket" && j.state === "gaveUp" && j.orderId ? (
                      <button
                        type="button"
                        disabled={reprinting}
                        aria-label={t("reprintLabel", { display: j.display ?? "", printer: j.printer })}
                        onClick={() => dispatchFields(reprint, { tenant: slug, orderId: j.orderId!, printerId: j.printerId })}
                        className={`${BUTTON} whitespace-nowrap border-2 border-blue-700 bg-white px-3 py-2 text-base text-blue-800 hover:bg-blue-50 focus-visible:ring-blue-300`}
                      >
                        {reprinting ? t("reprinting") : t("reprint")}
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
