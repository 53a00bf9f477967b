"use client";

import { useState } from "react";
import { useTranslations } from "next-intl";
import { dispatchFields, submitTo, useStaffAction } from "@/app/_lib/use-staff-action";
import { FormError } from "@/app/_components/form-error";
import { BUTTON } from "../_components/console-styles";
import { StatusNote } from "../_components/status-note";
import { useFreshError } from "../_components/use-fresh-error";
import { createPrinter, removePrinter } from "./actions";
import { PrinterCard } from "./printer-card";
import { fieldOf, PrinterFields } from "./printer-fields";
import { PrintJobs } from "./print-jobs";
import type { JobRow, PrinterRow, SeriesChoice } from "./rows";
import type { Charset } from "@/lib/core/printing/printers";

/** The printers with their state, the form to add one, and the latest print jobs. */
export function PrintersPanel({
  slug,
  printers,
  jobs,
  series,
  defaultCharset,
}: {
  slug: string;
  printers: PrinterRow[];
  jobs: JobRow[];
  series: SeriesChoice[];
  defaultCharset: Charset;
}) {
  const t = useTranslations("managerPrinters");
  const [created, create, creating] = useStaffAction(createPrinter);
  const [removed, remove, removing] = useStaffAction(removePrinter);
  const [confirmId, setConfirmId] = useState<string | null>(null);
  const [createError, clearCreateError] = useFreshError(created);
  const createField = created && !created.ok ? fieldOf(created.field) : null;

  function submitRemove(id: string) {
    setConfirmId(null);
    dispatchFields(remove, { tenant: slug, id });
  }

  return (
    <div className="space-y-6">
      <FormError message={removed && !removed.ok ? removed.error : null} />
      <StatusNote token={removed}>
        {removed?.ok
          ? removed.data.dropped > 0
            ? t("removedDropped", { name: removed.data.name, count: removed.data.dropped })
            : t("removed", { name: removed.data.name })
          : null}
      </StatusNote>

      {printers.length === 0 ? <p className="text-lg text-slate-700">{t("none")}</p> : null}
      {printers.map((p) => (
        <PrinterCard
          key={p.id}
          slug={slug}
          p={p}
          series={series}
          defaultCharset={defaultCharset}
          confirming={confirmId === p.id}
          onConfirm={(on) => setConfirmId(on ? p.id : null)}
          onRemove={() => submitRemove(p.id)}
          removing={removing}
        />
      ))}

      <PrintJobs slug={slug} jobs={jobs} />

      <h2 id="add-printer" className="pt-2 text-2xl font-bold">
        {t("addHeading")}
      </h2>
      <StatusNote token={created} testId="printer-added">
        {created?.ok ? t("added", { name: created.data.name }) : null}
      </StatusNote>
      <form
        key={created?.ok ? created.data.id : "new"}
        onSubmit={submitTo(create)}
        onInput={clearCreateError}
        aria-labelledby="add-printer"
        className="space-y-4 rounded-xl border-2 border-slate-300 bg-white p-4"
      >
        <input type="hidden" name="tenant" value={slug} />
        <PrinterFields
          idPrefix="printer"
          series={series}
          defaultCharset={defaultCharset}
          error={createError && createField ? { field: createField, message: createError } : null}
        />
        <FormError message={createError && !createField ? createError : null} />
        <button type="submit" disabled={creating} className={`${BUTTON} bg-slate-900 text-white hover:bg-slate-700 focus-visible:ring-blue-300`}>
          {creating ? t("creating") : t("create")}
        </button>
      </form>
    </div>
  );
}
