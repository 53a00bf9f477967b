"use client";

import { Fragment, useState } from "react";
import { useTranslations } from "next-intl";
import { CHANNELS } from "@/lib/core/orders";
import { sharesNumbers, seriesSize } from "@/lib/core/series";
import type { SeriesWithOpen } from "@/lib/core/series-service";
import { dispatchFields, submitTo, useStaffAction } from "@/app/_lib/use-staff-action";
import { FormError } from "@/app/_components/form-error";
import { BUTTON } from "../_components/console-styles";
import { ConfirmButtons } from "../_components/confirm-buttons";
import { StatusNote } from "../_components/status-note";
import { useFreshError } from "../_components/use-fresh-error";
import { createSeries, deleteSeries, updateSeries } from "./actions";
import { rangeText, seriesLabel, SeriesFields } from "./series-fields";

/** A series as the page lists it, with this shift's orders in it and how many of its numbers are open. */
export type SeriesRow = SeriesWithOpen & { orders: number };

const OUTLINE = `${BUTTON} min-h-12 border-2 bg-white`;
const COLUMNS = 6;

/** The series, default first (fixed); add, edit and delete (confirmed) the others. */
export function SeriesPanel({ slug, series }: { slug: string; series: SeriesRow[] }) {
  const t = useTranslations("managerSeries");
  const [added, add, adding] = useStaffAction(createSeries);
  const [saved, save, saving] = useStaffAction(updateSeries);
  const [deleted, remove, deleting] = useStaffAction(deleteSeries);
  const [editing, setEditing] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [addError, clearAddError] = useFreshError(added);
  const [saveError, clearSaveError] = useFreshError(saved);
  const [savedFor, setSavedFor] = useState<unknown>(null);
  const [addedFor, setAddedFor] = useState<unknown>(null);
  const [addForm, setAddForm] = useState(0);
  // A save that worked closes its form, an add that worked empties its form (once per answer; a refused one keeps what was typed).
  if (saved?.ok && savedFor !== saved) {
    setSavedFor(saved);
    setEditing(null);
  }
  if (added?.ok && addedFor !== added) {
    setAddedFor(added);
    setAddForm((n) => n + 1);
  }

  const claimed = new Set(series.flatMap((s) => s.channels));
  const channelList = (cs: readonly string[]) => cs.map((c) => t(`channelNames.${c as (typeof CHANNELS)[number]}`)).join(t("separator"));
  const overlaps = series.flatMap((a, i) => series.slice(i + 1).flatMap((b) => (sharesNumbers(a, b) ? [[b, a] as const] : [])));

  return (
    <div className="space-y-6">
      <FormError message={deleted && !deleted.ok ? deleted.error : null} />
      <StatusNote token={deleted}>{deleted?.ok ? t("deleted", { name: deleted.data.name }) : null}</StatusNote>
      <StatusNote token={saved}>{saved?.ok ? t("saved", { name: saved.data.name }) : null}</StatusNote>

      <div className="overflow-x-auto rounded-xl border-2 border-slate-300 bg-white">
        <table className="w-full border-collapse text-left text-lg" data-testid="series-table">
          <thead className="border-b-2 border-slate-300 text-base text-slate-600">
            <tr>
              {(["name", "prefix", "range", "channels", "orders", "actions"] as const).map((c) => (
                // Whole words only: two-character Chinese headings broke into two lines.
                <th key={c} scope="col" className="px-3 py-2 font-semibold break-keep">
                  {t(`table.${c}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {series.map((s) => (
              <Fragment key={s.id}>
                <tr data-testid="series-row" className="border-b border-slate-200 align-top">
                  <th scope="row" className="px-3 py-3 font-bold">
                    {seriesLabel(t, s)}
                    {s.isDefault ? (
                      <span className="ml-2 inline-block rounded-md bg-slate-200 px-2 py-0.5 text-sm font-semibold whitespace-nowrap text-slate-800">
                        {t("fixed")}
                      </span>
                    ) : null}
                  </th>
                  <td className="px-3 py-3 font-mono">{s.prefix || <span className="font-sans text-slate-600">{t("noPrefix")}</span>}</td>
                  <td className="px-3 py-3 whitespace-nowrap tabular-nums">{rangeText(t, s)}</td>
                  <td className="px-3 py-3">
                    {s.isDefault
                      ? t("otherChannels", { channels: channelList(CHANNELS.filter((c) => !claimed.has(c))) })
                      : s.channels.length
                        ? channelList(s.channels)
                        : t("noChannels")}
                  </td>
                  <td className="px-3 py-3 tabular-nums">{s.orders}</td>
                  <td className="px-3 py-2">
                    {s.isDefault ? (
                      <span className="text-base text-slate-600">{t("fixedHint")}</span>
                    ) : editing === s.id || confirming === s.id ? null : (
                      <div className="flex flex-nowrap gap-2">
                        <button
                          type="button"
                          aria-label={t("editLabel", { name: s.name })}
                          onClick={() => {
                            setConfirming(null);
                            setEditing(s.id);
                          }}
                          className={`${OUTLINE} border-slate-500 text-slate-800 hover:bg-slate-100 focus-visible:ring-blue-300`}
                        >
                          {t("edit")}
                        </button>
                        <button
                          type="button"
                          aria-label={t("deleteLabel", { name: s.name })}
                          disabled={deleting}
                          onClick={() => {
                            setEditing(null);
                            setConfirming(s.id);
                          }}
                          className={`${OUTLINE} border-red-700 text-red-800 hover:bg-red-50 focus-visible:ring-red-300`}
                        >
                          {t("delete")}
                        </button>
                      </div>
                    )}
                  </td>
                </tr>
                {s.fill !== "ok" ? (
                  <tr>
                    <td colSpan={COLUMNS} className="px-3 pb-3">
                      <p
                        role="status"
                        data-testid="series-near-full"
                        className="rounded-lg border-2 border-amber-600 bg-amber-50 px-4 py-2 text-lg text-amber-950"
                      >
                        {t(s.fill === "full" ? "full" : "nearFull", { range: rangeText(t, s), open: s.open, size: seriesSize(s) })}
                      </p>
                    </td>
                  </tr>
                ) : null}
                {confirming === s.id ? (
                  <tr>
                    <td colSpan={COLUMNS} className="px-3 pb-3">
                      <div className="space-y-2 rounded-lg border-2 border-amber-600 bg-amber-50 p-3">
                        <p className="text-lg font-semibold text-amber-950">{t("deleteConfirm", { name: s.name })}</p>
                        <ConfirmButtons
                          yes={t("deleteYes")}
                          back={t("back")}
                          pending={deleting}
                          onYes={() => {
                            setConfirming(null);
                            dispatchFields(remove, { tenant: slug, id: s.id });
                          }}
                          onBack={() => setConfirming(null)}
                        />
                      </div>
                    </td>
                  </tr>
                ) : null}
                {editing === s.id ? (
                  <tr>
                    <td colSpan={COLUMNS} className="px-3 pb-3">
                      <form
                        onSubmit={submitTo(save)}
                        onInput={clearSaveError}
                        aria-label={t("editHeading", { name: s.name })}
                        className="space-y-4 rounded-lg border-2 border-blue-700 bg-blue-50 p-4"
                      >
                        <input type="hidden" name="tenant" value={slug} />
                        <input type="hidden" name="id" value={s.id} />
                        <SeriesFields idPrefix={`edit-${s.id}`} initial={s} others={series.filter((o) => o.id !== s.id)} />
                        <FormError message={saveError} />
                        <div className="flex flex-wrap gap-3">
                          <button
                            type="submit"
                            disabled={saving}
                            className={`${BUTTON} bg-slate-900 text-white hover:bg-slate-700 focus-visible:ring-blue-300`}
                          >
                            {saving ? t("saving") : t("save")}
                          </button>
                          <button
                            type="button"
                            onClick={() => setEditing(null)}
                            className={`${OUTLINE} border-slate-500 text-slate-800 hover:bg-slate-100 focus-visible:ring-blue-300`}
                          >
                            {t("cancel")}
                          </button>
                        </div>
                      </form>
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            ))}
          </tbody>
        </table>
      </div>
      {overlaps.length ? (
        <ul className="space-y-2" data-testid="series-overlaps">
          {overlaps.map(([a, b]) => (
            <li key={`${a.id}-${b.id}`} className="rounded-lg border-2 border-amber-600 bg-amber-50 px-4 py-2 text-lg text-amber-950">
              {t("overlapPair", { name: seriesLabel(t, a), range: rangeText(t, a), other: seriesLabel(t, b) })}
            </li>
          ))}
        </ul>
      ) : null}

      <h2 id="add-series" className="pt-2 text-2xl font-bold">
        {t("addHeading")}
      </h2>
      <form
        key={addForm}
        onSubmit={submitTo(add)}
        onInput={clearAddError}
        aria-labelledby="add-series"
        className="space-y-4 rounded-xl border-2 border-slate-300 bg-white p-4"
      >
        <input type="hidden" name="tenant" value={slug} />
        <SeriesFields idPrefix="series" others={series} />
        <FormError message={addError} />
        <button type="submit" disabled={adding} className={`${BUTTON} bg-slate-900 text-white hover:bg-slate-700 focus-visible:ring-blue-300`}>
          {adding ? t("creating") : t("create")}
        </button>
      </form>
      <StatusNote token={added}>{added?.ok ? t("added", { name: added.data.name }) : null}</StatusNote>
    </div>
  );
}
