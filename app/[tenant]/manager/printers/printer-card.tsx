"use client";

import { useState } from "react";
import { useTranslations } from "next-intl";
import type { Charset } from "@/lib/core/printing/printers";
import { dispatchFields, submitTo, useStaffAction } from "@/app/_lib/use-staff-action";
import { FormError } from "@/app/_components/form-error";
import { ConfirmButtons } from "../_components/confirm-buttons";
import { BUTTON } from "../_components/console-styles";
import { StatusNote } from "../_components/status-note";
import { useFreshError } from "../_components/use-fresh-error";
import { testPrinter, updatePrinter } from "./actions";
import { fieldOf, PrinterFields } from "./printer-fields";
import { errorInWords, PrinterStatusBadge } from "./printer-status";
import type { PrinterRow, SeriesChoice } from "./rows";

const OUTLINE = `${BUTTON} min-h-12 border-2 bg-white`;

/** One printer: its state in words, what it prints for, a test page, Edit (in place) and Remove (confirmed, with the tickets it drops). */
export function PrinterCard({
  slug,
  p,
  series,
  defaultCharset,
  confirming,
  onConfirm,
  onRemove,
  removing,
}: {
  slug: string;
  p: PrinterRow;
  series: readonly SeriesChoice[];
  defaultCharset: Charset;
  confirming: boolean;
  onConfirm: (on: boolean) => void;
  onRemove: () => void;
  removing: boolean;
}) {
  const t = useTranslations("managerPrinters");
  const ts = useTranslations("managerSeries");
  const [editing, setEditing] = useState(false);
  const [saved, save, saving] = useStaffAction(updatePrinter);
  const [tested, test, testing] = useStaffAction(testPrinter);
  const [saveError, clearSaveError] = useFreshError(saved);
  const [savedFor, setSavedFor] = useState<unknown>(null);
  // A save that worked closes the form (once per answer).
  if (saved?.ok && savedFor !== saved) {
    setSavedFor(saved);
    setEditing(false);
  }
  const saveField = saved && !saved.ok ? fieldOf(saved.field) : null;

  const seriesNames = p.series.map((id) => series.find((s) => s.id === id)?.name ?? id);
  const printsFor = [...seriesNames.map((name) => t("seriesOf", { name })), ...p.channels.map((c) => ts(`channelNames.${c as "kiosk"}`))];

  return (
    <section aria-labelledby={`printer-${p.id}`} data-testid="printer" className="space-y-3 rounded-xl border-2 border-slate-300 bg-white p-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <div className="flex flex-wrap items-center gap-3">
            <h2 id={`printer-${p.id}`} className="break-words text-2xl font-bold">
              {p.name}
            </h2>
            <PrinterStatusBadge status={p.status} label={t(`status.${p.status}`)} />
          </div>
          <p className="text-base text-slate-700">
            <span className="break-all font-mono font-semibold text-slate-900">
              {p.host}:{p.port}
            </span>
            {" · "}
            {t(`paperNames.${p.paper}`)}
            {" · "}
            {t(`charsetNames.${p.charset}`)}
          </p>
          <p className="text-base text-slate-700">
            <span className="font-semibold">{t("printsFor")}</span> {printsFor.length > 0 ? printsFor.join(ts("separator")) : t("onlyChosen")}
          </p>
          <p className="text-base text-slate-700" data-testid="printer-queue">
            <span className={p.queued > 0 ? "font-bold text-amber-900" : undefined}>{t("waiting", { count: p.queued })}</span>
            {" · "}
            {p.checked ? t("checked", { at: p.checked }) : t("neverChecked")}
          </p>
          {p.lastError ? (
            <p className="break-words text-base text-red-800" data-testid="printer-error">
              {t("lastError", { error: errorInWords(t, p.lastError) })}
            </p>
          ) : null}
        </div>
        {confirming || editing ? null : (
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              disabled={testing}
              onClick={() => dispatchFields(test, { tenant: slug, id: p.id })}
              className={`${OUTLINE} border-blue-700 text-blue-800 hover:bg-blue-50 focus-visible:ring-blue-300`}
            >
              {testing ? t("testing") : t("test")}
            </button>
            <button
              type="button"
              aria-label={t("editLabel", { name: p.name })}
              onClick={() => setEditing(true)}
              className={`${OUTLINE} border-slate-500 text-slate-800 hover:bg-slate-100 focus-visible:ring-blue-300`}
            >
              {t("edit")}
            </button>
            <button
              type="button"
              aria-label={t("removeLabel", { name: p.name })}
              disabled={removing}
              onClick={() => onConfirm(true)}
              className={`${OUTLINE} border-red-700 text-red-800 hover:bg-red-50 focus-visible:ring-red-300`}
            >
              {t("remove")}
            </button>
          </div>
        )}
      </div>
      <StatusNote token={tested} testId="test-queued">
        {tested?.ok ? t("testQueued", { name: tested.data.name }) : null}
      </StatusNote>
      <FormError message={tested && !tested.ok ? tested.error : null} />
      <StatusNote token={saved}>{saved?.ok && !editing ? t("saved", { name: saved.data.name }) : null}</StatusNote>
      {confirming ? (
        <div className="space-y-2 rounded-lg border-2 border-amber-600 bg-amber-50 p-3">
          <p className="text-lg font-semibold text-amber-950">{t("removeConfirm", { name: p.name, count: p.queued })}</p>
          <ConfirmButtons yes={t("removeYes")} back={t("back")} onYes={onRemove} onBack={() => onConfirm(false)} pending={removing} />
        </div>
      ) : null}
      {editing ? (
        <form
          onSubmit={submitTo(save)}
          onInput={clearSaveError}
          aria-label={t("editHeading", { name: p.name })}
          className="space-y-4 rounded-lg border-2 border-blue-700 bg-blue-50 p-4"
        >
          <input type="hidden" name="tenant" value={slug} />
          <input type="hidden" name="id" value={p.id} />
          <PrinterFields
            idPrefix={`edit-${p.id}`}
            initial={p}
            series={series}
            defaultCharset={defaultCharset}
            error={saveError && saveField ? { field: saveField, message: saveError } : null}
          />
          <FormError message={saveError && !saveField ? saveError : null} />
          <div className="flex flex-wrap gap-3">
            <button type="submit" disabled={saving} className={`${BUTTON} bg-slate-900 text-white hover:bg-slate-700 focus-visible:ring-blue-300`}>
              {saving ? t("saving") : t("save")}
            </button>
            <button
              type="button"
              onClick={() => setEditing(false)}
              className={`${OUTLINE} border-slate-500 text-slate-800 hover:bg-slate-100 focus-visible:ring-blue-300`}
            >
              {t("cancel")}
            </button>
          </div>
        </form>
      ) : null}
    </section>
  );
}
